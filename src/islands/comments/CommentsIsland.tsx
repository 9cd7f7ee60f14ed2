/**
 * The comments island: takes over the server-rendered section (./mount.ts) and makes it work. Write, reply (one level: a
 * reply to a reply joins the thread and starts with "@nickname "), edit one's own one at a time (docs/reference/product-rules.md#states:
 * while one is edited, no other edit opens and no reply can be sent), delete after a confirm, like, load the next page or
 * the new comments in place, copy a link, report; an administrator also hides a comment or shows it again, with a reason.
 * The count follows every answer through the counts store; who may write follows the session store. Failures as
 * docs/reference/product-rules.md#errors-and-texts (forced login keeping the text, the ban dialog, too many requests, the generic alert).
 * The state and its changes are ./state.ts's reducer; the markup is ./CommentsView.tsx, the server's too.
 */
import * as roles from '@/lib/roles';
import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from 'react';
import { useStore } from '@nanostores/react';
import { flushSync } from 'react-dom';
import { $session, activeMember } from '@/stores/session';
import { $postCounts, setCounts } from '@/stores/post-counts';
import { $blockChanges, blockedNow } from '@/stores/blocks';
import AlertDialog from '@/islands/common/AlertDialog';
import { ConfirmDialog } from '@/islands/admin/dialogs';
import { openBanDialog, openForcedLogin } from '@/islands/common/route-error-dialog';
import { openReportDialog } from '@/islands/common/report-dialog';
import { showToast } from '@/stores/toasts';
import { pageUrls } from '@/lib/urls';
import { commentsApi, failureMeaning } from './api';
import { resultCodeOf } from '@/lib/api-client';
import { CommentNotFound } from '@/lib/result-codes';
import CommentsView, { EDITING_NOTE_ID, type CommentsHandlers } from './CommentsView';
import type { MenuAction } from './CommentMenu';
import type { CommentsData } from './data';
import { keepComment, takeKeptComment, type KeptBox, type KeptScope } from './kept-text';
import { commentLink, textProblem, type ReadableComment, type TextProblem } from './model';
import { commentsReducer, initialCommentsState, readableItem, type BoxRef, type Draft } from './state';
import { loginRequiredDialog, type Wake } from './wake';
import { likeAction } from './like';
import { mentionSource } from '@/islands/mentions/suggestions';
import { fill } from './texts';
import { newComments, useShowNew } from './show-new';

export interface IslandProps extends CommentsData {
	/** What the reader typed into the page's box before the island took over. */
	initialText: string;
	wake: Wake | null;
	/** The blocked members' comments the reader had opened before the island took over (mount.ts). */
	revealed?: number[];
}

/** Puts the focus on the element `selector` names, after the next paint (once the render that makes it is on screen). */
const focusSoon = (...selectors: string[]) =>
	requestAnimationFrame(() => {
		for (const selector of selectors) {
			const element = document.querySelector<HTMLElement>(selector);
			if (element) return element.focus();
		}
	});
const menuButton = (commentId: number) => `[data-action="menu"][data-comment-id="${commentId}"]`;

export default function CommentsIsland(props: IslandProps) {
	const { postId, language, channelBase, texts, domain, slug } = props;
	const channel = useMemo(() => ({ domain, slug }), [domain, slug]);
	// The page's session (the store once the page has seeded it: a guest's page never does).
	const session = useStore($session);
	const member = session ? activeMember(session) : null;
	const userId = session ? (member?.userId ?? null) : props.userId;
	const isAdmin = session ? member !== null && roles.isAdmin(member) : props.isAdmin;
	const banned = session ? session.kind === 'banned' : props.banned;
	const api = useMemo(() => commentsApi(channel, postId, userId, props.order), [channel, postId, userId, props.order]);
	// The @ suggestions of every box, remembered for the island's life (the member's read limit).
	const mentions = useMemo(() => (userId === null ? null : mentionSource(channel, () => String(userId))), [channel, userId]);
	const postUrl = pageUrls(channelBase).post(postId);
	// Kept text belongs to the member the page was rendered for: their session may have ended since (here or in another tab).
	const scope: KeptScope | null = props.userId === null ? null : { domain: props.domain, slug: props.slug, userId: props.userId, postId };

	// A Reply pressed before the island opens its box with the island's first render, with what the page's box holds (mount.ts).
	const [state, dispatch] = useReducer(commentsReducer, props, initialCommentsState);
	const { draft, reply, edit, nextAfter } = state;
	const count = useStore($postCounts)[postId]?.commentCount ?? props.commentCount;
	const setCount = (next: number | ((count: number) => number)) =>
		setCounts(postId, { commentCount: typeof next === 'number' ? next : next($postCounts.get()[postId]?.commentCount ?? props.commentCount) });
	const [highlight] = useState(() => Number(/^#comment-(\d+)$/.exec(location.hash)?.[1]) || null);
	const requestIds = useRef(new Map<string, string>());
	const heading = useRef<HTMLHeadingElement>(null);
	// The members the reader blocked (docs/reference/blocking.md): the page's, and the changes made since anywhere on the page
	// (a comment's menu, the post's bar: the shared store); and the collapsed comments opened.
	const blockChanges = useStore($blockChanges);
	const blockedAuthors = useMemo(() => blockedNow(blockChanges, props.blocking?.authors ?? []), [blockChanges, props.blocking]);
	const [revealed, setRevealed] = useState<readonly number[]>(() => props.revealed ?? []);

	const own = (comment: ReadableComment) => userId !== null && comment.author.userId === userId;
	const requestIdFor = (box: string) => {
		let id = requestIds.current.get(box);
		if (!id) requestIds.current.set(box, (id = crypto.randomUUID()));
		return id;
	};
	const changeBox = (ref: BoxRef, change: Partial<Draft>) => dispatch({ type: 'box', ...ref, change });

	/**
	 * docs/reference/product-rules.md#errors-and-texts for a failed request; `kept` is the text to keep when the session has ended or the
	 * browser is offline, and `resend` sends it again once the browser is back online.
	 */
	const fail = (error: unknown, kept: { box: KeptBox; text: string } | null, onProblem?: (problem: TextProblem) => void, resend?: () => void) => {
		if (kept && resend && !navigator.onLine) {
			// Kept on this device (it comes back into its box if the page is closed) and sent again, with the same requestId, when the connection returns.
			if (scope && kept.text.trim() !== '') keepComment(scope, kept);
			// Back online, the offline alert goes (if the reader has not closed it) and the comment is sent: its toast says so.
			addEventListener(
				'online',
				() => {
					if (scope) takeKeptComment(scope);
					dispatch({ type: 'offlineOver', message: texts['common.message.offline'], title: texts['common.message.offlineTitle'] });
					resend();
				},
				{ once: true },
			);
			dispatch({ type: 'alert', title: texts['common.message.offlineTitle'], message: texts['common.message.offline'] });
			return;
		}
		const meaning = failureMeaning(error, channelBase, `${location.pathname}${location.search}`);
		if (meaning.kind === 'forced-login') {
			if (kept && scope && kept.text.trim() !== '') keepComment(scope, kept);
			openForcedLogin(meaning.loginUrl);
		} else if (meaning.kind === 'ban') openBanDialog(meaning.endsAt);
		else if (meaning.kind === 'field' && onProblem) onProblem(meaning.problem);
		else {
			const fallback = meaning.kind === 'too-many' ? texts['common.message.tooManyRequests'] : texts['common.message.error'];
			// A comment that was not sent says so in the title; the box still holds it.
			if (kept) dispatch({ type: 'alert', title: texts['comment.failed.title'] });
			// A new member's limits have their own sentence (loaded on failure, as on the write screen).
			void import('@/lib/spam-failure').then(
				({ spamFailureText }) => dispatch({ type: 'alert', message: spamFailureText(error, texts, language) ?? fallback }),
				() => dispatch({ type: 'alert', message: fallback }),
			);
		}
	};

	const askLogin = () => {
		const dialog = loginRequiredDialog();
		if (dialog && !dialog.open) {
			dialog.returnValue = '';
			dialog.showModal();
		}
	};

	/** A comment or reply answered by the API: in the list, the count updated, the box emptied, the toast shown. */
	const posted = (box: 'new' | 'reply', answer: Awaited<ReturnType<typeof api.create>>) => {
		dispatch({ type: 'posted', box, comment: answer.comment });
		setCount(answer.commentCount);
		showToast(texts['comment.message.posted']);
	};

	const submitNew = async () => {
		const box: BoxRef = { box: 'new' };
		const problem = textProblem(draft.text);
		if (problem) return changeBox(box, { problem });
		changeBox(box, { problem: null, busy: true });
		try {
			const answer = await api.create(draft.text, null, requestIdFor('new'));
			requestIds.current.delete('new');
			posted('new', answer);
		} catch (error) {
			changeBox(box, { busy: false });
			fail(
				error,
				{ box: { kind: 'new' }, text: draft.text },
				(p) => changeBox(box, { problem: p }),
				() => void submitNew(),
			);
		}
	};

	/** Closes the reply box; the focus goes back to the Reply it came from (or its thread's, when that one is gone). */
	const cancelReply = (targetId: number) => {
		const threadId = reply?.parentId;
		dispatch({ type: 'closeReply' });
		focusSoon(`[data-action="reply"][data-comment-id="${targetId}"]`, `[data-action="reply"][data-comment-id="${threadId}"]`);
	};

	const submitReply = async () => {
		if (!reply || edit) return;
		const { parentId, targetId, draft: replyDraft } = reply;
		const box: BoxRef = { box: 'reply', id: parentId };
		const problem = textProblem(replyDraft.text);
		if (problem) return changeBox(box, { problem });
		changeBox(box, { problem: null, busy: true });
		try {
			const requestId = requestIdFor(`reply-${parentId}`);
			// The reply answered went meanwhile: the text still joins its thread, as a reply to the thread's comment.
			const answer = await api.create(replyDraft.text, targetId, requestId).catch((error: unknown) => {
				if (targetId === parentId || resultCodeOf(error) !== CommentNotFound.code) throw error;
				return api.create(replyDraft.text, parentId, requestId);
			});
			requestIds.current.delete(`reply-${parentId}`);
			posted('reply', answer);
		} catch (error) {
			changeBox(box, { busy: false });
			fail(
				error,
				{ box: { kind: 'reply', parentId }, text: replyDraft.text },
				(p) => changeBox(box, { problem: p }),
				() => void submitReply(),
			);
		}
	};

	const submitEdit = async () => {
		if (!edit) return;
		const { commentId, draft: editDraft } = edit;
		const box: BoxRef = { box: 'edit', id: commentId };
		const problem = textProblem(editDraft.text);
		if (problem) return changeBox(box, { problem });
		changeBox(box, { problem: null, busy: true });
		try {
			const { comment } = await api.edit(commentId, editDraft.text);
			dispatch({ type: 'edited', comment });
			showToast(texts['comment.message.edited']);
			focusSoon(menuButton(commentId));
		} catch (error) {
			changeBox(box, { busy: false });
			fail(
				error,
				{ box: { kind: 'edit', commentId }, text: editDraft.text },
				(p) => changeBox(box, { problem: p }),
				() => void submitEdit(),
			);
		}
	};

	const remove = async (commentId: number) => {
		try {
			const { commentCount } = await api.remove(commentId);
			dispatch({ type: 'removed', commentId });
			setCount(commentCount);
			showToast(texts['comment.message.deleted']);
			heading.current?.focus();
		} catch (error) {
			fail(error, null);
		}
	};

	/** An administrator's hide or show again: the comment keeps its place, marked for administrators, and the count follows. */
	const moderate = async (commentId: number, hide: boolean, reason: string) => {
		try {
			await api.setHidden(commentId, hide, reason);
			dispatch({ type: 'moderated', commentId, hide });
			setCount((n) => n + (hide ? -1 : 1));
			showToast(texts[hide ? 'comment.message.hidden' : 'comment.message.shown']);
			document.querySelector<HTMLElement>(menuButton(commentId))?.focus();
		} catch (error) {
			fail(error, null);
		}
	};

	/** The next page; `live`: the comments that came since the page's (the live banner's Show, ./show-new.ts). */
	const loadMore = async (live = false) => {
		if ((!live && nextAfter === null) || state.loadingMore) return;
		dispatch({ type: 'moreLoading' });
		try {
			const { page, firstNew } = live || nextAfter === null ? await newComments(api, state) : { page: await api.page(nextAfter), firstNew: null };
			dispatch({ type: 'moreLoaded', page });
			setCount(page.commentCount);
			const first = live ? firstNew : page.comments[0]?.commentId;
			if (first) focusSoon(`#comment-${first} .comment-author, #comment-${first} .comment-text`);
		} catch (error) {
			dispatch({ type: 'moreFailed' });
			fail(error, null);
		}
	};

	useShowNew(loadMore);
	const copyLink = async (commentId: number) => {
		try {
			await navigator.clipboard.writeText(new URL(commentLink(postUrl, commentId), location.origin).href);
			showToast(texts['comment.message.copied']);
		} catch {
			dispatch({ type: 'alert', message: texts['common.message.error'] });
		}
	};

	/** Blocks (after the confirm) or unblocks the comment's author: their comments collapse, or open, in place. */
	const toggleBlock = async (target: { userId: number; nickname: string }, blocked: boolean, commentId: number) => {
		const { openBlockDialog, unblockMember } = await import('@/islands/common/block-dialog');
		// The store of blocks says it (the collapsed comments follow it), whoever blocked.
		if (blocked) return unblockMember(target, () => undefined);
		openBlockDialog(target, () => {
			// Collapsed at once, so that the focus (whose menu is now folded away) moves to the comment's toggle.
			flushSync(() => setRevealed((list) => list.filter((id) => id !== commentId)));
			document.querySelector<HTMLElement>(`[data-blocked-comment="${commentId}"] > summary`)?.focus();
		});
	};

	const menuActions = (comment: ReadableComment): MenuAction[] => {
		const actions: MenuAction[] = [{ key: 'copy-link', label: texts['comment.menu.copyLink'], run: () => void copyLink(comment.commentId) }];
		if (!own(comment)) {
			// Reported already (the page's mark, or a report made since): says so, and does nothing, as the post's Report does.
			const done = userId !== null && (comment.reported === true || state.reportedNow.includes(comment.commentId));
			actions.push({
				key: 'report',
				label: texts[done ? 'report.reported' : 'comment.menu.report'],
				done,
				run: () =>
					userId === null
						? askLogin()
						: openReportDialog({ type: 'COMMENT', id: comment.commentId }, () => dispatch({ type: 'reported', commentId: comment.commentId })),
			});
		}
		const { blocking } = props;
		const { author } = comment;
		if (blocking && userId !== null && !own(comment) && !author.withdrawn && author.nickname !== null) {
			const blocked = blockedAuthors.includes(author.userId);
			const target = { userId: author.userId, nickname: author.nickname };
			actions.push({
				key: blocked ? 'unblock' : 'block',
				label: fill(blocked ? blocking.menuUnblock : blocking.menu, { nickname: author.nickname }),
				run: () => void toggleBlock(target, blocked, comment.commentId),
			});
		}
		if (own(comment))
			actions.push({
				key: 'edit',
				label: texts['comment.menu.edit'],
				blockedBy: edit ? EDITING_NOTE_ID : undefined,
				run: () => dispatch({ type: 'openEdit', comment }),
			});
		if (isAdmin && userId !== null) {
			const hide = comment.state === 'VISIBLE';
			actions.push({
				key: hide ? 'hide' : 'unhide',
				label: texts[hide ? 'comment.menu.hide' : 'comment.menu.unhide'],
				run: () => dispatch({ type: 'confirmModerate', target: { commentId: comment.commentId, hide } }),
			});
		}
		if (own(comment) || (isAdmin && userId !== null))
			actions.push({
				key: 'delete',
				label: texts['comment.menu.delete'],
				run: () => dispatch({ type: 'confirmDelete', commentId: comment.commentId }),
			});
		return actions;
	};

	// After posting: the new comment comes into view (below the sticky header: the root's
	// scroll-padding-top), marked for a moment (comments.css), and takes the focus, so a keyboard or
	// screen reader is where the comment is; the toast (role="status") says it was posted.
	useEffect(() => {
		if (state.posted === null) return;
		const element = document.getElementById(`comment-${state.posted}`);
		if (!element) return;
		element.focus({ preventScroll: true });
		element.scrollIntoView({ block: 'nearest', behavior: matchMedia('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth' });
	}, [state.posted]);

	const onMenuOpenChange = useCallback((commentId: number, open: boolean) => dispatch({ type: 'menu', commentId, open }), []);
	const onLike = likeAction({ api, userId, dispatch, askLogin, fail: (error) => fail(error, null), unavailable: texts['commentLikes.unavailable'] });

	// Once: the kept text of an ended session comes back, and the press that woke the island is replayed.
	const started = useRef(false);
	useEffect(() => {
		if (started.current) return;
		started.current = true;
		const kept = scope ? takeKeptComment(scope) : null;
		if (kept) {
			dispatch({ type: 'restore', kept, userId, texts });
			const { box } = kept;
			focusSoon(
				box.kind === 'new' ? '#comment-box-new' : box.kind === 'reply' ? `#comment-box-reply-${box.parentId}` : `#comment-box-edit-${box.commentId}`,
			);
		}
		const { wake } = props;
		const target = readableItem([...props.items, ...props.best], wake?.commentId);
		if (wake?.action === 'menu' && target) dispatch({ type: 'menu', commentId: target.commentId, open: true });
		else if (wake?.action === 'like' && target) onLike(target);
		else if (wake?.action === 'more') void loadMore();
		else if (wake?.action === 'live') void loadMore(true);
		else if (wake?.action === 'post') void submitNew();
	}, []);

	const handlers: CommentsHandlers = {
		menuActions,
		onMenuOpenChange,
		onReply: (target) => (userId === null ? askLogin() : dispatch({ type: 'openReply', target, texts })),
		onDraftChange: (text) => changeBox({ box: 'new' }, { text, problem: null }),
		onDraftSubmit: () => void submitNew(),
		onReplyChange: (text) => reply && changeBox({ box: 'reply', id: reply.parentId }, { text, problem: null }),
		onReplySubmit: () => void submitReply(),
		onReplyCancel: cancelReply,
		onEditChange: (text) => edit && changeBox({ box: 'edit', id: edit.commentId }, { text, problem: null }),
		onEditSubmit: () => void submitEdit(),
		onEditCancel: (commentId) => {
			dispatch({ type: 'closeEdit' });
			focusSoon(menuButton(commentId));
		},
		onMore: () => void loadMore(),
		onLike,
		onRevealChange: (commentId, open) => setRevealed((list) => (open ? [...list, commentId] : list.filter((id) => id !== commentId))),
	};

	return (
		<>
			<CommentsView
				state={state}
				commentCount={count}
				postUrl={postUrl}
				channelBase={channelBase}
				language={language}
				texts={texts}
				startsAtBeginning={props.startsAtBeginning}
				revisions={props.revisions}
				userId={userId}
				banned={banned}
				highlight={highlight}
				mentions={mentions}
				handlers={handlers}
				heading={heading}
				{...(props.blocking && { blocking: { authors: blockedAuthors, revealed, text: props.blocking.collapsed } })}
			/>
			<AlertDialog
				open={state.deleting !== null}
				title={texts['write.confirm.title']}
				message={texts['comment.confirm.delete']}
				confirmLabel={texts['comment.menu.delete']}
				cancelLabel={texts['common.button.cancel']}
				onClosed={(confirmed) => {
					const commentId = state.deleting;
					dispatch({ type: 'confirmDelete', commentId: null });
					if (confirmed && commentId !== null) void remove(commentId);
				}}
			/>
			{isAdmin && (
				<ConfirmDialog
					open={state.moderating !== null}
					title={state.moderating?.hide === false ? texts['admin.confirm.unhideCOMMENT'] : texts['admin.confirm.hideCOMMENT']}
					confirmLabel={state.moderating?.hide === false ? texts['comment.menu.unhide'] : texts['comment.menu.hide']}
					danger={state.moderating?.hide !== false}
					texts={texts}
					onClosed={(reason) => {
						const target = state.moderating;
						dispatch({ type: 'confirmModerate', target: null });
						if (target && reason !== null) void moderate(target.commentId, target.hide, reason);
					}}
				/>
			)}
			<AlertDialog
				open={state.alert !== null}
				title={state.alertTitle ?? texts['common.message.alert']}
				message={state.alert ?? ''}
				confirmLabel={texts['common.button.confirm']}
				onClosed={() => dispatch({ type: 'alertClosed' })}
			/>
		</>
	);
}

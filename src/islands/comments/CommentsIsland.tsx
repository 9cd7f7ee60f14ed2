/**
 * The comments island: takes over the server-rendered section (./mount.ts) and makes it work.
 * Write a comment, reply (one level: a reply to a reply joins the thread and starts with
 * "@nickname "), edit one's own one at a time (docs/product-rules.md#states: while one is edited, no other edit opens
 * and no reply can be sent; the controls say why), delete after a confirm, load the next page in
 * place, copy a comment's link, report someone else's; an administrator also hides a comment or
 * shows it again (issue 12), with a reason for the audit log. The count follows every answer, through
 * the counts store (the post's header shows it too); who may write follows the session store, so a
 * sign-out in another tab turns the box into a guest's.
 * Failures as docs/product-rules.md#errors-and-texts: the forced-login alert (the text kept for the member's return), the ban
 * dialog, too many requests, or the generic alert.
 */
import * as roles from '@/lib/roles';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useStore } from '@nanostores/react';
import { $session, activeMember } from '@/stores/session';
import { $postCounts, setCounts } from '@/stores/post-counts';
import AlertDialog from '@/islands/common/AlertDialog';
import { ConfirmDialog } from '@/islands/admin/dialogs';
import { openBanDialog, openForcedLogin } from '@/islands/common/route-error-dialog';
import { openReportDialog } from '@/islands/common/report-dialog';
import { showToast } from '@/stores/toasts';
import { formatCount } from '@/lib/format-date';
import { pageUrls } from '@/lib/urls';
import type { Language } from '@/schemas/channel';
import { commentsApi, failureMeaning } from './api';
import { resultCodeOf } from '@/lib/api-client';
import { CommentNotFound } from '@/lib/result-codes';
import CommentEntry from './CommentEntry';
import CommentForm from './CommentForm';
import type { MenuAction } from './CommentMenu';
import { keepComment, takeKeptComment, type KeptBox, type KeptScope } from './kept-text';
import {
	commentLink,
	groupThreads,
	mergeItems,
	removeItem,
	replyTarget,
	replyToHref,
	textProblem,
	type CommentItem,
	type ReadableComment,
	type TextProblem,
} from './model';
import { fill, type CommentTexts } from './texts';
import { loginRequiredDialog, type Wake } from './wake';
import { mentionSource } from '@/islands/mentions/suggestions';

export interface IslandProps {
	postId: number;
	userId: number | null;
	isAdmin: boolean;
	/** The page was rendered for a banned member. */
	banned: boolean;
	language: Language;
	domain: string;
	slug: string;
	channelBase: string;
	apis: { public: string; member: string };
	items: CommentItem[];
	commentCount: number;
	nextAfter: number | null;
	startsAtBeginning: boolean;
	texts: CommentTexts;
	/** What the reader typed into the page's box before the island took over. */
	initialText: string;
	wake: Wake | null;
}

interface Draft {
	text: string;
	problem: TextProblem | null;
	busy: boolean;
}

interface ReplyBox {
	parentId: number;
	targetId: number;
	to: string;
	named: boolean;
	draft: Draft;
}

const EDITING_NOTE_ID = 'comments-editing-note';
const emptyDraft = (text = ''): Draft => ({ text, problem: null, busy: false });
/** The reply box of a Reply pressed on `target`, holding `text` (the "@nickname " of a reply to a reply when none). */
function replyBox(target: ReadableComment, texts: CommentTexts, text?: string): ReplyBox {
	const { parentId, targetId, prefix } = replyTarget(target);
	const to = target.author.nickname ?? texts['common.withdrawnMember'];
	return { parentId, targetId, to, named: target.author.nickname !== null, draft: emptyDraft(text ?? prefix) };
}

const readableItem = (items: readonly CommentItem[], commentId: number | null | undefined) =>
	commentId ? items.find((item): item is ReadableComment => item.commentId === commentId && item.readable) : undefined;

/** A comment without the automatic hide's mark. */
const withoutAutoHidden = ({ autoHidden: _auto, ...item }: ReadableComment): ReadableComment => item;

export default function CommentsIsland(props: IslandProps) {
	const { postId, language, channelBase, texts } = props;
	// The page's session (the store once the page has seeded it: a guest's page never does).
	const session = useStore($session);
	const member = session ? activeMember(session) : null;
	const userId = session ? (member?.userId ?? null) : props.userId;
	const isAdmin = session ? member !== null && roles.isAdmin(member) : props.isAdmin;
	const banned = session ? session.kind === 'banned' : props.banned;
	const api = useMemo(() => commentsApi(props.apis, postId, userId), [props.apis, postId, userId]);
	// The @ suggestions of every box, remembered for the island's life (the member's read limit).
	const mentions = useMemo(
		() => (userId === null ? null : mentionSource(`${props.apis.member}/members/suggest`, () => String(userId))),
		[props.apis.member, userId],
	);
	const postUrl = pageUrls(channelBase).post(postId);
	// Kept text belongs to the member the page was rendered for: their session may have ended since (here or in another tab).
	const scope: KeptScope | null = props.userId === null ? null : { domain: props.domain, slug: props.slug, userId: props.userId, postId };

	const [items, setItems] = useState(props.items);
	const count = useStore($postCounts)[postId]?.commentCount ?? props.commentCount;
	const setCount = (next: number | ((count: number) => number)) =>
		setCounts(postId, { commentCount: typeof next === 'number' ? next : next($postCounts.get()[postId]?.commentCount ?? props.commentCount) });
	const [nextAfter, setNextAfter] = useState(props.nextAfter);
	const [loadingMore, setLoadingMore] = useState(false);
	const [draft, setDraft] = useState<Draft>(() => emptyDraft(props.initialText));
	// A reply box: its thread (`parentId`), the comment it answers (`targetId`) and that one's author (`to`; `named` false for a withdrawn one).
	// A Reply pressed before the island opens it with the island's first render, with what the page's box holds (mount.ts).
	const [reply, setReply] = useState<ReplyBox | null>(() => {
		const { wake } = props;
		const target = wake?.action === 'reply' ? readableItem(props.items, wake.commentId) : undefined;
		return target ? replyBox(target, texts, wake?.text) : null;
	});
	const [edit, setEdit] = useState<{ commentId: number; draft: Draft } | null>(null);
	const [menuFor, setMenuFor] = useState<number | null>(null);
	const [deleting, setDeleting] = useState<number | null>(null);
	const [moderating, setModerating] = useState<{ commentId: number; hide: boolean } | null>(null);
	const [alert, setAlert] = useState<string | null>(null);
	/** The alert's title when it says more than "Notice": offline, or a comment that was not posted. */
	const [alertTitle, setAlertTitle] = useState<string | null>(null);
	const [highlight] = useState(() => Number(/^#comment-(\d+)$/.exec(location.hash)?.[1]) || null);
	// The comment the reader has just posted: scrolled to, marked for a moment and given the focus.
	const [posted, setPosted] = useState<number | null>(null);
	// The comments reported since the page loaded (the report dialog says so), beside those the page marked.
	const [reportedNow, setReportedNow] = useState<readonly number[]>([]);
	const requestIds = useRef(new Map<string, string>());
	const heading = useRef<HTMLHeadingElement>(null);

	const own = (comment: ReadableComment) => userId !== null && comment.author.userId === userId;
	const requestIdFor = (box: string) => {
		let id = requestIds.current.get(box);
		if (!id) requestIds.current.set(box, (id = crypto.randomUUID()));
		return id;
	};

	/**
	 * docs/product-rules.md#errors-and-texts for a failed request; `kept` is the text to keep when the session has ended or the
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
					setAlert((current) => (current === texts['common.message.offline'] ? null : current));
					setAlertTitle((title) => (title === texts['common.message.offlineTitle'] ? null : title));
					resend();
				},
				{ once: true },
			);
			setAlertTitle(texts['common.message.offlineTitle']);
			setAlert(texts['common.message.offline']);
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
			if (kept) setAlertTitle(texts['comment.failed.title']);
			// A new member's limits have their own sentence (loaded on failure, as on the write screen).
			void import('@/lib/spam-failure').then(
				({ spamFailureText }) => setAlert(spamFailureText(error, texts, language) ?? fallback),
				() => setAlert(fallback),
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

	const submitNew = async () => {
		const problem = textProblem(draft.text);
		if (problem) return setDraft((d) => ({ ...d, problem }));
		setDraft((d) => ({ ...d, problem: null, busy: true }));
		try {
			const { comment, commentCount } = await api.create(draft.text, null, requestIdFor('new'));
			requestIds.current.delete('new');
			setItems((list) => mergeItems(list, [comment]));
			setCount(commentCount);
			setDraft(emptyDraft());
			setPosted(comment.commentId);
			showToast(texts['comment.message.posted']);
		} catch (error) {
			setDraft((d) => ({ ...d, busy: false }));
			fail(
				error,
				{ box: { kind: 'new' }, text: draft.text },
				(problem) => setDraft((d) => ({ ...d, problem })),
				() => void submitNew(),
			);
		}
	};

	const openReply = (target: ReadableComment) => {
		if (userId === null) return askLogin();
		if (edit) return;
		setReply((current) => {
			const next = replyBox(target, texts);
			return current?.parentId === next.parentId && current.draft.text.trim() !== '' ? { ...next, draft: current.draft } : next;
		});
	};

	/** Closes the reply box; the focus goes back to the Reply it came from (or its thread's, when that one is gone). */
	const cancelReply = (targetId: number) => {
		const threadId = reply?.parentId;
		setReply(null);
		requestAnimationFrame(() =>
			(
				document.querySelector<HTMLElement>(`[data-action="reply"][data-comment-id="${targetId}"]`) ??
				document.querySelector<HTMLElement>(`[data-action="reply"][data-comment-id="${threadId}"]`)
			)?.focus(),
		);
	};

	const submitReply = async () => {
		if (!reply || edit) return;
		const { parentId, targetId, draft: replyDraft } = reply;
		const problem = textProblem(replyDraft.text);
		const update = (change: Partial<Draft>) => setReply((r) => (r && r.parentId === parentId ? { ...r, draft: { ...r.draft, ...change } } : r));
		if (problem) return update({ problem });
		update({ problem: null, busy: true });
		try {
			const requestId = requestIdFor(`reply-${parentId}`);
			// The reply answered went meanwhile: the text still joins its thread, as a reply to the thread's comment.
			const { comment, commentCount } = await api.create(replyDraft.text, targetId, requestId).catch((error: unknown) => {
				if (targetId === parentId || resultCodeOf(error) !== CommentNotFound.code) throw error;
				return api.create(replyDraft.text, parentId, requestId);
			});
			requestIds.current.delete(`reply-${parentId}`);
			setItems((list) => mergeItems(list, [comment]));
			setCount(commentCount);
			setReply(null);
			setPosted(comment.commentId);
			showToast(texts['comment.message.posted']);
		} catch (error) {
			update({ busy: false });
			fail(
				error,
				{ box: { kind: 'reply', parentId }, text: replyDraft.text },
				(p) => update({ problem: p }),
				() => void submitReply(),
			);
		}
	};

	const openEdit = (comment: ReadableComment) => {
		if (edit) return;
		setReply((r) => (r && r.draft.text.trim() !== '' && r.draft.text !== `@${r.to} ` ? r : null));
		setEdit({ commentId: comment.commentId, draft: emptyDraft(comment.content) });
	};

	const submitEdit = async () => {
		if (!edit) return;
		const { commentId, draft: editDraft } = edit;
		const problem = textProblem(editDraft.text);
		const update = (change: Partial<Draft>) => setEdit((e) => (e && e.commentId === commentId ? { ...e, draft: { ...e.draft, ...change } } : e));
		if (problem) return update({ problem });
		update({ problem: null, busy: true });
		try {
			const { comment } = await api.edit(commentId, editDraft.text);
			setItems((list) => mergeItems(list, [comment]));
			setEdit(null);
			showToast(texts['comment.message.edited']);
			requestAnimationFrame(() => document.querySelector<HTMLElement>(`[data-action="menu"][data-comment-id="${commentId}"]`)?.focus());
		} catch (error) {
			update({ busy: false });
			fail(
				error,
				{ box: { kind: 'edit', commentId }, text: editDraft.text },
				(p) => update({ problem: p }),
				() => void submitEdit(),
			);
		}
	};

	const remove = async (commentId: number) => {
		try {
			const { commentCount } = await api.remove(commentId);
			setItems((list) => removeItem(list, commentId));
			setCount(commentCount);
			setEdit((e) => (e?.commentId === commentId ? null : e));
			setReply((r) => (r?.parentId === commentId && !items.some((item) => item.parentId === commentId) ? null : r));
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
			// A moderator's hide or show again: no longer the automatic hide's.
			setItems((list) =>
				list.map((item) =>
					item.commentId === commentId && item.readable ? { ...withoutAutoHidden(item), state: hide ? 'HIDDEN_BY_ADMIN' : 'VISIBLE' } : item,
				),
			);
			setCount((n) => n + (hide ? -1 : 1));
			showToast(texts[hide ? 'comment.message.hidden' : 'comment.message.shown']);
			document.querySelector<HTMLElement>(`[data-action="menu"][data-comment-id="${commentId}"]`)?.focus();
		} catch (error) {
			fail(error, null);
		}
	};

	const loadMore = async () => {
		if (nextAfter === null || loadingMore) return;
		setLoadingMore(true);
		try {
			const page = await api.page(nextAfter);
			setItems((list) => mergeItems(list, page.comments));
			setNextAfter(page.nextAfter);
			setCount(page.commentCount);
			const first = page.comments[0];
			if (first)
				requestAnimationFrame(() =>
					document.querySelector<HTMLElement>(`#comment-${first.commentId} .comment-author, #comment-${first.commentId} .comment-text`)?.focus(),
				);
		} catch (error) {
			fail(error, null);
		} finally {
			setLoadingMore(false);
		}
	};

	const copyLink = async (commentId: number) => {
		try {
			await navigator.clipboard.writeText(new URL(commentLink(postUrl, commentId), location.origin).href);
			showToast(texts['comment.message.copied']);
		} catch {
			setAlert(texts['common.message.error']);
		}
	};

	const menuActions = (comment: ReadableComment): MenuAction[] => {
		const actions: MenuAction[] = [{ key: 'copy-link', label: texts['comment.menu.copyLink'], run: () => void copyLink(comment.commentId) }];
		if (!own(comment)) {
			// Reported already (the page's mark, or a report made since): says so, and does nothing, as the post's Report does.
			const done = userId !== null && (comment.reported === true || reportedNow.includes(comment.commentId));
			actions.push({
				key: 'report',
				label: texts[done ? 'report.reported' : 'comment.menu.report'],
				done,
				run: () =>
					userId === null
						? askLogin()
						: openReportDialog({ type: 'COMMENT', id: comment.commentId }, () => setReportedNow((ids) => [...ids, comment.commentId])),
			});
		}
		if (own(comment))
			actions.push({ key: 'edit', label: texts['comment.menu.edit'], blockedBy: edit ? EDITING_NOTE_ID : undefined, run: () => openEdit(comment) });
		if (isAdmin && userId !== null) {
			const hide = comment.state === 'VISIBLE';
			actions.push({
				key: hide ? 'hide' : 'unhide',
				label: texts[hide ? 'comment.menu.hide' : 'comment.menu.unhide'],
				run: () => setModerating({ commentId: comment.commentId, hide }),
			});
		}
		if (own(comment) || (isAdmin && userId !== null))
			actions.push({ key: 'delete', label: texts['comment.menu.delete'], run: () => setDeleting(comment.commentId) });
		return actions;
	};

	// After posting: the new comment comes into view (below the sticky header: the root's
	// scroll-padding-top), marked for a moment (comments.css), and takes the focus, so a keyboard or
	// screen reader is where the comment is; the toast (role="status") says it was posted.
	useEffect(() => {
		if (posted === null) return;
		const element = document.getElementById(`comment-${posted}`);
		if (!element) return;
		element.focus({ preventScroll: true });
		element.scrollIntoView({ block: 'nearest', behavior: matchMedia('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth' });
	}, [posted]);

	const onMenuOpenChange = useCallback(
		(commentId: number, open: boolean) => setMenuFor((current) => (open ? commentId : current === commentId ? null : current)),
		[],
	);

	// Once: the kept text of an ended session comes back, and the press that woke the island is replayed.
	const started = useRef(false);
	useEffect(() => {
		if (started.current) return;
		started.current = true;
		const kept = scope ? takeKeptComment(scope) : null;
		if (kept?.box.kind === 'new') setDraft(emptyDraft(kept.text));
		// A reply box the reader opened before the island (and may be typing in) is not replaced.
		const parent = kept?.box.kind === 'reply' && !reply ? readableItem(props.items, kept.box.parentId) : undefined;
		if (kept && parent) setReply(replyBox(parent, texts, kept.text));
		const edited = kept?.box.kind === 'edit' ? readableItem(props.items, kept.box.commentId) : undefined;
		if (kept && edited && own(edited)) setEdit({ commentId: edited.commentId, draft: emptyDraft(kept.text) });
		if (kept)
			requestAnimationFrame(() =>
				document
					.getElementById(
						kept.box.kind === 'new'
							? 'comment-box-new'
							: kept.box.kind === 'reply'
								? `comment-box-reply-${kept.box.parentId}`
								: `comment-box-edit-${kept.box.commentId}`,
					)
					?.focus(),
			);
		const { wake } = props;
		const target = readableItem(props.items, wake?.commentId);
		if (wake?.action === 'menu' && target) setMenuFor(target.commentId);
		else if (wake?.action === 'more') void loadMore();
		else if (wake?.action === 'post') void submitNew();
	}, []);

	const threads = groupThreads(items);
	const replyBlockedBy = edit ? EDITING_NOTE_ID : undefined;
	const entry = (comment: CommentItem, children?: React.ReactNode) => (
		<CommentEntry
			key={comment.commentId}
			comment={comment}
			channelBase={channelBase}
			language={language}
			texts={texts}
			highlighted={comment.commentId === highlight}
			justPosted={comment.commentId === posted}
			replyToHref={(commentId) => replyToHref(postUrl, items, commentId)}
			menuOpen={menuFor === comment.commentId}
			menuActions={menuActions}
			onMenuOpenChange={onMenuOpenChange}
			replyBlockedBy={replyBlockedBy}
			onReply={openReply}
			editor={
				edit?.commentId === comment.commentId ? (
					<CommentForm
						name={`edit-${comment.commentId}`}
						label={texts['comment.edit.label']}
						text={edit.draft.text}
						problem={edit.draft.problem}
						busy={edit.draft.busy}
						submitLabel={texts['comment.button.save']}
						focusOnOpen
						texts={texts}
						mentions={mentions}
						onChange={(text) => setEdit((e) => e && { ...e, draft: { ...e.draft, text, problem: null } })}
						onSubmit={() => void submitEdit()}
						onCancel={() => {
							setEdit(null);
							requestAnimationFrame(() =>
								document.querySelector<HTMLElement>(`[data-action="menu"][data-comment-id="${comment.commentId}"]`)?.focus(),
							);
						}}
					>
						<p className="comments-note" id={EDITING_NOTE_ID} role="status">
							{texts['comment.message.editing']}
						</p>
					</CommentForm>
				) : null
			}
		>
			{children}
		</CommentEntry>
	);

	return (
		<>
			<h2 id="comments-heading" tabIndex={-1} ref={heading}>
				{texts['post.comments']}{' '}
				<span className="count" data-comment-count="">
					{formatCount(count)}
				</span>
			</h2>
			{!props.startsAtBeginning && (
				<p className="comments-view-all">
					<a href={`${postUrl}#comments`}>{texts['comment.viewAll']}</a>
				</p>
			)}
			{threads.length === 0 ? (
				<p className="no-comments">{texts['post.noComments']}</p>
			) : (
				<ol className="comments" role="list">
					{threads.map(({ comment, replies }) =>
						entry(
							comment,
							<>
								{replies.length > 0 && (
									<ol className="replies" role="list">
										{replies.map((item) => entry(item))}
									</ol>
								)}
								{reply && reply.parentId === comment.commentId && (
									<CommentForm
										name={`reply-${comment.commentId}`}
										label={fill(texts['comment.reply.label'], { nickname: reply.to })}
										text={reply.draft.text}
										problem={reply.draft.problem}
										busy={reply.draft.busy}
										blockedBy={replyBlockedBy}
										submitLabel={texts['comment.button.post']}
										focusOnOpen
										texts={texts}
										mentions={mentions}
										context={
											<p className="comment-reply-context" data-reply-context={reply.targetId}>
												<a href={replyToHref(postUrl, items, reply.targetId)}>
													{reply.named ? fill(texts['comment.reply.context'], { nickname: reply.to }) : texts['comment.reply.contextComment']}
												</a>
												<button
													className="comment-reply-cancel"
													type="button"
													aria-label={texts['comment.reply.cancel']}
													title={texts['comment.reply.cancel']}
													onClick={() => cancelReply(reply.targetId)}
												>
													<span aria-hidden="true">×</span>
												</button>
											</p>
										}
										onChange={(text) => setReply((r) => r && { ...r, draft: { ...r.draft, text, problem: null } })}
										onSubmit={() => void submitReply()}
										onCancel={() => cancelReply(reply.targetId)}
									/>
								)}
							</>,
						),
					)}
				</ol>
			)}
			{nextAfter !== null && (
				<p className="comments-more">
					<a
						className="button secondary"
						href={`${postUrl}?commentsAfter=${nextAfter}#comments`}
						data-action="more"
						aria-busy={loadingMore || undefined}
						onClick={(event) => {
							event.preventDefault();
							void loadMore();
						}}
					>
						{texts['comment.more']}
					</a>
				</p>
			)}
			<CommentForm
				name="new"
				label={texts['comment.write.label']}
				text={draft.text}
				problem={draft.problem}
				busy={draft.busy}
				submitLabel={texts['comment.button.post']}
				placeholder={
					userId !== null
						? texts['comment.write.placeholder']
						: banned
							? texts['comment.write.bannedPlaceholder']
							: texts['comment.write.guestPlaceholder']
				}
				readOnly={userId === null}
				mentions={mentions}
				texts={texts}
				onChange={(text) => setDraft((d) => ({ ...d, text, problem: null }))}
				onSubmit={() => void submitNew()}
			/>
			<AlertDialog
				open={deleting !== null}
				title={texts['write.confirm.title']}
				message={texts['comment.confirm.delete']}
				confirmLabel={texts['comment.menu.delete']}
				cancelLabel={texts['common.button.cancel']}
				onClosed={(confirmed) => {
					const commentId = deleting;
					setDeleting(null);
					if (confirmed && commentId !== null) void remove(commentId);
				}}
			/>
			{isAdmin && (
				<ConfirmDialog
					open={moderating !== null}
					title={moderating?.hide === false ? texts['admin.confirm.unhideCOMMENT'] : texts['admin.confirm.hideCOMMENT']}
					confirmLabel={moderating?.hide === false ? texts['comment.menu.unhide'] : texts['comment.menu.hide']}
					danger={moderating?.hide !== false}
					texts={texts}
					onClosed={(reason) => {
						const target = moderating;
						setModerating(null);
						if (target && reason !== null) void moderate(target.commentId, target.hide, reason);
					}}
				/>
			)}
			<AlertDialog
				open={alert !== null}
				title={alertTitle ?? texts['common.message.alert']}
				message={alert ?? ''}
				confirmLabel={texts['common.button.confirm']}
				onClosed={() => {
					setAlert(null);
					setAlertTitle(null);
				}}
			/>
		</>
	);
}

/**
 * The comments island's state and every change to it, as one pure reducer (as the write form's,
 * src/islands/write/): the items and the next page, the three kinds of box (the new comment, the
 * reply box of one thread, the edit of one comment), the open menu, the dialogs asked for, the
 * alert, the comment just posted and the comments reported since the page loaded. The island
 * (CommentsIsland.tsx) makes the calls and dispatches what they answered; the server renders the
 * page's markup from `initialCommentsState` (CommentsView.tsx), so both start from the same state.
 * The count lives in the counts store (src/stores/post-counts.ts), which the post's header shares.
 */
import type { CommentPage } from '@/lib/api-types';
import type { KeptComment } from './kept-text';
import { mergeItems, removeItem, replyTarget, withLike, type CommentItem, type ReadableComment, type TextProblem } from './model';
import type { CommentTexts } from './texts';
import type { Wake } from './wake';

/** What a box holds: its text, why it cannot be sent (shown under it), and whether it is being sent. */
export interface Draft {
	text: string;
	problem: TextProblem | null;
	busy: boolean;
}

/**
 * A reply box: its thread (`parentId`), the comment it answers (`targetId`) and that one's author
 * (`to`; `named` false for a withdrawn one).
 */
interface ReplyBox {
	parentId: number;
	targetId: number;
	to: string;
	named: boolean;
	draft: Draft;
}

export interface CommentsState {
	items: CommentItem[];
	/** The order of the items (docs/reference/best-comments.md), and the post's Best comments (a first page's). */
	order: 'oldest' | 'best';
	best: CommentItem[];
	nextAfter: number | null;
	loadingMore: boolean;
	draft: Draft;
	reply: ReplyBox | null;
	edit: { commentId: number; draft: Draft } | null;
	menuFor: number | null;
	/** The comment whose deletion waits for the confirm. */
	deleting: number | null;
	/** An administrator's hide or show again waiting for the reason. */
	moderating: { commentId: number; hide: boolean } | null;
	alert: string | null;
	/** The alert's title when it says more than "Notice": offline, or a comment that was not posted. */
	alertTitle: string | null;
	/** The comment the reader has just posted: scrolled to, marked for a moment and given the focus. */
	posted: number | null;
	/** The comments reported since the page loaded (the report dialog says so), beside those the page marked. */
	reportedNow: readonly number[];
}

/** Which box a change is for: `id` is the reply's thread or the edited comment (a change for another is dropped). */
export type BoxRef = { box: 'new' } | { box: 'reply'; id: number } | { box: 'edit'; id: number };

export type CommentsAction =
	| ({ type: 'box'; change: Partial<Draft> } & BoxRef)
	| { type: 'posted'; box: 'new' | 'reply'; comment: CommentItem }
	| { type: 'edited'; comment: CommentItem }
	| { type: 'removed'; commentId: number }
	| { type: 'moderated'; commentId: number; hide: boolean }
	| { type: 'moreLoading' }
	| { type: 'moreLoaded'; page: CommentPage }
	| { type: 'moreFailed' }
	| { type: 'openReply'; target: ReadableComment; texts: CommentTexts }
	| { type: 'closeReply' }
	| { type: 'openEdit'; comment: ReadableComment }
	| { type: 'closeEdit' }
	| { type: 'restore'; kept: KeptComment; userId: number | null; texts: CommentTexts }
	| { type: 'menu'; commentId: number; open: boolean }
	| { type: 'confirmDelete'; commentId: number | null }
	| { type: 'confirmModerate'; target: { commentId: number; hide: boolean } | null }
	| { type: 'alert'; message?: string; title?: string }
	| { type: 'offlineOver'; message: string; title: string }
	| { type: 'alertClosed' }
	| { type: 'reported'; commentId: number }
	| { type: 'liked'; commentId: number; liked: boolean; likeCount: number };

const emptyDraft = (text = ''): Draft => ({ text, problem: null, busy: false });

/** The reply box of a Reply pressed on `target`, holding `text` (the "@nickname " of a reply to a reply when none). */
function replyBox(target: ReadableComment, texts: CommentTexts, text?: string): ReplyBox {
	const { parentId, targetId, prefix } = replyTarget(target);
	const to = target.author.nickname ?? texts['common.withdrawnMember'];
	return { parentId, targetId, to, named: target.author.nickname !== null, draft: emptyDraft(text ?? prefix) };
}

/** The readable item `commentId` among `items`, if any. */
export const readableItem = (items: readonly CommentItem[], commentId: number | null | undefined) =>
	commentId ? items.find((item): item is ReadableComment => item.commentId === commentId && item.readable) : undefined;

/** A comment without the automatic hide's mark. */
const withoutAutoHidden = ({ autoHidden: _auto, ...item }: ReadableComment): ReadableComment => item;

/**
 * The state the page starts with: the server's items, what the reader typed into the page's box
 * before the island, and a Reply pressed before the island already open with the text typed into
 * the page's early reply box (src/page-scripts/comments-loader.ts).
 */
export function initialCommentsState(start: {
	items: CommentItem[];
	order?: 'oldest' | 'best' | undefined;
	best?: CommentItem[] | undefined;
	nextAfter: number | null;
	texts: CommentTexts;
	initialText?: string;
	wake?: Wake | null;
}): CommentsState {
	const { items, wake, texts } = start;
	const target = wake?.action === 'reply' ? readableItem(items, wake.commentId) : undefined;
	return {
		items,
		order: start.order ?? 'oldest',
		best: start.best ?? [],
		nextAfter: start.nextAfter,
		loadingMore: false,
		draft: emptyDraft(start.initialText),
		reply: target ? replyBox(target, texts, wake?.text) : null,
		edit: null,
		menuFor: null,
		deleting: null,
		moderating: null,
		alert: null,
		alertTitle: null,
		posted: null,
		reportedNow: [],
	};
}

/** `state` with `change` made to the box `ref` names (nothing when that box is not open). */
function changeBox(state: CommentsState, ref: BoxRef, change: Partial<Draft>): CommentsState {
	if (ref.box === 'new') return { ...state, draft: { ...state.draft, ...change } };
	if (ref.box === 'reply')
		return state.reply?.parentId === ref.id ? { ...state, reply: { ...state.reply, draft: { ...state.reply.draft, ...change } } } : state;
	return state.edit?.commentId === ref.id ? { ...state, edit: { ...state.edit, draft: { ...state.edit.draft, ...change } } } : state;
}

/** The box a kept text (of an ended session) comes back into, when its comment is still there to take it (an edit: the reader's own). */
function restore(state: CommentsState, { box, text }: KeptComment, userId: number | null, texts: CommentTexts): CommentsState {
	if (box.kind === 'new') return { ...state, draft: emptyDraft(text) };
	// A reply box the reader opened before the island (and may be typing in) is not replaced.
	const parent = box.kind === 'reply' && !state.reply ? readableItem(state.items, box.parentId) : undefined;
	if (parent) return { ...state, reply: replyBox(parent, texts, text) };
	const edited = box.kind === 'edit' ? readableItem(state.items, box.commentId) : undefined;
	if (edited && userId !== null && edited.author.userId === userId)
		return { ...state, edit: { commentId: edited.commentId, draft: emptyDraft(text) } };
	return state;
}

export function commentsReducer(state: CommentsState, action: CommentsAction): CommentsState {
	switch (action.type) {
		case 'box':
			return changeBox(state, action, action.change);
		case 'posted': {
			const items = mergeItems(state.items, [action.comment], state.order === 'best');
			const boxes = action.box === 'new' ? { draft: emptyDraft() } : { reply: null };
			return { ...state, ...boxes, items, posted: action.comment.commentId };
		}
		case 'edited':
			return { ...state, items: mergeItems(state.items, [action.comment], state.order === 'best'), edit: null };
		case 'removed': {
			const { commentId } = action;
			const hadReplies = state.items.some((item) => item.parentId === commentId);
			return {
				...state,
				items: removeItem(state.items, commentId),
				edit: state.edit?.commentId === commentId ? null : state.edit,
				// The thread went with its comment: so does its reply box.
				reply: state.reply?.parentId === commentId && !hadReplies ? null : state.reply,
			};
		}
		case 'moderated':
			// A moderator's hide or show again: no longer the automatic hide's.
			return {
				...state,
				items: state.items.map((item) =>
					item.commentId === action.commentId && item.readable
						? { ...withoutAutoHidden(item), state: action.hide ? 'HIDDEN_BY_ADMIN' : 'VISIBLE' }
						: item,
				),
			};
		case 'moreLoading':
			return { ...state, loadingMore: true };
		case 'moreLoaded':
			return {
				...state,
				items: mergeItems(state.items, action.page.comments, state.order === 'best'),
				nextAfter: action.page.nextAfter,
				loadingMore: false,
			};
		case 'moreFailed':
			return { ...state, loadingMore: false };
		case 'openReply': {
			// No reply opens while a comment is edited; a Reply in the thread whose box holds text keeps that text.
			if (state.edit) return state;
			const next = replyBox(action.target, action.texts);
			const current = state.reply;
			return { ...state, reply: current?.parentId === next.parentId && current.draft.text.trim() !== '' ? { ...next, draft: current.draft } : next };
		}
		case 'closeReply':
			return { ...state, reply: null };
		case 'openEdit': {
			// One edit at a time; a reply box goes unless the reader wrote something of their own in it.
			if (state.edit) return state;
			const r = state.reply;
			const reply = r && r.draft.text.trim() !== '' && r.draft.text !== `@${r.to} ` ? r : null;
			return { ...state, reply, edit: { commentId: action.comment.commentId, draft: emptyDraft(action.comment.content) } };
		}
		case 'closeEdit':
			return { ...state, edit: null };
		case 'restore':
			return restore(state, action.kept, action.userId, action.texts);
		case 'menu':
			return { ...state, menuFor: action.open ? action.commentId : state.menuFor === action.commentId ? null : state.menuFor };
		case 'confirmDelete':
			return { ...state, deleting: action.commentId };
		case 'confirmModerate':
			return { ...state, moderating: action.target };
		case 'alert':
			return { ...state, alert: action.message ?? state.alert, alertTitle: action.title ?? state.alertTitle };
		case 'offlineOver':
			// Back online: the offline alert goes, if the reader has not closed it.
			return {
				...state,
				alert: state.alert === action.message ? null : state.alert,
				alertTitle: state.alertTitle === action.title ? null : state.alertTitle,
			};
		case 'alertClosed':
			return { ...state, alert: null, alertTitle: null };
		case 'reported':
			return { ...state, reportedNow: [...state.reportedNow, action.commentId] };
		case 'liked':
			// The comment's like, wherever it shows: in the thread and among the Best comments.
			return { ...state, items: withLike(state.items, action.commentId, action), best: withLike(state.best, action.commentId, action) };
	}
}

/** The comments island's reducer (src/islands/comments/state.ts): every change to the section's state, without a browser. */
import { describe, expect, it } from 'vitest';
import type { CommentItem, ReadableComment } from '@/islands/comments/model';
import { commentsReducer, initialCommentsState, type CommentsAction, type CommentsState } from '@/islands/comments/state';
import type { CommentTexts } from '@/islands/comments/texts';

const texts = { 'common.withdrawnMember': 'Withdrawn member' } as CommentTexts;
const comment = (commentId: number, parentId: number | null = null, userId = 1000 + commentId): ReadableComment => ({
	readable: true,
	commentId,
	parentId,
	state: 'VISIBLE',
	author: { userId, nickname: `member${commentId}`, withdrawn: false, admin: false },
	content: `text ${commentId}`,
	createdAt: commentId * 1000,
	edited: false,
	likeCount: 0,
});
const start = (items: CommentItem[], more: Partial<Parameters<typeof initialCommentsState>[0]> = {}) =>
	initialCommentsState({ items, nextAfter: null, texts, ...more });
const run = (state: CommentsState, ...actions: CommentsAction[]) => actions.reduce(commentsReducer, state);
const ids = (state: CommentsState) => state.items.map((item) => item.commentId);

describe('initialCommentsState', () => {
	it('starts from the server’s items with the text typed before the island', () => {
		const state = start([comment(1)], { initialText: 'typed' });
		expect(state).toMatchObject({ items: [comment(1)], draft: { text: 'typed', problem: null, busy: false }, reply: null, edit: null });
	});

	it('opens the reply box of a Reply pressed before the island, with what its early box holds', () => {
		const state = start([comment(1), comment(2, 1)], { wake: { action: 'reply', commentId: 2, text: '@member2 hi' } });
		expect(state.reply).toEqual({ parentId: 1, targetId: 2, to: 'member2', named: true, draft: { text: '@member2 hi', problem: null, busy: false } });
	});
});

describe('commentsReducer', () => {
	it('changes only the box a change names', () => {
		const state = run(start([comment(1)]), { type: 'openReply', target: comment(1), texts });
		const changed = run(
			state,
			{ type: 'box', box: 'reply', id: 1, change: { text: 'yes' } },
			{ type: 'box', box: 'edit', id: 1, change: { text: 'no' } },
		);
		expect(changed.reply?.draft.text).toBe('yes');
		expect(changed.edit).toBeNull();
		expect(run(state, { type: 'box', box: 'reply', id: 9, change: { text: 'other thread' } })).toBe(state);
	});

	it('puts a posted comment in thread order, empties its box and marks it', () => {
		let state = run(start([comment(1), comment(3)]), { type: 'box', box: 'new', change: { text: 'hello', busy: true } });
		state = run(state, { type: 'posted', box: 'new', comment: comment(4) });
		expect(ids(state)).toEqual([1, 3, 4]);
		expect(state.draft).toEqual({ text: '', problem: null, busy: false });
		expect(state.posted).toBe(4);
		state = run(state, { type: 'openReply', target: comment(1), texts }, { type: 'posted', box: 'reply', comment: comment(5, 1) });
		expect(ids(state)).toEqual([1, 5, 3, 4]);
		expect(state.reply).toBeNull();
	});

	it('keeps the text of a thread’s reply box when Reply is pressed again in it, and opens none while a comment is edited', () => {
		let state = run(start([comment(1), comment(2, 1)]), { type: 'openReply', target: comment(1), texts });
		state = run(state, { type: 'box', box: 'reply', id: 1, change: { text: 'half written' } }, { type: 'openReply', target: comment(2, 1), texts });
		expect(state.reply).toMatchObject({ parentId: 1, targetId: 2, draft: { text: 'half written' } });
		const editing = run(start([comment(1)]), { type: 'openEdit', comment: comment(1) });
		expect(run(editing, { type: 'openReply', target: comment(1), texts }).reply).toBeNull();
	});

	it('edits one comment at a time, and an edit closes a reply box that holds only its "@nickname "', () => {
		let state = run(start([comment(1), comment(2, 1), comment(3)]), { type: 'openReply', target: comment(2, 1), texts });
		expect(state.reply?.draft.text).toBe('@member2 ');
		state = run(state, { type: 'openEdit', comment: comment(3) }, { type: 'openEdit', comment: comment(1) });
		expect(state.edit).toEqual({ commentId: 3, draft: { text: 'text 3', problem: null, busy: false } });
		expect(state.reply).toBeNull();
		state = run(state, { type: 'edited', comment: { ...comment(3), content: 'new', edited: true } });
		expect(state.edit).toBeNull();
		expect(state.items[2]).toMatchObject({ content: 'new', edited: true });
	});

	it('leaves a deleted comment with replies in place, and closes the edit and the reply box that went with it', () => {
		let state = run(start([comment(1), comment(2, 1), comment(3)]), { type: 'openEdit', comment: comment(1) }, { type: 'removed', commentId: 1 });
		expect(state.items[0]).toEqual({ readable: false, commentId: 1, parentId: null, state: 'DELETED' });
		expect(state.edit).toBeNull();
		state = run(state, { type: 'openReply', target: comment(3), texts }, { type: 'removed', commentId: 3 });
		expect(ids(state)).toEqual([1, 2]);
		expect(state.reply).toBeNull();
	});

	it('hides and shows a comment again as a moderator did, without the automatic hide’s mark', () => {
		const auto: ReadableComment = { ...comment(1), state: 'HIDDEN_BY_ADMIN', autoHidden: true };
		const shown = run(start([auto]), { type: 'moderated', commentId: 1, hide: false });
		expect(shown.items[0]).toEqual(comment(1));
		expect(run(shown, { type: 'moderated', commentId: 1, hide: true }).items[0]).toEqual({ ...comment(1), state: 'HIDDEN_BY_ADMIN' });
	});

	it('loads the next page into place', () => {
		let state = run(start([comment(1)], { nextAfter: 1 }), { type: 'moreLoading' });
		expect(state.loadingMore).toBe(true);
		state = run(state, { type: 'moreLoaded', page: { comments: [comment(2)], nextAfter: null, commentCount: 2 } });
		expect(state).toMatchObject({ loadingMore: false, nextAfter: null });
		expect(ids(state)).toEqual([1, 2]);
		expect(run(state, { type: 'moreLoading' }, { type: 'moreFailed' }).loadingMore).toBe(false);
	});

	it('brings kept text back into its box: a new comment, a reply, or the reader’s own edit only', () => {
		const items = [comment(1), comment(2, 1, 77)];
		expect(run(start(items), { type: 'restore', kept: { box: { kind: 'new' }, text: 'kept' }, userId: 77, texts }).draft.text).toBe('kept');
		expect(
			run(start(items), { type: 'restore', kept: { box: { kind: 'reply', parentId: 1 }, text: 'kept' }, userId: 77, texts }).reply,
		).toMatchObject({
			parentId: 1,
			draft: { text: 'kept' },
		});
		const edit = { kind: 'edit', commentId: 2 } as const;
		expect(run(start(items), { type: 'restore', kept: { box: edit, text: 'kept' }, userId: 77, texts }).edit).toMatchObject({ commentId: 2 });
		expect(run(start(items), { type: 'restore', kept: { box: edit, text: 'kept' }, userId: 5, texts }).edit).toBeNull();
		expect(run(start(items), { type: 'restore', kept: { box: edit, text: 'kept' }, userId: null, texts }).edit).toBeNull();
	});

	it('opens one menu at a time and closes only its own', () => {
		const state = run(start([comment(1), comment(2)]), { type: 'menu', commentId: 1, open: true }, { type: 'menu', commentId: 2, open: true });
		expect(state.menuFor).toBe(2);
		expect(run(state, { type: 'menu', commentId: 1, open: false }).menuFor).toBe(2);
		expect(run(state, { type: 'menu', commentId: 2, open: false }).menuFor).toBeNull();
	});

	it('clears the offline alert when the connection returns, but not an alert that replaced it', () => {
		const offline = run(start([]), { type: 'alert', title: 'Offline', message: 'You are offline' });
		expect(run(offline, { type: 'offlineOver', message: 'You are offline', title: 'Offline' })).toMatchObject({ alert: null, alertTitle: null });
		const other = run(offline, { type: 'alert', message: 'Something else' });
		expect(run(other, { type: 'offlineOver', message: 'You are offline', title: 'Offline' })).toMatchObject({
			alert: 'Something else',
			alertTitle: null,
		});
		expect(run(other, { type: 'alertClosed' })).toMatchObject({ alert: null, alertTitle: null });
	});

	it('remembers the comments reported since the page loaded', () => {
		expect(run(start([comment(1)]), { type: 'reported', commentId: 1 }).reportedNow).toEqual([1]);
	});
});

/**
 * Writing, editing and deleting posts. Each is one D1 batch (one transaction) that writes the post,
 * moves it in its lists (src/server/list-positions/: a bounded number of rows however large the community)
 * and marks what it changed in the edge cache (touchCache: the post's own reads, and its lists when
 * they show the change; one row), so the edge cache and the layout memo never serve the old state.
 * Who may write where (src/server/boards/writable.ts): members in public boards, administrators
 * anywhere; notice-only boards and the notice flag are for administrators. Only the author edits a post (and moves it only to a
 * board they may write in, by their own rights); an administrator hides, shows again and deletes
 * someone else's post, and such a deletion writes its row of the audit log in its batch.
 */
import { isAdmin } from '@/lib/roles';
import { mentionsOf, mentionsStatement } from '@/server/notifications/mentions';
import { notify } from '@/server/notifications/send';
import { storedMentions } from '@/lib/mentions';
import { AppError, isAppError } from '@/server/platform/errors';
import { assertion, guardedBatch } from '@/server/platform/batch';
import { firstRowOf, readTogether } from '@/server/platform/reads';
import { touchCache } from '@/server/content-versions/versions';
import type { SessionMember } from '@/server/sign-in/sessions';
import { DocumentSchema, documentText, type ContentDocument } from '@/schemas/content';
import { publishedDocument } from '@/schemas/guidance';
import type { CreatePostInput, EditPostInput, PostFields } from '@/schemas/post-write';
import { claimUploadsStatements, uploadKeysOf, uploadsOf, uploadsStatement } from '@/server/uploads/claims';
import { writingBoardOf, writingBoardStatement } from '@/server/boards/writable';
import { planListChange, type ListPlacement, type ListPositions } from '@/server/list-positions/list-positions';
import { postSearchStatements } from '@/server/search-index/search-index';
import { draftDeletionStatement, ownDraftOf, ownDraftStatement } from '@/server/drafts/drafts';
import { canReadPost, memberViewer, postStateOfRow, type PostStateColumns } from '@/server/visibility/visibility';
import { logStatement } from '@/server/moderation/log';
import { revisionsDeletion, revisionStatements } from '@/server/revisions/revisions';
import { checkNewMemberPost, DEFAULT_NEW_MEMBER_LIMITS, isNewMember, writeCountGuard, type NewMemberLimits } from '@/server/spam/new-members';

/**
 * What guards a member's writing against spam (src/server/spam/): the community's limits for new
 * members and, when the deployment has Turnstile, the check of a new member's challenge token
 * (it throws ChallengeFailed). Without it, the default limits and no challenge.
 */
export interface SpamGuard {
	limits: NewMemberLimits;
	verifyChallenge: (() => Promise<void>) | null;
}

const DEFAULT_GUARD: SpamGuard = { limits: DEFAULT_NEW_MEMBER_LIMITS, verifyChallenge: null };

import { checkFields, early, placementOf, thumbnailOf } from './post-fields';
import { newIdSql } from '@/server/databases/ids';

/** The read of the member's post of a request. */
function requestStatement(db: Db, memberId: number, requestId: string): D1PreparedStatement {
	return db.prepare('SELECT id FROM posts WHERE member_id = ?1 AND request_id = ?2').bind(memberId, requestId);
}

/**
 * Creates a post. A second request with the same `requestId` from the same member answers the post
 * the first one created, whatever happened in between. Written from a draft (`draftId`), it deletes
 * that draft in the same batch. A new member's post (src/server/spam/new-members.ts) passes the
 * content limits, the challenge when there is one, and the post count, checked in the batch itself.
 * Round trips: what the checks need (an earlier post of the request, the board and category, the
 * uploads, the draft, the members mentioned) is read at once, then the batch writes. The same
 * request sent twice at once meets no error in the batch of the second: every statement of it is
 * conditioned on the post of the request not existing yet (or, after the INSERT, on the statement
 * before it having changed a row), and its last statement reads the post the first one created.
 * @throws AppError DraftNotFound when `draftId` is not the member's draft of this channel;
 * NewMemberTooManyLinks, NewMemberTooManyImages, NewMemberTooManyMentions, ChallengeFailed, NewMemberPostLimit
 */
export async function createPost(
	db: Db,
	channelId: number,
	member: SessionMember,
	sent: CreatePostInput,
	now: number,
	guard: SpamGuard = DEFAULT_GUARD,
): Promise<{ postId: number }> {
	// A template's guidance is never published: left empty it goes, filled in it is the writer's paragraph.
	const input = { ...sent, content: publishedDocument(sent.content) };
	const images = early(() => uploadKeysOf(input.content));
	const [earlier, boardRead, uploads, draft, mentioned] = await readTogether(db, [
		requestStatement(db, member.userId, input.requestId),
		writingBoardStatement(db, channelId, input.boardId, input.subjectId),
		uploadsStatement(db, channelId, images.value ?? []),
		input.draftId === undefined ? null : ownDraftStatement(db, channelId, member.userId, input.draftId),
		mentionsStatement(db, channelId, [documentText(input.content)]),
	]);
	const earlierId = firstRowOf<{ id: number }>(earlier)?.id;
	if (earlierId !== undefined) return { postId: earlierId };
	const board = writingBoardOf(boardRead, input.subjectId, isAdmin(member), false);
	const fields = checkFields(input, member, false);
	const mentions = mentionsOf(mentioned, [fields.contentText]);
	checkNewMemberPost(member, guard.limits, now, { title: fields.title, doc: input.content, mentions });
	const keys = images.get();
	const thumbnail = thumbnailOf(input.content, uploadsOf(uploads, member.userId, keys, null));
	const newMember = isNewMember(member, guard.limits, now);
	// Last before the batch: a token is spent only on a post that nothing else refuses. A session
	// begun by a sign-up that passed the check is not asked again (docs/reference/spam-defence.md).
	if (newMember && !member.humanChecked && guard.verifyChallenge) await guard.verifyChallenge();
	// Published from a draft: the draft goes in the post's batch (the post's claims keep the uploads it shows).
	if (draft) ownDraftOf(draft);
	const countGuard = newMember ? [writeCountGuard(db, 'posts', member.userId, guard.limits.maxPosts, input.requestId)] : [];
	const fromDraft = input.draftId === undefined ? [] : [draftDeletionStatement(db, channelId, member.userId, input.draftId, input.requestId)];
	const notCreatedYet = {
		sql: 'NOT EXISTS (SELECT 1 FROM posts WHERE member_id = ?1 AND request_id = ?2)',
		values: [member.userId, input.requestId],
	};
	const plan = planListChange(db, channelId, null, placementOf(input, board), notCreatedYet);
	const listColumns = Object.keys(plan.columns);
	const insert = db
		.prepare(
			`INSERT INTO posts (id, channel_id, board_id, subject_id, member_id, title, content, content_text, is_notice, is_private,
				has_image, has_video, thumbnail, created_at, hot, request_id, mentions${listColumns.map((column) => `, ${column}`).join('')})
			 SELECT ${newIdSql('posts', '?1')}, ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?13 / 1000, ?14, ?15${listColumns.map((column) => `, ${plan.columns[column]}`).join('')}
			 WHERE NOT EXISTS (SELECT 1 FROM posts WHERE member_id = ?4 AND request_id = ?14)`,
		)
		.bind(
			channelId,
			board.id,
			input.subjectId,
			member.userId,
			fields.title,
			fields.content,
			fields.contentText,
			input.isNotice ? 1 : 0,
			input.isPrivate ? 1 : 0,
			fields.hasImage,
			fields.hasVideo,
			thumbnail,
			now,
			input.requestId,
			storedMentions(mentions),
		);
	// Each right after the INSERT: the touch changes its row only when the INSERT made the post, and
	// the claims only when the touch changed its row; they name the post by last_insert_rowid().
	const touch = touchCache(db, channelId, { boards: [board.id], memberId: member.userId }, 'changes() = 1');
	const claims = claimUploadsStatements(db, channelId, keys, { postId: 'last-inserted' }, 'changes() = 1');
	const indexed = postSearchStatements(
		db,
		channelId,
		{ memberId: member.userId, requestId: input.requestId },
		{ title: fields.title, body: fields.contentText },
	);
	const results = await guardedBatch(
		db,
		[...countGuard, ...plan.statements, ...fromDraft, insert, touch, ...claims, ...indexed, requestStatement(db, member.userId, input.requestId)],
		'NewMemberPostLimit',
	).catch((error: unknown) => {
		// The count holds whenever the post of the request exists: failed, it is the new member's limit.
		if (isAppError(error) && error.codeName === 'NewMemberPostLimit')
			throw new AppError('NewMemberPostLimit', undefined, { limit: guard.limits.maxPosts });
		throw error;
	});
	const postId = firstRowOf<{ id: number }>(results.at(-1))?.id;
	if (postId === undefined) throw new Error('The post of the request is missing after its batch');
	// Made by this request (not by the same request sent twice at once): its board's watchers and
	// the members it mentions hear of it through the queue (src/server/notifications/).
	if (results[countGuard.length + plan.statements.length + fromDraft.length]?.meta.changes === 1) notify({ type: 'post', channelId, postId });
	return { postId };
}

interface StoredPostRow extends PostStateColumns {
	id: number;
	member_id: number;
	board_id: number;
	subject_id: number | null;
	is_notice: number;
	version: number;
	board_pos: number | null;
	subject_pos: number | null;
	channel_pos: number | null;
	title: string;
	has_image: number;
	has_video: number;
	thumbnail: string | null;
}

interface StoredPost {
	row: StoredPostRow;
	placement: ListPlacement;
	positions: ListPositions;
}

/** What a member does to a post. */
type Change = 'edit' | 'delete';

/**
 * Who may change a post they may read, the one home of the rule (the post page offers Edit and
 * Delete by it): an edit is its author's alone (an administrator's edit of someone else's words
 * would still show as theirs); a deletion is its author's or an administrator's.
 */
export function mayChangePost(change: Change, authorId: number, member: SessionMember): boolean {
	return authorId === member.userId || (change === 'delete' && isAdmin(member));
}

/** The read of a post as a change needs it, with `extraColumns` (from `p`) besides. */
function storedPostStatement(db: Db, channelId: number, postId: number, extraColumns = ''): D1PreparedStatement {
	return db
		.prepare(
			`SELECT p.id, p.member_id, p.board_id, p.subject_id, p.is_notice, p.is_private, p.hidden_by_admin, p.deleted_at, p.version,
				p.board_pos, p.subject_pos, p.channel_pos, p.title, p.has_image, p.has_video, p.thumbnail, b.is_public AS board_public${extraColumns}
			 FROM posts p JOIN boards b ON b.id = p.board_id WHERE p.id = ?1 AND p.channel_id = ?2`,
		)
		.bind(postId, channelId);
}

/**
 * The post a member changes, from storedPostStatement's row: it must be one they may read and be
 * its author, or for a deletion an administrator.
 * @throws AppError PostNotFound (not of this channel, deleted, or not readable), Forbidden
 */
function storedPostOf<Row extends StoredPostRow>(row: Row | null | undefined, member: SessionMember, change: Change): StoredPost & { row: Row } {
	if (!row) throw new AppError('PostNotFound');
	const state = postStateOfRow(row);
	if (!canReadPost(state, row.member_id, memberViewer(member))) throw new AppError('PostNotFound');
	if (!mayChangePost(change, row.member_id, member)) throw new AppError('Forbidden');
	return {
		row,
		placement: {
			boardId: row.board_id,
			subjectId: row.subject_id,
			boardPublic: row.board_public === 1,
			isNotice: row.is_notice === 1,
			visible: row.deleted_at === null && row.hidden_by_admin === 0 && row.is_private === 0,
		},
		positions: { boardPos: row.board_pos, subjectPos: row.subject_pos, channelPos: row.channel_pos },
	};
}

/**
 * The post a member changes: it must be one they may read and be its author, or for a deletion an
 * administrator.
 * @throws AppError PostNotFound (not of this channel, deleted, or not readable), Forbidden
 */
async function postForChange(db: Db, channelId: number, postId: number, member: SessionMember, change: Change): Promise<StoredPost> {
	return storedPostOf(await storedPostStatement(db, channelId, postId).first<StoredPostRow>(), member, change);
}

function assignments(columns: Record<string, string>): string {
	return Object.entries(columns)
		.map(([column, expression]) => `, ${column} = ${expression}`)
		.join('');
}

/**
 * What an edit touches in the edge cache: always the post's own reads (as a removal: the old text
 * is never answered again) and search results, which show the text; its lists (old and new board, All Posts, the author's profile) only
 * when what a list shows of it changed: its title, board, category, notice or private flag, or its
 * image and video marks or thumbnail. A body-only edit leaves every list, the layout and the other posts as they were.
 */
function editTouch(
	db: Db,
	channelId: number,
	row: StoredPostRow,
	after: {
		boardId: number;
		subjectId: number | null;
		isNotice: boolean;
		isPrivate: boolean;
		title: string;
		hasImage: number;
		hasVideo: number;
		thumbnail: string | null;
	},
): D1PreparedStatement {
	const listed =
		row.board_id !== after.boardId ||
		row.subject_id !== after.subjectId ||
		row.is_notice !== (after.isNotice ? 1 : 0) ||
		row.is_private !== (after.isPrivate ? 1 : 0) ||
		row.title !== after.title ||
		row.has_image !== after.hasImage ||
		row.has_video !== after.hasVideo ||
		row.thumbnail !== after.thumbnail;
	const post = { id: row.id, change: 'removal' as const };
	return touchCache(db, channelId, listed ? { boards: [row.board_id, after.boardId], memberId: row.member_id, post } : { post, text: true });
}

/**
 * Edits a post as the editor that opened `input.version` left it; a new member's edit keeps to the
 * content limits (no challenge: the post passed one).
 * @throws AppError PostChanged when the post changed since (another tab, a moderator);
 * NewMemberTooManyLinks, NewMemberTooManyImages, NewMemberTooManyMentions
 */
export async function editPost(
	db: Db,
	channelId: number,
	member: SessionMember,
	postId: number,
	sent: EditPostInput,
	now: number,
	limits: NewMemberLimits = DEFAULT_NEW_MEMBER_LIMITS,
): Promise<{ postId: number; version: number }> {
	const input = { ...sent, content: publishedDocument(sent.content) };
	const images = early(() => uploadKeysOf(input.content));
	const keys = images.value ?? [];
	// What the checks need, read at once: the post (with its body when the edit shows uploads, which
	// may be images it shows already), the board and category, the uploads, the members mentioned.
	const [postRead, boardRead, uploads, mentioned] = await readTogether(db, [
		storedPostStatement(db, channelId, postId, keys.length > 0 ? ', p.content' : ''),
		writingBoardStatement(db, channelId, input.boardId, input.subjectId),
		uploadsStatement(db, channelId, keys),
		mentionsStatement(db, channelId, [documentText(input.content)]),
	]);
	// Only the author gets here, so the board's rules below are the author's own rights.
	const stored = storedPostOf(firstRowOf<StoredPostRow & { content?: string }>(postRead), member, 'edit');
	if (stored.row.version !== input.version) throw new AppError('PostChanged');
	const board = writingBoardOf(boardRead, input.subjectId, isAdmin(member), input.boardId === stored.row.board_id);
	const fields = checkFields(input, member, stored.row.is_notice === 1);
	const mentions = mentionsOf(mentioned, [fields.contentText]);
	checkNewMemberPost(member, limits, now, { title: fields.title, doc: input.content, mentions });
	const edited = { postId, content: stored.row.content ?? null };
	const thumbnail = thumbnailOf(input.content, uploadsOf(uploads, member.userId, images.get(), edited));
	const after = { ...placementOf(input, board), visible: stored.row.hidden_by_admin === 0 && !input.isPrivate };
	const plan = planListChange(db, channelId, stored, after);
	const update = db
		.prepare(
			`UPDATE posts SET board_id = ?3, subject_id = ?4, title = ?5, content = ?6, content_text = ?7, is_notice = ?8, is_private = ?9,
				has_image = ?10, has_video = ?11, edited_at = ?12, thumbnail = ?13, mentions = ?14, version = version + 1${assignments(plan.columns)}
			 WHERE id = ?1 AND channel_id = ?2`,
		)
		.bind(
			postId,
			channelId,
			board.id,
			input.subjectId,
			fields.title,
			fields.content,
			fields.contentText,
			input.isNotice ? 1 : 0,
			input.isPrivate ? 1 : 0,
			fields.hasImage,
			fields.hasVideo,
			now,
			thumbnail,
			storedMentions(mentions),
		);
	await guardedBatch(
		db,
		[
			assertion(db, 'EXISTS (SELECT 1 FROM posts WHERE id = ?1 AND version = ?2 AND deleted_at IS NULL)', postId, input.version),
			// The version the edit replaces, before the UPDATE (src/server/revisions/revisions.ts).
			...revisionStatements(db, channelId, { type: 'POST', id: postId }, now),
			...plan.statements,
			update,
			...claimUploadsStatements(db, channelId, images.get(), { postId }),
			...postSearchStatements(db, channelId, postId, { title: fields.title, body: fields.contentText }),
			editTouch(db, channelId, stored.row, {
				boardId: board.id,
				subjectId: input.subjectId,
				isNotice: input.isNotice,
				isPrivate: input.isPrivate,
				...fields,
				thumbnail,
			}),
		],
		'PostChanged',
	);
	// A member mentioned by the edit is told; one mentioned before is not told again.
	if (mentions.length > 0) notify({ type: 'post', channelId, postId, edited: true });
	return { postId, version: input.version + 1 };
}

/**
 * Deletes a post: it keeps its row (comments and reports refer to it, and administrators read its
 * text for appeals) and shows its deleted state; it leaves its lists, which costs a bounded number
 * of rows whatever its age. An administrator's deletion of someone else's post writes DELETE_POST
 * to the audit log in the same batch.
 */
export async function deletePost(db: Db, channelId: number, member: SessionMember, postId: number, now: number): Promise<void> {
	const stored = await postForChange(db, channelId, postId, member, 'delete');
	const moderated = stored.row.member_id !== member.userId;
	const plan = planListChange(db, channelId, stored, { ...stored.placement, visible: false });
	await guardedBatch(
		db,
		[
			assertion(db, 'EXISTS (SELECT 1 FROM posts WHERE id = ?1 AND version = ?2 AND deleted_at IS NULL)', postId, stored.row.version),
			...plan.statements,
			db
				.prepare(`UPDATE posts SET deleted_at = ?3, version = version + 1${assignments(plan.columns)} WHERE id = ?1 AND channel_id = ?2`)
				.bind(postId, channelId, now),
			...postSearchStatements(db, channelId, postId, null),
			revisionsDeletion(db, { type: 'POST', id: postId }),
			...(moderated ? [logStatement(db, channelId, member.userId, 'DELETE_POST', { type: 'POST', id: postId }, '', now)] : []),
			touchCache(db, channelId, { boards: [stored.row.board_id], memberId: stored.row.member_id, post: { id: postId, change: 'removal' } }),
		],
		// Deleted twice at once: the other request did it.
		'PostNotFound',
	);
}

/** A stored body as a document; one that no longer passes the schema opens empty rather than failing. */
function storedDocument(json: string): ContentDocument {
	try {
		const parsed = DocumentSchema.safeParse(JSON.parse(json));
		if (parsed.success) return parsed.data;
	} catch {
		// Not JSON: treated like a body that fails the schema.
	}
	return { type: 'doc', blocks: [] };
}

/** The fields of a post as its editor opens them, with the version an edit must name. */
export interface EditablePost extends PostFields {
	postId: number;
	version: number;
}

/**
 * The edit screen's read of a post (editablePostOf reads its result), made before the member is
 * known: in the session's round trip.
 */
export function editablePostStatement(db: Db, channelId: number, postId: number): D1PreparedStatement {
	return storedPostStatement(db, channelId, postId, ', p.content');
}

/** The post for the edit screen, from editablePostStatement's result. @throws AppError PostNotFound, Forbidden */
export function editablePostOf(result: D1Result | undefined, member: SessionMember): EditablePost {
	const { row } = storedPostOf(result?.results[0] as (StoredPostRow & { content: string }) | undefined, member, 'edit');
	return {
		postId: row.id,
		boardId: row.board_id,
		subjectId: row.subject_id,
		title: row.title,
		content: storedDocument(row.content),
		isPrivate: row.is_private === 1,
		isNotice: row.is_notice === 1,
		version: row.version,
	};
}

/**
 * Server drafts (docs/reference/product-rules.md#states): a member keeps up to DRAFT_LIMIT unfinished posts per community, lists
 * them newest-updated first, loads, overwrites and deletes them. A draft is its author's alone: every
 * query is bound to the channel and the member, so another member's or another channel's draft id
 * reads as no draft at all. A draft may be unfinished in every way (no board, no title, an empty
 * body), but what it does hold must make sense: a board of this community the member may write in,
 * a category of that board, a title within TITLE_MAX_LENGTH.
 *
 * Cost: a save writes one drafts row (and its index entry), a delete removes one; the list and the
 * count read the member's index entries only, at most DRAFT_LIMIT.
 */
import { parseJsonColumn } from '@/server/platform/db';
import { countOf, pageOffsetSql } from '@/server/platform/page-offset';
import { memberIdSql, memberIdValue, type MemberRef } from '@/server/sign-in/member-ref';
import { AppError } from '@/server/platform/errors';
import { firstRowOf, read, readGroup, readTogether, run, type Read, type ReadGroup } from '@/server/platform/reads';
import { claimUploadsStatements, uploadKeysOf, uploadsOf, uploadsStatement } from '@/server/uploads/claims';
import { PAGE_SIZE } from '@/schemas/params';
import { pageCount } from '@/server/platform/paging';
import { BlockSchema, type ContentDocument } from '@/schemas/content';
import { TITLE_MAX_LENGTH, titleLength, type Draft, type DraftFields, type DraftPage, type DraftSummary } from '@/schemas/post-write';
import { newIdSql } from '@/server/databases/ids';

/** Who saves a draft: the member, and whether they administer the community (notice-only and private boards). */
export interface DraftWriter {
	memberId: number;
	admin: boolean;
}

/** The draft a save writes: the one being overwritten, or the row the batch's INSERT has just made. */
type DraftTarget = { draftId: number } | { draftId: 'last-inserted' };

/**
 * Statements to run in the save's D1 batch, after the draft's own write and its uploads' claims.
 * The batch is one transaction: they commit with the draft or not at all.
 */
export type AlsoInBatch = (target: DraftTarget) => D1PreparedStatement[];

interface DraftRow {
	id: number;
	board_id: number | null;
	subject_id: number | null;
	title: string;
	updated_at: number;
}

function toSummary(row: DraftRow): DraftSummary {
	return { draftId: row.id, boardId: row.board_id, subjectId: row.subject_id, title: row.title, updatedAt: row.updated_at };
}

/**
 * A page of the member's drafts of the channel, newest-updated first, PAGE_SIZE a page, read with
 * their count (two statements sent together). `lastPage`: a page past the end reads the last page
 * (My Page), else nothing. With the member's session (`who` a token), a page reads it in the
 * session's round trip.
 */
export function draftListRead(db: Db, channelId: number, who: MemberRef, page: number, lastPage = false): ReadGroup<DraftPage> {
	const where = `member_id = ${memberIdSql(who, '?1')} AND channel_id = ?2`;
	const countSql = `SELECT count(*) AS count FROM drafts WHERE ${where}`;
	const member = memberIdValue(who);
	const statements = [
		db
			.prepare(
				`SELECT id, board_id, subject_id, title, updated_at FROM drafts
				 WHERE ${where} ORDER BY updated_at DESC, id DESC LIMIT ${PAGE_SIZE} OFFSET ${pageOffsetSql('?3', lastPage && page > 1 ? countSql : undefined)}`,
			)
			.bind(member, channelId, page),
		db.prepare(countSql).bind(member, channelId),
	];
	return readGroup(statements, ([rows, count]) => {
		const totalCount = countOf(count);
		const totalPages = pageCount(totalCount, PAGE_SIZE);
		const shown = lastPage ? Math.min(page, totalPages) : page;
		return { drafts: ((rows?.results ?? []) as DraftRow[]).map(toSummary), totalCount, page: shown, pageSize: PAGE_SIZE, totalPages };
	});
}

/** The member's drafts of the channel, newest-updated first, PAGE_SIZE a page, with their total count. */
export async function listDrafts(db: Db, channelId: number, memberId: number, page: number): Promise<DraftPage> {
	return run(db, draftListRead(db, channelId, memberId, page));
}

/**
 * The stored body as a document. Drafts were checked by DocumentSchema when saved; should the schema
 * since have tightened, a block it now refuses is left out rather than losing the whole draft.
 */
function storedDocument(stored: string): ContentDocument {
	const json = parseJsonColumn(stored, 'drafts.content') as { blocks?: unknown };
	const blocks = Array.isArray(json.blocks) ? json.blocks : [];
	return {
		type: 'doc',
		blocks: blocks.flatMap((block) => {
			const parsed = BlockSchema.safeParse(block);
			return parsed.success ? [parsed.data] : [];
		}),
	};
}

/** One of the member's drafts, or null when they have none of that id here; with a session's token, in the session's round trip. */
export function draftRead(db: Db, channelId: number, who: MemberRef, draftId: number): Read<Draft | null> {
	const statement = db
		.prepare(
			`SELECT id, board_id, subject_id, title, content, updated_at FROM drafts WHERE id = ?1 AND channel_id = ?2 AND member_id = ${memberIdSql(who, '?3')}`,
		)
		.bind(draftId, channelId, memberIdValue(who));
	return read(statement, (result) => {
		const row = result.results[0] as (DraftRow & { content: string }) | undefined;
		return row ? { ...toSummary(row), content: storedDocument(row.content) } : null;
	});
}

/** One of the member's drafts. @throws AppError DraftNotFound when the member has no draft of that id here */
export async function getDraft(db: Db, channelId: number, memberId: number, draftId: number): Promise<Draft> {
	const draft = await run(db, draftRead(db, channelId, memberId, draftId));
	if (!draft) throw new AppError('DraftNotFound');
	return draft;
}

function invalid(reason: string): AppError {
	return new AppError('InvalidParameter', `The request has an invalid parameter: ${reason}.`);
}

/** The read of the board and category a draft names, for checkDraftFields: null when it names no board. */
function draftBoardStatement(db: Db, channelId: number, fields: DraftFields): D1PreparedStatement | null {
	if (fields.boardId === null) return null;
	return db
		.prepare(
			`SELECT b.is_public, b.notice_only,
			        (SELECT s.id FROM board_subjects s WHERE s.id = ?3 AND s.board_id = b.id AND s.channel_id = b.channel_id) AS subject_id
			 FROM boards b WHERE b.id = ?1 AND b.channel_id = ?2`,
		)
		.bind(fields.boardId, channelId, fields.subjectId);
}

/**
 * Checks what a draft holds: its title's length, and its board and category when it names them
 * (`board`, draftBoardStatement's result).
 * @throws AppError TitleTooLong, or InvalidParameter saying which field is wrong
 */
function checkDraftFields(board: D1Result | undefined, writer: DraftWriter, fields: DraftFields): void {
	if (titleLength(fields.title) > TITLE_MAX_LENGTH) throw new AppError('TitleTooLong');
	if (fields.boardId === null) {
		if (fields.subjectId !== null) throw invalid('subjectId needs a boardId');
		return;
	}
	const found = firstRowOf<{ is_public: number; notice_only: number; subject_id: number | null }>(board);
	if (!found) throw invalid('boardId is not a board of this community');
	// Only administrators write in private boards (which only they read) and in notice-only ones.
	if ((found.is_public === 0 || found.notice_only === 1) && !writer.admin) throw invalid('boardId is a board you cannot write in');
	// A category disabled since the editor loaded still belongs to the board: the draft keeps it, and
	// submitting the post answers SubjectNotFound, which tells the member to choose another.
	if (fields.subjectId !== null && found.subject_id === null) throw invalid('subjectId is not a category of that board');
}

/**
 * Saves a new draft. Its images must be the member's own uploads of this channel; their claims, in
 * the draft's batch, keep them from the cleanup while the draft exists. What it checks is read in
 * one round trip before the batch. The count of the member's drafts is checked by the INSERT itself
 * (the trigger drafts_limit of migrations/0006), so the limit holds under racing saves.
 * @throws AppError TooManyImages, ImageNotUploaded, TitleTooLong, InvalidParameter, DraftLimitReached
 */
export async function createDraft(
	db: Db,
	channelId: number,
	writer: DraftWriter,
	fields: DraftFields,
	alsoInBatch: AlsoInBatch = () => [],
	now = Date.now(),
): Promise<{ draftId: number; updatedAt: number }> {
	const images = uploadKeysOf(fields.content);
	const [uploads, board] = await readTogether(db, [uploadsStatement(db, channelId, images), draftBoardStatement(db, channelId, fields)]);
	uploadsOf(uploads, writer.memberId, images, null);
	checkDraftFields(board, writer, fields);
	const insert = db
		.prepare(
			`INSERT INTO drafts (id, channel_id, member_id, board_id, subject_id, title, content, created_at, updated_at)
			 VALUES (${newIdSql('drafts', '?1')}, ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?7) RETURNING id`,
		)
		.bind(channelId, writer.memberId, fields.boardId, fields.subjectId, fields.title, JSON.stringify(fields.content), now);
	let results: D1Result[];
	try {
		const target = { draftId: 'last-inserted' } as const;
		results = await db.batch([insert, ...claimUploadsStatements(db, channelId, images, target), ...alsoInBatch(target)]);
	} catch (error) {
		if (isDraftLimitAbort(error)) throw new AppError('DraftLimitReached');
		throw error;
	}
	const inserted = results[0]?.results[0] as { id: number } | undefined;
	if (!inserted) throw new Error('The draft INSERT returned no id');
	return { draftId: inserted.id, updatedAt: now };
}

/** Whether a failed D1 write is the drafts_limit trigger's refusal. */
function isDraftLimitAbort(error: unknown): boolean {
	return error instanceof Error && /DraftLimitReached/.test(error.message);
}

/**
 * Overwrites one of the member's drafts with `fields`, its images checked and claimed as
 * createDraft's; what it checks is read in one round trip before the batch.
 * @throws AppError TooManyImages, ImageNotUploaded; DraftNotFound when the member has no draft of
 * that id here; TitleTooLong, InvalidParameter
 */
export async function updateDraft(
	db: Db,
	channelId: number,
	writer: DraftWriter,
	draftId: number,
	fields: DraftFields,
	alsoInBatch: AlsoInBatch = () => [],
	now = Date.now(),
): Promise<{ draftId: number; updatedAt: number }> {
	const images = uploadKeysOf(fields.content);
	const [uploads, owned, board] = await readTogether(db, [
		uploadsStatement(db, channelId, images),
		ownDraftStatement(db, channelId, writer.memberId, draftId),
		draftBoardStatement(db, channelId, fields),
	]);
	uploadsOf(uploads, writer.memberId, images, null);
	// Ownership before the fields, so that another member's draft id answers DraftNotFound whatever
	// the fields hold, and so that statements batched with the update never run for a draft that is
	// not the member's.
	ownDraftOf(owned);
	checkDraftFields(board, writer, fields);
	const [updated] = await db.batch([
		db
			.prepare(
				`UPDATE drafts SET board_id = ?4, subject_id = ?5, title = ?6, content = ?7, updated_at = ?8
				 WHERE id = ?1 AND channel_id = ?2 AND member_id = ?3`,
			)
			.bind(draftId, channelId, writer.memberId, fields.boardId, fields.subjectId, fields.title, JSON.stringify(fields.content), now),
		...claimUploadsStatements(db, channelId, images, { draftId }),
		...alsoInBatch({ draftId }),
	]);
	// Deleted in another tab between the check and the write.
	if (!updated?.meta.changes) throw new AppError('DraftNotFound');
	return { draftId, updatedAt: now };
}

/** The read of whether the member has a draft of that id in this channel, for ownDraftOf: to send with a write's other reads. */
export function ownDraftStatement(db: Db, channelId: number, memberId: number, draftId: number): D1PreparedStatement {
	return db.prepare('SELECT 1 AS found FROM drafts WHERE id = ?1 AND channel_id = ?2 AND member_id = ?3').bind(draftId, channelId, memberId);
}

/** @throws AppError DraftNotFound unless ownDraftStatement found the member's draft */
export function ownDraftOf(result: D1Result | undefined): void {
	if (!firstRowOf(result)) throw new AppError('DraftNotFound');
}

/**
 * The deletion of one of the member's drafts, for a batch: it deletes nothing when the draft is not
 * theirs here, nor, given the `requestId` of the post published from it, once the member has a post
 * of that request (written by the same request sent twice at once).
 */
export function draftDeletionStatement(db: Db, channelId: number, memberId: number, draftId: number, requestId?: string): D1PreparedStatement {
	if (requestId === undefined) {
		return db.prepare('DELETE FROM drafts WHERE id = ?1 AND channel_id = ?2 AND member_id = ?3').bind(draftId, channelId, memberId);
	}
	return db
		.prepare(
			'DELETE FROM drafts WHERE id = ?1 AND channel_id = ?2 AND member_id = ?3 AND NOT EXISTS (SELECT 1 FROM posts WHERE member_id = ?3 AND request_id = ?4)',
		)
		.bind(draftId, channelId, memberId, requestId);
}

/** Deletes one of the member's drafts. @throws AppError DraftNotFound when the member has no draft of that id here */
export async function deleteDraft(db: Db, channelId: number, memberId: number, draftId: number): Promise<void> {
	const result = await draftDeletionStatement(db, channelId, memberId, draftId).run();
	if (!result.meta.changes) throw new AppError('DraftNotFound');
}

/**
 * Attaching uploads to what shows them. Writing a post or a draft checks that every `/uploads/`
 * image of its body is an upload of this channel by this member (uploadsOf), then claims them
 * in the same D1 batch as the write (claimUploadsStatements), so that the scheduled cleanup keeps
 * them (uploads.ts). A post keeps its images for good; a draft keeps them until it is deleted.
 */
import { uploadKeyOf, type ContentDocument } from '@/schemas/content';
import { IMAGES_PER_DOCUMENT_MAX } from '@/schemas/post-limits';
import { AppError } from '@/server/platform/errors';
import { parseJsonColumn } from '@/server/platform/db';
import { firstRowOf, readTogether } from '@/server/platform/reads';

/**
 * The most uploaded images one post or draft shows: no more than its image blocks. It bounds the
 * rows a claim writes, and keeps a claim's keys within D1's 100 bound values per statement.
 */
export const MAX_UPLOADS_PER_DOCUMENT = IMAGES_PER_DOCUMENT_MAX;

/**
 * The keys of the uploads `doc` shows (its `/uploads/{key}` images), each once, in order: what
 * writing a post or a draft checks and claims. A document of more than IMAGES_PER_DOCUMENT_MAX
 * image blocks is refused here, every block counted (the same image 500 times is 500 images a
 * reader's browser draws, however few uploads they are).
 * @throws AppError TooManyImages
 */
export function uploadKeysOf(doc: ContentDocument): string[] {
	const keys = new Set<string>();
	let images = 0;
	for (const block of doc.blocks) {
		if (block.type !== 'image') continue;
		images += 1;
		const key = uploadKeyOf(block.src);
		if (key) keys.add(key);
	}
	if (images > IMAGES_PER_DOCUMENT_MAX) throw new AppError('TooManyImages');
	return [...keys];
}

function tooManyImages(): AppError {
	return new AppError('TooManyImages');
}

interface UploadRow {
	r2_key: string;
	member_id: number;
	post_id: number | null;
	thumb_key: string | null;
}

/**
 * The read of the uploads `keys` of the channel, for uploadsOf: null when there is nothing to read
 * (no keys, or more than MAX_UPLOADS_PER_DOCUMENT, which uploadsOf refuses). One statement, to send
 * with the write's other reads.
 */
export function uploadsStatement(db: Db, channelId: number, keys: readonly string[]): D1PreparedStatement | null {
	if (keys.length === 0 || keys.length > MAX_UPLOADS_PER_DOCUMENT) return null;
	return db
		.prepare(
			`SELECT r2_key, member_id, post_id, thumb_key FROM uploads WHERE channel_id = ?1 AND r2_key IN (${keys.map((_, i) => `?${i + 2}`).join(', ')})`,
		)
		.bind(channelId, ...keys);
}

/** The post being edited, for uploadsOf: its id and its stored body (posts.content; null when it has none). */
export interface EditedPost {
	postId: number;
	content: string | null;
}

/**
 * Checks, from uploadsStatement's result, that `memberId` may show the uploads `keys` in a post or
 * draft of the channel: each must be an upload of this channel made by this member, or be shown
 * already by the post being edited (`edited`), so that an administrator editing someone's post
 * keeps its images. Answers each key's thumbnail key (the small variant for lists, or null).
 * @throws AppError TooManyImages over MAX_UPLOADS_PER_DOCUMENT keys
 * @throws AppError ImageNotUploaded for any other key (another member's, another channel's, a removed one)
 */
export function uploadsOf(
	result: D1Result | undefined,
	memberId: number,
	keys: readonly string[],
	edited: EditedPost | null,
): Map<string, string | null> {
	if (keys.length === 0) return new Map();
	if (keys.length > MAX_UPLOADS_PER_DOCUMENT) throw tooManyImages();
	const results = (result?.results ?? []) as UploadRow[];
	const rows = new Map(results.map((row) => [row.r2_key, row]));
	let shownByEditedPost: Set<string> | null = null;
	for (const key of keys) {
		const row = rows.get(key);
		if (!row) throw new AppError('ImageNotUploaded');
		if (row.member_id === memberId || (edited !== null && row.post_id === edited.postId)) continue;
		if (edited === null) throw new AppError('ImageNotUploaded');
		// The upload may have been claimed since by another post showing it too: the edited post's body decides.
		shownByEditedPost ??= uploadKeysOfBody(edited.content);
		if (!shownByEditedPost.has(key)) throw new AppError('ImageNotUploaded');
	}
	return new Map(results.map((row) => [row.r2_key, row.thumb_key]));
}

/**
 * Checks that `memberId` may show the uploads `keys` in a post or draft of the channel (uploadsOf),
 * read now; `editingPostId` is the post being edited, whose body is read with the uploads.
 * @throws AppError TooManyImages, ImageNotUploaded
 */
export async function checkUploads(
	db: Db,
	channelId: number,
	memberId: number,
	keys: readonly string[],
	editingPostId: number | null,
): Promise<Map<string, string | null>> {
	const statement = uploadsStatement(db, channelId, keys);
	const [uploads, post] = await readTogether(db, [
		statement,
		statement && editingPostId !== null
			? db.prepare('SELECT content FROM posts WHERE id = ?1 AND channel_id = ?2').bind(editingPostId, channelId)
			: null,
	]);
	const edited = editingPostId === null ? null : { postId: editingPostId, content: firstRowOf<{ content: string }>(post)?.content ?? null };
	return uploadsOf(uploads, memberId, keys, edited);
}

/** The keys of the uploads a stored post body shows (none for no body). */
function uploadKeysOfBody(content: string | null): Set<string> {
	const keys = new Set<string>();
	if (content === null) return keys;
	const doc = parseJsonColumn(content, 'posts.content') as { blocks?: unknown };
	for (const block of Array.isArray(doc.blocks) ? doc.blocks : []) {
		const src = (block as { type?: unknown; src?: unknown }).src;
		if ((block as { type?: unknown }).type === 'image' && typeof src === 'string') {
			const key = uploadKeyOf(src);
			if (key) keys.add(key);
		}
	}
	return keys;
}

/**
 * What a claim attaches the uploads to. `'last-inserted'` is the row of the INSERT just before the
 * claim in the same batch (`last_insert_rowid()`), for a post or draft being created; a claim
 * whose target is not a post (or draft) of the channel changes nothing.
 */
export type ClaimTarget = { postId: number | 'last-inserted' } | { draftId: number | 'last-inserted' };

/**
 * The statements that claim `keys` (checked by checkUploads) for a post or a draft: to run in the
 * same D1 batch as its write, right after it. Writes one row per key, at most
 * MAX_UPLOADS_PER_DOCUMENT; none for no keys. A post's claim replaces an earlier post's (the
 * upload stays claimed); a draft's replaces an earlier draft's. `condition` (SQL without
 * parameters, such as `changes() = 1`) leaves the uploads alone unless it holds.
 */
export function claimUploadsStatements(
	db: Db,
	channelId: number,
	keys: readonly string[],
	target: ClaimTarget,
	condition?: string,
): D1PreparedStatement[] {
	if (keys.length === 0) return [];
	if (keys.length > MAX_UPLOADS_PER_DOCUMENT) throw tooManyImages();
	const [column, table, id] = 'postId' in target ? ['post_id', 'posts', target.postId] : ['draft_id', 'drafts', target.draftId];
	const value = id === 'last-inserted' ? 'last_insert_rowid()' : '?2';
	const params = id === 'last-inserted' ? [channelId] : [channelId, id];
	const first = params.length + 1;
	const list = keys.map((_, i) => `?${first + i}`).join(', ');
	// The target must be a row of this channel: an INSERT that inserted nothing (a conflict) leaves
	// last_insert_rowid() naming some earlier row.
	const sql = `UPDATE uploads SET ${column} = ${value} WHERE channel_id = ?1 AND r2_key IN (${list}) AND EXISTS (SELECT 1 FROM ${table} WHERE id = ${value} AND channel_id = ?1)${condition ? ` AND (${condition})` : ''}`;
	return [db.prepare(sql).bind(...params, ...keys)];
}

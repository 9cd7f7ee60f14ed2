/**
 * Uploaded images: stored in R2 under a random key with the type sniffed from their bytes, one D1
 * row each (who uploaded it, where, its size), served from /uploads/{key}, and removed by the
 * scheduled cleanup when nothing shows or keeps them a day later. What attaches an upload to a
 * post or a draft is in claims.ts.
 */
import { cleanImage, IMAGE_TYPES } from '@/server/uploads/image-format';
import { UPLOAD_KEY, uploadSrc } from '@/schemas/content';

export interface StoredUpload {
	uploadId: number;
	/** `/uploads/{key}`, what an image block points at. */
	src: string;
	width: number;
	height: number;
}

/** 128 random bits, base64url (22 characters). */
function randomKeyBase(): string {
	const bytes = crypto.getRandomValues(new Uint8Array(16));
	return btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/**
 * Checks, cleans and stores an image `memberId` uploaded in the channel: the R2 object (the cleaned
 * bytes with the sniffed type), then its row, which is one row written per upload.
 * @throws AppError InvalidImage for anything that is not a whole JPEG, PNG, GIF or WebP
 */
export async function storeUpload(db: D1Database, bucket: R2Bucket, channelId: number, memberId: number, bytes: Uint8Array, now: number): Promise<StoredUpload> {
	const image = cleanImage(bytes);
	const key = `${randomKeyBase()}.${image.extension}`;
	await bucket.put(key, image.bytes, { httpMetadata: { contentType: image.contentType } });
	let row: { id: number } | null;
	try {
		row = await db
			.prepare('INSERT INTO uploads (channel_id, member_id, r2_key, content_type, size, width, height, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8) RETURNING id')
			.bind(channelId, memberId, key, image.contentType, image.bytes.length, image.width, image.height, now)
			.first<{ id: number }>();
	} catch (error) {
		// An object without its row would never be cleaned up.
		await bucket.delete(key);
		throw error;
	}
	if (!row) throw new Error('The upload row was not written');
	return { uploadId: row.id, src: uploadSrc(key), width: image.width, height: image.height };
}

const CONTENT_TYPES: ReadonlySet<string> = new Set(Object.values(IMAGE_TYPES).map((type) => type.contentType));
const TYPE_BY_EXTENSION: Readonly<Record<string, string>> = Object.fromEntries(Object.values(IMAGE_TYPES).map((type) => [type.extension, type.contentType]));

export interface UploadFile {
	/** The sniffed type it was stored with (always an image type). */
	contentType: string;
	size: number;
	/** The object's quoted ETag. */
	etag: string;
	/** Null for a HEAD, or when `ifNoneMatch` matched (the reader has it already). */
	body: ReadableStream | null;
}

/**
 * The stored upload under `key`, for serving; null for a key that is malformed or unknown.
 * `ifNoneMatch` is the reader's If-None-Match: when it names this object, no body is read.
 */
export async function readUpload(bucket: R2Bucket, key: string, { head = false, ifNoneMatch = null }: { head?: boolean; ifNoneMatch?: string | null } = {}): Promise<UploadFile | null> {
	if (!UPLOAD_KEY.test(key)) return null;
	const object = head ? await bucket.head(key) : await bucket.get(key, ifNoneMatch ? { onlyIf: { etagDoesNotMatch: ifNoneMatch.replace(/^W\//, '').replace(/"/g, '') } } : {});
	if (!object) return null;
	const stored = object.httpMetadata?.contentType ?? '';
	// The key's extension was made from the same sniffed type; it stands in if the metadata is odd.
	const contentType = CONTENT_TYPES.has(stored) ? stored : (TYPE_BY_EXTENSION[key.slice(key.lastIndexOf('.') + 1)] ?? 'application/octet-stream');
	return { contentType, size: object.size, etag: object.httpEtag, body: 'body' in object ? (object as R2ObjectBody).body : null };
}

/** How long an upload may wait for a post or a draft to show it before the cleanup removes it. */
export const UNATTACHED_UPLOAD_TTL_MS = 24 * 60 * 60 * 1000;
/** The most uploads one cleanup run removes (an R2 delete takes up to 1,000 keys; D1 binds up to 100 values per statement). */
export const CLEANUP_BATCH = 200;
const DELETE_CHUNK = 90;

/**
 * Removes the oldest uploads that no post shows and no draft keeps, once they are
 * UNATTACHED_UPLOAD_TTL_MS old: at most CLEANUP_BATCH a run, R2 objects first, then their rows,
 * so that a failure between the two leaves rows the next run finds again, never objects nobody
 * can find. The rows are deleted only if still unattached; a claim landing in the instant between
 * the two steps, a day after the upload, keeps its row but not its image. Returns the rows removed.
 */
export async function removeUnattachedUploads(db: D1Database, bucket: R2Bucket, now: number): Promise<number> {
	const { results } = await db
		.prepare('SELECT id, r2_key FROM uploads WHERE post_id IS NULL AND draft_id IS NULL AND created_at < ?1 ORDER BY created_at LIMIT ?2')
		.bind(now - UNATTACHED_UPLOAD_TTL_MS, CLEANUP_BATCH)
		.all<{ id: number; r2_key: string }>();
	if (results.length === 0) return 0;
	await bucket.delete(results.map((row) => row.r2_key));
	const statements: D1PreparedStatement[] = [];
	for (let i = 0; i < results.length; i += DELETE_CHUNK) {
		const ids = results.slice(i, i + DELETE_CHUNK).map((row) => row.id);
		statements.push(db.prepare(`DELETE FROM uploads WHERE id IN (${ids.map(() => '?').join(', ')}) AND post_id IS NULL AND draft_id IS NULL`).bind(...ids));
	}
	const outcomes = await db.batch(statements);
	return outcomes.reduce((sum, outcome) => sum + outcome.meta.changes, 0);
}

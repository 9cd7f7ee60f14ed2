/**
 * Uploaded images: stored in R2 under a random key with the type sniffed from their bytes, one D1
 * row each (who uploaded it, where, its size), served from /uploads/{key}, and removed by the
 * scheduled cleanup when nothing shows or keeps them a day later. What attaches an upload to a
 * post or a draft is in claims.ts.
 */
import { cleanImage, IMAGE_TYPES } from '@/server/uploads/image-format';
import { UPLOAD_KEY, uploadSrc } from '@/schemas/content';
import { AppError, isAppError } from '@/server/platform/errors';
import { THUMBNAIL_MAX_BYTES, THUMBNAIL_MAX_SIDE, THUMBNAIL_TYPES } from '@/lib/thumbnails';
import { newIdSql } from '@/server/databases/ids';

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
	return btoa(String.fromCharCode(...bytes))
		.replace(/\+/g, '-')
		.replace(/\//g, '_')
		.replace(/=+$/, '');
}

/** The refusals of the trigger uploads_quota (migrations/0019), by the message it aborts with. */
const QUOTA_REFUSALS = ['UploadDailyLimitReached', 'UnattachedUploadLimitReached'] as const;

function quotaRefusal(error: unknown): (typeof QUOTA_REFUSALS)[number] | null {
	if (!(error instanceof Error)) return null;
	return QUOTA_REFUSALS.find((name) => error.message.includes(name)) ?? null;
}

/**
 * Checks, cleans and stores an image `memberId` uploaded in the channel: its row first, whose
 * INSERT the trigger uploads_quota refuses past the member's quota (UPLOADS_PER_DAY and
 * UPLOAD_BYTES_PER_DAY in 24 hours, UNATTACHED_UPLOADS_MAX of those unshown), race-free; then the
 * R2 object (the cleaned bytes with the sniffed type). A refusal writes nothing, and an upload
 * writes one row (with its indexes, 5 as D1 counts them) and one object.
 * @throws AppError InvalidImage for anything that is not a whole JPEG, PNG, GIF or WebP
 * @throws AppError ImageResolutionTooHigh past the pixel limits (image-format.ts)
 * @throws AppError UploadDailyLimitReached, UnattachedUploadLimitReached past the quota
 */
export async function storeUpload(
	db: Db,
	bucket: R2Bucket,
	channelId: number,
	memberId: number,
	bytes: Uint8Array,
	now: number,
): Promise<StoredUpload> {
	const image = cleanImage(bytes);
	const key = `${randomKeyBase()}.${image.extension}`;
	let row: { id: number } | null;
	try {
		row = await db
			.prepare(
				`INSERT INTO uploads (id, channel_id, member_id, r2_key, content_type, size, width, height, created_at)
				 VALUES (${newIdSql('uploads', '?1')}, ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8) RETURNING id`,
			)
			.bind(channelId, memberId, key, image.contentType, image.bytes.length, image.width, image.height, now)
			.first<{ id: number }>();
	} catch (error) {
		const refusal = quotaRefusal(error);
		if (refusal) throw new AppError(refusal);
		throw error;
	}
	if (!row) throw new Error('The upload row was not written');
	try {
		await bucket.put(key, image.bytes, { httpMetadata: { contentType: image.contentType } });
	} catch (error) {
		// A row without its object would count against the member's quota for a day. (Should this
		// DELETE fail too, the row is an unattached upload like any other: the cleanup removes it.)
		await db.prepare('DELETE FROM uploads WHERE id = ?1').bind(row.id).run();
		throw error;
	}
	return { uploadId: row.id, src: uploadSrc(key), width: image.width, height: image.height };
}

export interface StoredThumbnail {
	/** `/uploads/{key}` of the thumbnail itself. */
	src: string;
	width: number;
	height: number;
	size: number;
}

/**
 * Stores the small variant the editor made of the upload `uploadKey` (point 8;
 * docs/reference/thumbnails.md) and links it to that upload's row, which a post's list row then shows. Only
 * the member who made the upload, in its channel, gives it a thumbnail, and only once: the row's
 * thumb_key is set by one UPDATE that requires it to be unset (racing requests: one wins, the other
 * is refused and writes no object). The row first, then the object, as storeUpload does. Writes one
 * row (thumb_key is not indexed) and one object of at most THUMBNAIL_MAX_BYTES; a refusal writes nothing.
 * @throws AppError ThumbnailTooLarge over THUMBNAIL_MAX_BYTES
 * @throws AppError InvalidThumbnail for anything but a whole JPEG or WebP of at most THUMBNAIL_MAX_SIDE a side
 * @throws AppError UploadNotFound when `uploadKey` is not this member's upload in this channel
 * @throws AppError ThumbnailExists when the upload has its thumbnail already
 */
export async function storeThumbnail(
	db: Db,
	bucket: R2Bucket,
	channelId: number,
	memberId: number,
	uploadKey: string,
	bytes: Uint8Array,
): Promise<StoredThumbnail> {
	if (bytes.length > THUMBNAIL_MAX_BYTES) throw new AppError('ThumbnailTooLarge');
	if (!UPLOAD_KEY.test(uploadKey)) throw new AppError('UploadNotFound');
	let image;
	try {
		image = cleanImage(bytes);
	} catch (error) {
		if (isAppError(error)) throw new AppError('InvalidThumbnail');
		throw error;
	}
	if (!(THUMBNAIL_TYPES as readonly string[]).includes(image.contentType) || image.width > THUMBNAIL_MAX_SIDE || image.height > THUMBNAIL_MAX_SIDE) {
		throw new AppError('InvalidThumbnail');
	}
	const key = `${randomKeyBase()}.${image.extension}`;
	const linked = await db
		.prepare('UPDATE uploads SET thumb_key = ?1 WHERE r2_key = ?2 AND channel_id = ?3 AND member_id = ?4 AND thumb_key IS NULL RETURNING id')
		.bind(key, uploadKey, channelId, memberId)
		.first<{ id: number }>();
	if (!linked) {
		const row = await db
			.prepare('SELECT thumb_key FROM uploads WHERE r2_key = ?1 AND channel_id = ?2 AND member_id = ?3')
			.bind(uploadKey, channelId, memberId)
			.first<{ thumb_key: string | null }>();
		throw new AppError(row ? 'ThumbnailExists' : 'UploadNotFound');
	}
	try {
		await bucket.put(key, image.bytes, { httpMetadata: { contentType: image.contentType } });
	} catch (error) {
		await db.prepare('UPDATE uploads SET thumb_key = NULL WHERE id = ?1 AND thumb_key = ?2').bind(linked.id, key).run();
		throw error;
	}
	return { src: uploadSrc(key), width: image.width, height: image.height, size: image.bytes.length };
}

const CONTENT_TYPES: ReadonlySet<string> = new Set(Object.values(IMAGE_TYPES).map((type) => type.contentType));
const TYPE_BY_EXTENSION: Readonly<Record<string, string>> = Object.fromEntries(
	Object.values(IMAGE_TYPES).map((type) => [type.extension, type.contentType]),
);

export interface UploadFile {
	/** The sniffed type it was stored with (always an image type). */
	contentType: string;
	size: number;
	/** The object's quoted ETag. */
	etag: string;
	/** Null for a HEAD, or when `ifNoneMatch` matched (the reader has it already). */
	body: ReadableStream | null;
	/** When it was stored (R2's own time of the upload), in ms. */
	uploadedAt: number;
}

/**
 * The stored upload under `key`, for serving; null for a key that is malformed or unknown.
 * `ifNoneMatch` is the reader's If-None-Match: when it names this object, no body is read.
 */
export async function readUpload(
	bucket: R2Bucket,
	key: string,
	{ head = false, ifNoneMatch = null }: { head?: boolean; ifNoneMatch?: string | null } = {},
): Promise<UploadFile | null> {
	if (!UPLOAD_KEY.test(key)) return null;
	const object = head
		? await bucket.head(key)
		: await bucket.get(key, ifNoneMatch ? { onlyIf: { etagDoesNotMatch: ifNoneMatch.replace(/^W\//, '').replace(/"/g, '') } } : {});
	if (!object) return null;
	const stored = object.httpMetadata?.contentType ?? '';
	// The key's extension was made from the same sniffed type; it stands in if the metadata is odd.
	const contentType = CONTENT_TYPES.has(stored) ? stored : (TYPE_BY_EXTENSION[key.slice(key.lastIndexOf('.') + 1)] ?? 'application/octet-stream');
	return {
		contentType,
		size: object.size,
		etag: object.httpEtag,
		body: 'body' in object ? (object as R2ObjectBody).body : null,
		uploadedAt: object.uploaded.getTime(),
	};
}

/** How long an upload may wait for a post or a draft to show it before the cleanup removes it. */
export const UNATTACHED_UPLOAD_TTL_MS = 24 * 60 * 60 * 1000;
/** The uploads one step of the cleanup removes (an R2 delete takes up to 1,000 keys; D1 binds up to 100 values per statement). */
export const CLEANUP_BATCH = 200;
/**
 * The most steps one cleanup run takes: 10 × 200 = 2,000 uploads an hour, 48,000 a day, far over
 * what the upload quota lets even hundreds of members leave behind. A step costs one D1 read, one
 * D1 batch and one R2 delete, so a run stays well within a Worker's 50 D1 queries on the Free plan.
 */
export const CLEANUP_MAX_BATCHES = 10;
/** The wall time after which a run takes no further step (a Cron Trigger may run for 15 minutes). */
export const CLEANUP_TIME_BUDGET_MS = 20_000;
const DELETE_CHUNK = 90;

export interface CleanupBudget {
	batchSize?: number;
	maxBatches?: number;
	timeBudgetMs?: number;
	/** Reads the wall time for the budget. */
	clock?: () => number;
}

export interface CleanupOutcome {
	/** Rows removed. */
	removed: number;
	/** Steps taken. */
	batches: number;
	/** Whether the run found nothing more to remove (false when the budget ended it). */
	done: boolean;
}

/**
 * Removes the uploads that no post shows and no draft keeps, once they are
 * UNATTACHED_UPLOAD_TTL_MS old, oldest first, in steps of `batchSize` until none is left or the
 * budget (`maxBatches` steps, `timeBudgetMs` of wall time) is spent; the next run goes on. Each
 * step reads the next candidates after the last one seen (keyset on created_at and id, through the
 * index uploads_unattached), deletes their R2 objects, then their rows, so that a failure between
 * the two leaves rows a later run finds again, never objects nobody can find. The rows are deleted
 * only if still unattached; a claim landing in the instant between the two, a day after the
 * upload, keeps its row but not its image.
 */
export async function removeUnattachedUploads(
	db: Db,
	bucket: R2Bucket,
	now: number,
	{ batchSize = CLEANUP_BATCH, maxBatches = CLEANUP_MAX_BATCHES, timeBudgetMs = CLEANUP_TIME_BUDGET_MS, clock = Date.now }: CleanupBudget = {},
): Promise<CleanupOutcome> {
	const started = clock();
	const select = db.prepare(
		'SELECT id, r2_key, thumb_key, created_at FROM uploads WHERE post_id IS NULL AND draft_id IS NULL AND created_at < ?1 AND (created_at, id) > (?2, ?3) ORDER BY created_at, id LIMIT ?4',
	);
	let after = { createdAt: -1, id: 0 };
	let removed = 0;
	let batches = 0;
	while (batches < maxBatches && clock() - started < timeBudgetMs) {
		const { results } = await select
			.bind(now - UNATTACHED_UPLOAD_TTL_MS, after.createdAt, after.id, batchSize)
			.all<{ id: number; r2_key: string; thumb_key: string | null; created_at: number }>();
		if (results.length === 0) return { removed, batches, done: true };
		batches += 1;
		const last = results[results.length - 1]!;
		after = { createdAt: last.created_at, id: last.id };
		// With their thumbnails: at most 2 × 200 keys, within R2's 1,000 a call.
		await bucket.delete(results.flatMap((row) => (row.thumb_key ? [row.r2_key, row.thumb_key] : [row.r2_key])));
		const statements: D1PreparedStatement[] = [];
		for (let i = 0; i < results.length; i += DELETE_CHUNK) {
			const ids = results.slice(i, i + DELETE_CHUNK).map((row) => row.id);
			statements.push(
				db.prepare(`DELETE FROM uploads WHERE id IN (${ids.map(() => '?').join(', ')}) AND post_id IS NULL AND draft_id IS NULL`).bind(...ids),
			);
		}
		const outcomes = await db.batch(statements);
		removed += outcomes.reduce((sum, outcome) => sum + outcome.meta.changes, 0);
		if (results.length < batchSize) return { removed, batches, done: true };
	}
	return { removed, batches, done: false };
}

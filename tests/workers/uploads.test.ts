/**
 * Image uploads end to end inside workerd, on the real local D1 and R2: the upload route, what is
 * stored, how it is served, the claims that attach uploads to posts and drafts, and the scheduled
 * cleanup of those nothing shows.
 */
import { describe, expect, it } from 'vitest';
import { env } from 'cloudflare:workers';
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from 'cloudflare:test';
import { api } from '@functions/api/app';
import { serveUploadFile, UPLOAD_HEADERS, YOUNG_UPLOAD_CACHE_CONTROL } from '@functions/shell/upload-files';
import { withSecurityHeaders } from '@functions/shell/security-headers';
import { runScheduled } from '@functions/shell/scheduled';
import { BACKUP_CRON } from '@/server/backup/scheduled-backup';
import { SECURITY_HEADERS } from '@/server/platform/security-policy';
import { IMAGE_MAX_BYTES } from '@/schemas/post-write';
import { uploadKeyOf, type ContentDocument } from '@/schemas/content';
import { AppError } from '@/server/platform/errors';
import {
	CLEANUP_BATCH,
	CLEANUP_MAX_BATCHES,
	CLEANUP_TIME_BUDGET_MS,
	removeUnattachedUploads,
	storeUpload,
	UNATTACHED_UPLOAD_TTL_MS,
} from '@/server/uploads/uploads';
import { IMAGES_PER_DOCUMENT_MAX, UNATTACHED_UPLOADS_MAX, UPLOAD_BYTES_PER_DAY, UPLOADS_PER_DAY } from '@/schemas/post-limits';
import { RESULT_MESSAGES } from '@/lib/result-codes';
import { checkUploads, claimUploadsStatements, MAX_UPLOADS_PER_DOCUMENT, uploadKeysOf } from '@/server/uploads/claims';
import { call, GLOBAL, KOREAN, memberApi, ORIGIN, postWhere, queryPlan, recordingDb, signIn, signUp } from './harness';
import * as images from '../fixtures/images';
import { objectCount, storedUpload } from './upload-helpers';
import { parse } from 'smol-toml';
import wranglerToml from '../../wrangler.toml?raw';
import workerSource from '../../functions/shell/worker.ts?raw';
import migration0019 from '../../migrations/0019_add_upload_quota.sql?raw';

const MEMBER = 1002;
const OTHER_MEMBER = 1003;
const ADMIN = 1001;
const PERMANENTLY_BANNED = 1039;
const HOUR = 60 * 60 * 1000;

interface UploadAnswer {
	status: number;
	code: number;
	content: { uploadId: number; src: string; width: number; height: number } | undefined;
	body: Record<string, unknown>;
}

/** POSTs `body` to the upload route as the editor does (raw bytes). */
async function upload(
	body: BodyInit | null,
	{ cookie, headers = {}, channel = GLOBAL }: { cookie?: string; headers?: Record<string, string>; channel?: typeof GLOBAL } = {},
): Promise<UploadAnswer> {
	const response = await api.request(`${memberApi(channel)}/uploads`, {
		method: 'POST',
		headers: {
			origin: ORIGIN,
			'content-type': 'image/png',
			'cf-connecting-ip': `uploads:${expect.getState().currentTestName}`,
			...(cookie ? { cookie } : {}),
			...headers,
		},
		body,
		...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
	} as RequestInit);
	const json = (await response.json()) as { header: { resultCode: number }; content?: UploadAnswer['content'] };
	return { status: response.status, code: json.header.resultCode, content: json.content, body: json as Record<string, unknown> };
}

async function storedBytes(src: string): Promise<Uint8Array> {
	const object = await env.UPLOADS.get(uploadKeyOf(src) ?? '');
	if (!object) throw new Error(`${src} is not in R2`);
	return new Uint8Array(await object.arrayBuffer());
}

async function uploadCount(): Promise<number> {
	const row = await env.DB.prepare('SELECT COUNT(*) AS n FROM uploads').first<{ n: number }>();
	return row?.n ?? 0;
}

function docShowing(...srcs: string[]): ContentDocument {
	return {
		type: 'doc',
		blocks: [{ type: 'paragraph', children: [{ text: 'Look' }] }, ...srcs.map((src) => ({ type: 'image' as const, src, alt: '' }))],
	};
}

async function refusal(promise: Promise<unknown>): Promise<string | undefined> {
	try {
		await promise;
		return undefined;
	} catch (error) {
		return error instanceof AppError ? error.codeName : String(error);
	}
}

/** A body of `bytes` bytes sent as a stream without a Content-Length; `pulled()` says how much was read. */
function streamed(bytes: number) {
	let sent = 0;
	const stream = new ReadableStream<Uint8Array>({
		pull(controller) {
			const chunk = Math.min(64 * 1024, bytes - sent);
			if (chunk <= 0) return controller.close();
			controller.enqueue(new Uint8Array(chunk));
			sent += chunk;
		},
	});
	return { stream, pulled: () => sent };
}

describe('POST uploads', () => {
	it.each([
		['a JPEG with EXIF GPS and orientation', images.jpegWithMetadata(6), 'jpg', images.HEIGHT, images.WIDTH],
		['a PNG with text chunks', images.PNG_WITH_TEXT, 'png', images.WIDTH, images.HEIGHT],
		['a GIF with a comment', images.GIF_WITH_COMMENT, 'gif', images.WIDTH, images.HEIGHT],
		['a lossy WebP', images.WEBP_LOSSY, 'webp', images.WIDTH, images.HEIGHT],
		['a lossless WebP', images.WEBP_LOSSLESS, 'webp', images.WIDTH, images.HEIGHT],
		['an extended WebP with EXIF', images.WEBP_EXTENDED, 'webp', images.WIDTH, images.HEIGHT],
	])('stores %s under a random key with its dimensions and without its metadata', async (_name, bytes, extension, width, height) => {
		const answer = await upload(bytes, { cookie: await signIn(MEMBER) });
		expect(answer.status).toBe(200);
		expect(answer.content).toMatchObject({ width, height });
		expect(answer.content?.src).toMatch(new RegExp(`^/uploads/[A-Za-z0-9_-]{22}\\.${extension}$`));
		const stored = await storedBytes(answer.content?.src ?? '');
		for (const secret of Object.values(images.SECRETS)) expect(images.containsBytes(stored, secret)).toBe(false);
		const row = await env.DB.prepare('SELECT channel_id, member_id, content_type, size, width, height, post_id, draft_id FROM uploads WHERE id = ?1')
			.bind(answer.content?.uploadId)
			.first();
		expect(row).toEqual({
			channel_id: GLOBAL.id,
			member_id: MEMBER,
			content_type: `image/${extension === 'jpg' ? 'jpeg' : extension}`,
			size: stored.length,
			width,
			height,
			post_id: null,
			draft_id: null,
		});
	});

	it('stores a polyglot (a JPEG that is also an HTML page) without the page', async () => {
		const answer = await upload(images.JPEG_POLYGLOT, { cookie: await signIn(MEMBER), headers: { 'content-type': 'text/html' } });
		expect(answer.code).toBe(0);
		expect(await storedBytes(answer.content?.src ?? '')).toEqual(images.JPEG);
	});

	it('makes a new key for every upload, whatever the bytes', async () => {
		const cookie = await signIn(MEMBER);
		const first = await upload(images.PNG, { cookie });
		const second = await upload(images.PNG, { cookie });
		expect(first.content?.src).not.toBe(second.content?.src);
	});

	it.each([
		['HTML renamed .png', images.HTML_AS_PNG],
		['SVG renamed .png', images.SVG_AS_PNG],
		['a truncated JPEG', images.JPEG.subarray(0, images.JPEG.length - 2)],
		['a truncated PNG', images.PNG.subarray(0, 60)],
		['a zero-byte file', new Uint8Array(0)],
	])('refuses %s with -4001441 and stores nothing', async (_name, bytes) => {
		const [rows, objects] = [await uploadCount(), await objectCount()];
		const answer = await upload(bytes, { cookie: await signIn(MEMBER) });
		expect({ status: answer.status, code: answer.code }).toEqual({ status: 400, code: -4001441 });
		expect([await uploadCount(), await objectCount()]).toEqual([rows, objects]);
	});

	it('refuses a body over the limit by its Content-Length, without reading it', async () => {
		const body = streamed(IMAGE_MAX_BYTES + 1);
		const answer = await upload(body.stream, { cookie: await signIn(MEMBER), headers: { 'content-length': String(IMAGE_MAX_BYTES + 1) } });
		expect({ status: answer.status, code: answer.code }).toEqual({ status: 413, code: -4131441 });
		expect(body.pulled()).toBeLessThanOrEqual(64 * 1024);
	});

	it('refuses a streamed body without Content-Length as soon as it passes the limit', async () => {
		const body = streamed(IMAGE_MAX_BYTES * 3);
		const answer = await upload(body.stream, { cookie: await signIn(MEMBER) });
		expect({ status: answer.status, code: answer.code }).toEqual({ status: 413, code: -4131441 });
		expect(body.pulled()).toBeLessThan(IMAGE_MAX_BYTES + 256 * 1024);
	});

	it('accepts an image of exactly the limit as far as the size goes', async () => {
		const padded = new Uint8Array(IMAGE_MAX_BYTES);
		padded.set(images.PNG);
		const answer = await upload(padded, { cookie: await signIn(MEMBER) });
		// Accepted by size, then stored without the trailing bytes.
		expect(answer.code).toBe(0);
		expect(await storedBytes(answer.content?.src ?? '')).toEqual(images.PNG);
	});

	it('asks a guest to log in', async () => {
		const answer = await upload(images.PNG);
		expect({ status: answer.status, code: answer.code }).toEqual({ status: 401, code: -4011401 });
	});

	it('answers a banned member with the ban', async () => {
		const answer = await upload(images.PNG, { cookie: await signIn(PERMANENTLY_BANNED) });
		expect({ status: answer.status, code: answer.code, ban: answer.body['ban'] }).toMatchObject({
			status: 403,
			code: -4031452,
			ban: { kind: 'PERMANENT', endsAt: null },
		});
	});

	it('refuses another site (Origin) and other methods in the envelope', async () => {
		const crossSite = await upload(images.PNG, { cookie: await signIn(MEMBER), headers: { origin: 'https://evil.example' } });
		expect(crossSite.code).toBe(-4031401);
		for (const method of ['GET', 'PUT', 'DELETE']) {
			const response = await api.request(`${memberApi()}/uploads`, { method, headers: { origin: ORIGIN, cookie: await signIn(MEMBER) } });
			expect(response.status).toBe(405);
			expect(((await response.json()) as { header: { resultCode: number } }).header.resultCode).toBe(-4051401);
		}
	});

	it('writes one row per upload (D1 counts 5 with its indexes), whatever the member uploaded before', async () => {
		const { db, statements } = recordingDb();
		await storeUpload(db, env.UPLOADS, GLOBAL.id, MEMBER, images.PNG, Date.now());
		expect(statements.map((statement) => statement.sql.split(' ')[0])).toEqual(['INSERT']);
		expect(statements.reduce((sum, statement) => sum + statement.rowsWritten, 0)).toBeLessThanOrEqual(5);
		// The quota's trigger reads the member's uploads of the last day, which the quota bounds, and never an older one.
		expect(statements.reduce((sum, statement) => sum + statement.rowsRead, 0)).toBeLessThanOrEqual(2 * UPLOADS_PER_DAY + 10);
	});
});

describe('the upload quota', () => {
	const MINUTE = 60 * 1000;
	let members = 0;

	/** A member who just joined, with no uploads and a rate limit of their own. */
	async function newcomer() {
		members += 1;
		return signUp(`quota-member-${members}`, `Uploader${members}`);
	}

	/**
	 * Plants `count` uploads of `memberId` made in the last day (each a minute apart, ending `endAgo`
	 * ago), of `size` bytes, shown by a post unless `unattached`: the state a member's earlier
	 * uploads leave. Rows only: the quota reads rows.
	 */
	async function plant(memberId: number, count: number, { unattached = false, size = 1, endAgo = MINUTE } = {}) {
		const postId = unattached ? null : await postWhere('deleted_at IS NULL');
		const now = Date.now();
		const statements = Array.from({ length: count }, (_, i) =>
			env.DB.prepare(
				"INSERT INTO uploads (channel_id, member_id, r2_key, content_type, size, created_at, post_id) VALUES (1, ?1, ?2, 'image/png', ?3, ?4, ?5)",
			).bind(memberId, `${crypto.randomUUID().replace(/-/g, '').slice(0, 22)}.png`, size, now - endAgo - (count - i) * MINUTE, postId),
		);
		for (let i = 0; i < statements.length; i += 100) await env.DB.batch(statements.slice(i, i + 100));
	}

	async function state() {
		return [await uploadCount(), await objectCount()];
	}

	it('holds the numbers of post-limits.ts in the trigger of migration 0019 and in the catalogue', () => {
		expect([UPLOADS_PER_DAY, UPLOAD_BYTES_PER_DAY, UNATTACHED_UPLOADS_MAX]).toEqual([100, 200 * 1024 * 1024, 60]);
		expect(/WHERE n >= (\d+) OR bytes \+ NEW\.size > (\d+);/.exec(migration0019)?.slice(1)).toEqual([
			String(UPLOADS_PER_DAY),
			String(UPLOAD_BYTES_PER_DAY),
		]);
		expect(/post_id IS NULL AND draft_id IS NULL\) >= (\d+);/.exec(migration0019)?.[1]).toBe(String(UNATTACHED_UPLOADS_MAX));
		expect(migration0019.match(/NEW\.created_at - (\d+)/g)).toEqual([
			`NEW.created_at - ${UNATTACHED_UPLOAD_TTL_MS}`,
			`NEW.created_at - ${UNATTACHED_UPLOAD_TTL_MS}`,
		]);
		expect(RESULT_MESSAGES.UploadDailyLimitReached).toContain(`${UPLOADS_PER_DAY} images or 200 MB a day`);
		expect(RESULT_MESSAGES.UnattachedUploadLimitReached).toContain(`${UNATTACHED_UPLOADS_MAX} uploaded images`);
		expect(RESULT_MESSAGES.TooManyImages).toContain(`${IMAGES_PER_DOCUMENT_MAX} images`);
	});

	it(`refuses a member's upload past ${UPLOADS_PER_DAY} in 24 hours with -4291441, writing nothing; older uploads and other members do not count`, async () => {
		const { cookie, userId } = await newcomer();
		await plant(userId, 30, { endAgo: UNATTACHED_UPLOAD_TTL_MS + MINUTE });
		await plant(userId, UPLOADS_PER_DAY - 1);
		expect((await upload(images.PNG, { cookie })).code).toBe(0);
		const before = await state();
		const refused = await upload(images.PNG, { cookie });
		expect({ status: refused.status, code: refused.code, message: (refused.body['header'] as { resultMessage: string }).resultMessage }).toEqual({
			status: 429,
			code: -4291441,
			message: RESULT_MESSAGES.UploadDailyLimitReached,
		});
		expect(await state()).toEqual(before);
		// Another member is not held back, and the member may upload again once a day has passed.
		expect((await upload(images.PNG, { cookie: (await newcomer()).cookie })).code).toBe(0);
		expect((await storedUpload(userId, GLOBAL.id, -(UNATTACHED_UPLOAD_TTL_MS + MINUTE))).src).toMatch(/^\/uploads\//);
	});

	it('refuses an upload that would pass 200 MB in 24 hours, and takes one that reaches it exactly', async () => {
		const { cookie, userId } = await newcomer();
		const exact = await storeUpload(env.DB, env.UPLOADS, GLOBAL.id, userId, images.PNG, Date.now() - 2 * MINUTE);
		const size = (await env.DB.prepare('SELECT size FROM uploads WHERE id = ?1').bind(exact.uploadId).first<{ size: number }>())?.size ?? 0;
		await plant(userId, 1, { size: UPLOAD_BYTES_PER_DAY - 2 * size });
		expect((await upload(images.PNG, { cookie })).code).toBe(0);
		const before = await state();
		expect(await refusal(storeUpload(env.DB, env.UPLOADS, GLOBAL.id, userId, images.PNG, Date.now()))).toBe('UploadDailyLimitReached');
		expect((await upload(images.PNG, { cookie })).code).toBe(-4291441);
		expect(await state()).toEqual(before);
	});

	it(`refuses an upload past ${UNATTACHED_UPLOADS_MAX} that no post or draft shows with -4091442, writing nothing, until one is posted`, async () => {
		const { cookie, userId } = await newcomer();
		// Shown uploads of the day and unshown ones older than a day (the cleanup's) do not count.
		await plant(userId, 20);
		await plant(userId, 10, { unattached: true, endAgo: UNATTACHED_UPLOAD_TTL_MS + MINUTE });
		await plant(userId, UNATTACHED_UPLOADS_MAX - 1, { unattached: true });
		const last = await upload(images.PNG, { cookie });
		expect(last.code).toBe(0);
		const before = await state();
		const refused = await upload(images.PNG, { cookie });
		expect({ status: refused.status, code: refused.code }).toEqual({ status: 409, code: -4091442 });
		expect(await state()).toEqual(before);
		// Saving a draft that shows one frees a place.
		const draft = await call(`${memberApi()}/drafts`, {
			method: 'POST',
			cookie,
			body: { boardId: null, subjectId: null, title: 'Album', content: docShowing(last.content?.src ?? '') },
		});
		expect(draft.code).toBe(0);
		expect((await upload(images.PNG, { cookie })).code).toBe(0);
		expect((await upload(images.PNG, { cookie })).code).toBe(-4091442);
	});

	it("reads only the member's index entries of the last day, never a scan of every member's uploads", async () => {
		// The trigger's two counts, as the INSERT runs them (NEW.member_id and NEW.created_at bound).
		const day = [
			'SELECT count(*) AS n, total(size) AS bytes FROM uploads WHERE member_id = ?1 AND created_at > ?2 - 86400000',
			[MEMBER, Date.now()],
		] as const;
		const unshown = [
			'SELECT count(*) FROM uploads WHERE member_id = ?1 AND created_at > ?2 - 86400000 AND post_id IS NULL AND draft_id IS NULL',
			[MEMBER, Date.now()],
		] as const;
		const dayPlan = (await queryPlan({ sql: day[0], params: [...day[1]], rowsRead: 0, rowsWritten: 0 })).join('\n');
		expect(dayPlan).toMatch(/SEARCH uploads USING COVERING INDEX uploads_by_member_day \(member_id=\? AND created_at>\?\)/);
		const unshownPlan = (await queryPlan({ sql: unshown[0], params: [...unshown[1]], rowsRead: 0, rowsWritten: 0 })).join('\n');
		expect(unshownPlan).toMatch(/SEARCH uploads USING INDEX uploads_by_member_day \(member_id=\? AND created_at>\?\)/);
		expect(migration0019).toContain('FROM uploads WHERE member_id = NEW.member_id AND created_at > NEW.created_at - 86400000)');
		expect(migration0019).toContain(
			'WHERE member_id = NEW.member_id AND created_at > NEW.created_at - 86400000 AND post_id IS NULL AND draft_id IS NULL)',
		);
	});

	it('holds the limits under racing uploads: the trigger counts inside each INSERT', async () => {
		const { userId } = await newcomer();
		await plant(userId, UNATTACHED_UPLOADS_MAX - 3, { unattached: true });
		const [rows, objects] = await state();
		const outcomes = await Promise.allSettled(
			Array.from({ length: 8 }, () => storeUpload(env.DB, env.UPLOADS, GLOBAL.id, userId, images.PNG, Date.now())),
		);
		expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(3);
		for (const outcome of outcomes)
			if (outcome.status === 'rejected') expect((outcome.reason as AppError).codeName).toBe('UnattachedUploadLimitReached');
		expect(await state()).toEqual([(rows ?? 0) + 3, (objects ?? 0) + 3]);
	});

	it('lets one member leave at most 60 orphans at once and 100 a day, 20 fresh accounts 2,000: what one cleanup run removes', async () => {
		expect(20 * UPLOADS_PER_DAY).toBeLessThanOrEqual(CLEANUP_BATCH * CLEANUP_MAX_BATCHES);
	});
});

describe('decompression bombs and images per document', () => {
	it.each([
		['PNG', 'png'],
		['JPEG', 'jpeg'],
		['GIF', 'gif'],
		['lossless WebP', 'webp-lossless'],
		['animated WebP', 'webp-animated'],
	] as const)('refuses a %s of 10,000 x 10,000 pixels with -4001444 and stores nothing', async (_name, format) => {
		const before = [await uploadCount(), await objectCount()];
		const answer = await upload(images.withSize(format, 10_000, 10_000), { cookie: await signIn(OTHER_MEMBER) });
		expect({ status: answer.status, code: answer.code }).toEqual({ status: 400, code: -4001444 });
		expect([await uploadCount(), await objectCount()]).toEqual(before);
	});

	it(`refuses a post or draft of more than ${IMAGES_PER_DOCUMENT_MAX} image blocks with -4001445, the same image repeated counted each time, writing nothing`, async () => {
		const cookie = await signIn(OTHER_MEMBER);
		const image = await storedUpload(OTHER_MEMBER);
		const repeated = (times: number) => docShowing(...Array.from({ length: times }, () => image.src));
		const post = (content: ContentDocument) => ({
			boardId: 12,
			subjectId: 121,
			title: 'Gallery',
			content,
			isPrivate: false,
			isNotice: false,
			requestId: crypto.randomUUID(),
		});
		const counts = async () => [
			(await env.DB.prepare('SELECT count(*) AS n FROM posts').first<{ n: number }>())?.n,
			(await env.DB.prepare('SELECT count(*) AS n FROM drafts').first<{ n: number }>())?.n,
			await env.DB.prepare('SELECT post_id, draft_id FROM uploads WHERE r2_key = ?1').bind(image.key).first(),
		];
		const before = await counts();
		for (const times of [IMAGES_PER_DOCUMENT_MAX + 1, 500]) {
			const refusedPost = await call(`${memberApi()}/posts`, { method: 'POST', cookie, body: post(repeated(times)) });
			expect({ status: refusedPost.status, code: refusedPost.code }).toEqual({ status: 400, code: -4001445 });
			const refusedDraft = await call(`${memberApi()}/drafts`, {
				method: 'POST',
				cookie,
				body: { boardId: null, subjectId: null, title: 'Gallery', content: repeated(times) },
			});
			expect({ status: refusedDraft.status, code: refusedDraft.code }).toEqual({ status: 400, code: -4001445 });
		}
		expect(await counts()).toEqual(before);
		// The demo's images count too, and exactly the limit is accepted.
		const demo = docShowing(...Array.from({ length: IMAGES_PER_DOCUMENT_MAX }, () => '/demo/shot-01.svg'), image.src);
		expect((await call(`${memberApi()}/posts`, { method: 'POST', cookie, body: post(demo) })).code).toBe(-4001445);
		expect((await call(`${memberApi()}/posts`, { method: 'POST', cookie, body: post(repeated(IMAGES_PER_DOCUMENT_MAX)) })).code).toBe(0);
	});

	it('refuses the edit of a post to more image blocks than the limit', async () => {
		const cookie = await signIn(OTHER_MEMBER);
		const image = await storedUpload(OTHER_MEMBER);
		const created = await call(`${memberApi()}/posts`, {
			method: 'POST',
			cookie,
			body: {
				boardId: 12,
				subjectId: 121,
				title: 'Edit me',
				content: docShowing(image.src),
				isPrivate: false,
				isNotice: false,
				requestId: crypto.randomUUID(),
			},
		});
		const postId = (created.body['content'] as { postId: number }).postId;
		const edit = await call(`${memberApi()}/posts/${postId}`, {
			method: 'PUT',
			cookie,
			body: {
				boardId: 12,
				subjectId: 121,
				title: 'Edit me',
				content: docShowing(...Array.from({ length: IMAGES_PER_DOCUMENT_MAX + 1 }, () => image.src)),
				isPrivate: false,
				isNotice: false,
				version: 1,
			},
		});
		expect(edit.code).toBe(-4001445);
		expect(await env.DB.prepare('SELECT version FROM posts WHERE id = ?1').bind(postId).first('version')).toBe(1);
	});
});

describe('GET /uploads/{key}', () => {
	async function serve(path: string, init: RequestInit = {}, now = Date.now()) {
		const response = await serveUploadFile(new Request(`${ORIGIN}${path}`, init), env.UPLOADS, now);
		if (!response) throw new Error(`${path} was not answered as an upload`);
		return withSecurityHeaders(response);
	}

	it('serves the stored bytes with the sniffed type and headers that keep it an image', async () => {
		const { src } = await storedUpload(MEMBER, GLOBAL.id, 0, images.GIF_WITH_COMMENT);
		// A day on, past the cleanup's reach: kept for good.
		const response = await serve(src, {}, Date.now() + UNATTACHED_UPLOAD_TTL_MS + HOUR);
		expect(response.status).toBe(200);
		const headers = Object.fromEntries(response.headers);
		expect(headers).toMatchObject({
			'content-type': 'image/gif',
			'x-content-type-options': 'nosniff',
			'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
			'content-disposition': 'inline',
			'cache-control': 'public, max-age=31536000, immutable',
			'strict-transport-security': SECURITY_HEADERS['Strict-Transport-Security'],
			'permissions-policy': SECURITY_HEADERS['Permissions-Policy'],
			'referrer-policy': 'strict-origin-when-cross-origin',
		});
		expect(headers['etag']).toMatch(/^"[0-9a-f]+"$/);
		expect(Object.keys(UPLOAD_HEADERS).every((name) => response.headers.get(name) === UPLOAD_HEADERS[name])).toBe(true);
		const body = new Uint8Array(await response.arrayBuffer());
		expect(body).toEqual(await storedBytes(src));
		expect(images.containsBytes(body, images.SECRETS.comment)).toBe(false);
	});

	it('lets only the browser keep an upload for an hour in its first day, while the cleanup may still remove it', async () => {
		const { src } = await storedUpload(MEMBER);
		const now = Date.now();
		for (const init of [{}, { method: 'HEAD' }]) {
			const young = await serve(src, init, now);
			expect([young.status, young.headers.get('cache-control')]).toEqual([200, YOUNG_UPLOAD_CACHE_CONTROL]);
			expect(YOUNG_UPLOAD_CACHE_CONTROL).toBe('private, max-age=3600');
			// Its uploader previews it in the editor by its URL all the same.
			const old = await serve(src, init, now + UNATTACHED_UPLOAD_TTL_MS + 1000);
			expect(old.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
		}
		const etag = (await serve(src, {}, now)).headers.get('etag') ?? '';
		expect((await serve(src, { headers: { 'if-none-match': etag } }, now)).headers.get('cache-control')).toBe(YOUNG_UPLOAD_CACHE_CONTROL);
	});

	it('answers HEAD with the headers and no body, and a matching If-None-Match with 304', async () => {
		const { src } = await storedUpload(MEMBER);
		const head = await serve(src, { method: 'HEAD' });
		expect(head.status).toBe(200);
		expect(head.headers.get('content-type')).toBe('image/png');
		expect(head.headers.get('content-length')).toBe(String(images.PNG.length));
		expect(await head.text()).toBe('');
		const etag = head.headers.get('etag') ?? '';
		const again = await serve(src, { headers: { 'if-none-match': etag } });
		expect(again.status).toBe(304);
		expect(again.headers.get('etag')).toBe(etag);
		expect(await again.text()).toBe('');
	});

	it.each([
		['an unknown key', '/uploads/AAAAAAAAAAAAAAAAAAAAAA.png'],
		['a key of another extension', '/uploads/AAAAAAAAAAAAAAAAAAAAAA.html'],
		['a path out of the folder', '/uploads/..%2Fsecret'],
		['a short key', '/uploads/abc.png'],
		['nothing', '/uploads/'],
	])('answers %s with 404, briefly cached', async (_name, path) => {
		const response = await serve(path);
		expect(response.status).toBe(404);
		expect(response.headers.get('cache-control')).toBe('public, max-age=60');
		expect(response.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
	});

	it('answers other methods with 405 and leaves other paths alone', async () => {
		const { src } = await storedUpload(MEMBER);
		expect((await serve(src, { method: 'POST' })).status).toBe(405);
		expect(await serveUploadFile(new Request(`${ORIGIN}/uploads`), env.UPLOADS)).toBeNull();
		expect(await serveUploadFile(new Request(`${ORIGIN}/starfall/global/uploads/x.png`), env.UPLOADS)).toBeNull();
	});
});

describe('claims', () => {
	it('lists the uploads a document shows, once each, leaving the demo files out', () => {
		const a = '/uploads/AAAAAAAAAAAAAAAAAAAAAA.png';
		const b = '/uploads/BBBBBBBBBBBBBBBBBBBBBB.jpg';
		expect(uploadKeysOf(docShowing(a, '/demo/shot-01.svg', b, a))).toEqual(['AAAAAAAAAAAAAAAAAAAAAA.png', 'BBBBBBBBBBBBBBBBBBBBBB.jpg']);
	});

	it("lets a member show their own uploads, and refuses another member's, another channel's and unknown ones", async () => {
		const own = await storedUpload(MEMBER);
		const others = await storedUpload(OTHER_MEMBER);
		const korean = await storedUpload(2002, KOREAN.id);
		expect(await refusal(checkUploads(env.DB, GLOBAL.id, MEMBER, [own.key], null))).toBeUndefined();
		expect(await refusal(checkUploads(env.DB, GLOBAL.id, MEMBER, [own.key, others.key], null))).toBe('ImageNotUploaded');
		expect(await refusal(checkUploads(env.DB, GLOBAL.id, MEMBER, [korean.key], null))).toBe('ImageNotUploaded');
		expect(await refusal(checkUploads(env.DB, KOREAN.id, 2002, [own.key], null))).toBe('ImageNotUploaded');
		expect(await refusal(checkUploads(env.DB, GLOBAL.id, MEMBER, ['AAAAAAAAAAAAAAAAAAAAAA.png'], null))).toBe('ImageNotUploaded');
	});

	it("lets an administrator editing someone's post keep that post's images, and no one else's", async () => {
		const postId = await postWhere(`member_id = ${OTHER_MEMBER} AND deleted_at IS NULL`);
		const shown = await storedUpload(OTHER_MEMBER);
		const notShown = await storedUpload(OTHER_MEMBER);
		await env.DB.batch(claimUploadsStatements(env.DB, GLOBAL.id, [shown.key], { postId }));
		expect(await refusal(checkUploads(env.DB, GLOBAL.id, ADMIN, [shown.key], postId))).toBeUndefined();
		expect(await refusal(checkUploads(env.DB, GLOBAL.id, ADMIN, [shown.key, notShown.key], postId))).toBe('ImageNotUploaded');
		expect(await refusal(checkUploads(env.DB, GLOBAL.id, ADMIN, [shown.key], null))).toBe('ImageNotUploaded');
	});

	it('keeps an image the edited post shows even after another post of its author claimed it', async () => {
		const [first, second] = [
			await postWhere(`member_id = ${OTHER_MEMBER} AND deleted_at IS NULL`),
			await postWhere(`member_id = ${OTHER_MEMBER} AND deleted_at IS NULL AND id > 100`),
		];
		const image = await storedUpload(OTHER_MEMBER);
		await env.DB.prepare('UPDATE posts SET content = ?1 WHERE id = ?2')
			.bind(JSON.stringify(docShowing(image.src)), first)
			.run();
		await env.DB.batch([
			...claimUploadsStatements(env.DB, GLOBAL.id, [image.key], { postId: first }),
			...claimUploadsStatements(env.DB, GLOBAL.id, [image.key], { postId: second }),
		]);
		expect(await refusal(checkUploads(env.DB, GLOBAL.id, ADMIN, [image.key], first))).toBeUndefined();
	});

	it(`refuses more than ${MAX_UPLOADS_PER_DOCUMENT} uploaded images in one document`, async () => {
		const keys = Array.from({ length: MAX_UPLOADS_PER_DOCUMENT + 1 }, (_, i) => `${String(i).padStart(22, 'A')}.png`);
		expect(await refusal(checkUploads(env.DB, GLOBAL.id, MEMBER, keys, null))).toBe('TooManyImages');
		expect(() => claimUploadsStatements(env.DB, GLOBAL.id, keys, { postId: 1 })).toThrow(AppError);
	});

	it('claims for a post or a draft just inserted in the same batch, and only in the channel', async () => {
		const [a, b] = [await storedUpload(MEMBER), await storedUpload(MEMBER)];
		const korean = await storedUpload(2002, KOREAN.id);
		const insertDraft = env.DB.prepare(
			"INSERT INTO drafts (channel_id, member_id, title, content, created_at, updated_at) VALUES (?1, ?2, '', '{}', 0, 0)",
		).bind(GLOBAL.id, MEMBER);
		const [, , draft] = await env.DB.batch([
			insertDraft,
			...claimUploadsStatements(env.DB, GLOBAL.id, [a.key, b.key, korean.key], { draftId: 'last-inserted' }),
			env.DB.prepare('SELECT last_insert_rowid() AS id'),
		]);
		const draftId = (draft?.results[0] as { id: number }).id;
		const rows = await env.DB.prepare('SELECT r2_key, draft_id, post_id FROM uploads WHERE r2_key IN (?1, ?2, ?3) ORDER BY id')
			.bind(a.key, b.key, korean.key)
			.all();
		expect(rows.results).toEqual([
			{ r2_key: a.key, draft_id: draftId, post_id: null },
			{ r2_key: b.key, draft_id: draftId, post_id: null },
			{ r2_key: korean.key, draft_id: null, post_id: null },
		]);
		const postId = await postWhere(`member_id = ${MEMBER} AND deleted_at IS NULL`);
		await env.DB.batch(claimUploadsStatements(env.DB, GLOBAL.id, [a.key], { postId }));
		expect(await env.DB.prepare('SELECT post_id FROM uploads WHERE r2_key = ?1').bind(a.key).first('post_id')).toBe(postId);
		// A target that is not a post of the channel (another channel's post, a draft's id) claims nothing.
		const koreanPost = await postWhere('deleted_at IS NULL', KOREAN.id);
		const koreanDraft = env.DB.prepare(
			"INSERT INTO drafts (channel_id, member_id, title, content, created_at, updated_at) VALUES (?1, 2002, '', '{}', 0, 0)",
		).bind(KOREAN.id);
		await env.DB.batch([
			...claimUploadsStatements(env.DB, GLOBAL.id, [b.key], { postId: koreanPost }),
			koreanDraft,
			...claimUploadsStatements(env.DB, GLOBAL.id, [b.key], { draftId: 'last-inserted' }),
		]);
		expect(await env.DB.prepare('SELECT post_id, draft_id FROM uploads WHERE r2_key = ?1').bind(b.key).first()).toEqual({
			post_id: null,
			draft_id: draftId,
		});
	});

	it('writes one row per claimed upload', async () => {
		const uploads = await Promise.all(Array.from({ length: 10 }, () => storedUpload(MEMBER)));
		const postId = await postWhere(`member_id = ${MEMBER} AND deleted_at IS NULL`);
		const { db, statements } = recordingDb();
		await db.batch(
			claimUploadsStatements(
				db,
				GLOBAL.id,
				uploads.map((upload) => upload.key),
				{ postId },
			),
		);
		// One row per claimed upload, whatever the size of the community (at most MAX_UPLOADS_PER_DOCUMENT).
		expect(statements.reduce((sum, statement) => sum + statement.rowsWritten, 0)).toBeLessThanOrEqual(10);
		expect(claimUploadsStatements(db, GLOBAL.id, [], { postId })).toEqual([]);
		// The check before it and the claim find the uploads by key, never by a scan.
		await checkUploads(
			db,
			GLOBAL.id,
			MEMBER,
			uploads.map((upload) => upload.key),
			null,
		);
		for (const statement of statements) expect((await queryPlan(statement)).filter((detail) => /^SCAN uploads/.test(detail))).toEqual([]);
	});

	it('releases the uploads a draft kept when the draft is deleted', async () => {
		const upload = await storedUpload(MEMBER);
		const draft = await env.DB.prepare(
			"INSERT INTO drafts (channel_id, member_id, title, content, created_at, updated_at) VALUES (?1, ?2, '', '{}', 0, 0) RETURNING id",
		)
			.bind(GLOBAL.id, MEMBER)
			.first<{ id: number }>();
		await env.DB.batch(claimUploadsStatements(env.DB, GLOBAL.id, [upload.key], { draftId: draft?.id ?? 0 }));
		expect(await env.DB.prepare('SELECT draft_id FROM uploads WHERE r2_key = ?1').bind(upload.key).first('draft_id')).toBe(draft?.id);
		await env.DB.prepare('DELETE FROM drafts WHERE id = ?1').bind(draft?.id).run();
		expect(await env.DB.prepare('SELECT draft_id FROM uploads WHERE r2_key = ?1').bind(upload.key).first('draft_id')).toBeNull();
	});
});

describe('the scheduled cleanup', () => {
	// The Worker's entry loads Astro's handler, which only a build provides, so the tests call the
	// handler it exports as `scheduled` and check the wiring from the sources.
	it('runs hourly from a Cron Trigger of wrangler.toml, as the scheduled handler of the Worker', () => {
		// Beside the daily backup's own trigger (tests/workers/backup.test.ts).
		expect((parse(wranglerToml) as { triggers?: { crons?: string[] } }).triggers?.crons).toEqual(['17 * * * *', BACKUP_CRON]);
		expect(workerSource).toMatch(/^\tscheduled: runScheduled,$/m);
	});

	it('removes old unattached uploads (object and row) while keeping attached, draft-kept and recent ones', async () => {
		const old = UNATTACHED_UPLOAD_TTL_MS + HOUR;
		const unattached = await storedUpload(MEMBER, GLOBAL.id, old);
		const attached = await storedUpload(MEMBER, GLOBAL.id, old);
		const kept = await storedUpload(MEMBER, GLOBAL.id, old);
		const released = await storedUpload(MEMBER, GLOBAL.id, old);
		const recent = await storedUpload(MEMBER, GLOBAL.id, UNATTACHED_UPLOAD_TTL_MS - HOUR);
		const postId = await postWhere(`member_id = ${MEMBER} AND deleted_at IS NULL`);
		const insertDraft =
			"INSERT INTO drafts (channel_id, member_id, title, content, created_at, updated_at) VALUES (?1, ?2, '', '{}', 0, 0) RETURNING id";
		const keeper = await env.DB.prepare(insertDraft).bind(GLOBAL.id, MEMBER).first<{ id: number }>();
		const deleted = await env.DB.prepare(insertDraft).bind(GLOBAL.id, MEMBER).first<{ id: number }>();
		await env.DB.batch([
			...claimUploadsStatements(env.DB, GLOBAL.id, [attached.key], { postId }),
			...claimUploadsStatements(env.DB, GLOBAL.id, [kept.key], { draftId: keeper?.id ?? 0 }),
			...claimUploadsStatements(env.DB, GLOBAL.id, [released.key], { draftId: deleted?.id ?? 0 }),
		]);
		await env.DB.prepare('DELETE FROM drafts WHERE id = ?1').bind(deleted?.id).run();

		const ctx = createExecutionContext();
		await runScheduled(createScheduledController({ scheduledTime: Date.now(), cron: '17 * * * *' }), env, ctx);
		await waitOnExecutionContext(ctx);

		const left = async (key: string) => [
			(await env.DB.prepare('SELECT COUNT(*) AS n FROM uploads WHERE r2_key = ?1').bind(key).first<{ n: number }>())?.n,
			(await env.UPLOADS.head(key)) !== null,
		];
		expect(await left(unattached.key)).toEqual([0, false]);
		expect(await left(released.key)).toEqual([0, false]);
		expect(await left(attached.key)).toEqual([1, true]);
		expect(await left(kept.key)).toEqual([1, true]);
		expect(await left(recent.key)).toEqual([1, true]);
	});

	/**
	 * Plants `count` old unattached uploads of MEMBER (object and row), oldest first, a day and a
	 * millisecond apart as the quota lets one member leave them. With `objectsOf`, only those uploads
	 * (by index) get an object: the rest are rows whose object the test never looks at (a local R2 put
	 * costs about 15 ms; R2 deletes a missing key as it deletes one that is there).
	 */
	async function plantOrphans(prefix: string, count: number, now: number, objectsOf?: number[]): Promise<string[]> {
		const keys = Array.from({ length: count }, (_, i) => `${prefix}${String(i).padStart(22 - prefix.length, '0')}.png`);
		const statements = keys.map((key, i) =>
			env.DB.prepare(
				"INSERT INTO uploads (channel_id, member_id, r2_key, content_type, size, created_at) VALUES (1, ?1, ?2, 'image/png', 1, ?3)",
			).bind(MEMBER, key, now - 2 * UNATTACHED_UPLOAD_TTL_MS - (count - i) * (UNATTACHED_UPLOAD_TTL_MS + 1)),
		);
		for (const [i, key] of keys.entries()) if (objectsOf?.includes(i) ?? true) await env.UPLOADS.put(key, images.PNG);
		for (let i = 0; i < statements.length; i += 100) await env.DB.batch(statements.slice(i, i + 100));
		return keys;
	}

	const orphansLeft = async (prefix: string) =>
		(
			await env.DB.prepare('SELECT r2_key FROM uploads WHERE r2_key LIKE ?1 ORDER BY created_at').bind(`${prefix}%`).all<{ r2_key: string }>()
		).results.map((row) => row.r2_key);

	it(`removes ${CLEANUP_BATCH} uploads a step, oldest first, reading only those through its index (keyset, no sort)`, async () => {
		const now = Date.now();
		const keys = await plantOrphans('cleanup', CLEANUP_BATCH + 5, now, [0]);
		const { db, statements: recorded } = recordingDb();
		expect(await removeUnattachedUploads(db, env.UPLOADS, now, { maxBatches: 1 })).toEqual({ removed: CLEANUP_BATCH, batches: 1, done: false });
		const select = recorded[0];
		if (!select) throw new Error('no statement recorded');
		expect(select.rowsRead).toBeLessThanOrEqual(CLEANUP_BATCH);
		const plan = (await queryPlan(select)).join('\n');
		expect(plan).toContain('uploads_unattached');
		expect(plan).not.toContain('TEMP B-TREE');
		// The newest five are left for the next step.
		expect(await orphansLeft('cleanup')).toEqual(keys.slice(CLEANUP_BATCH));
		expect(await env.UPLOADS.head(keys[0]!)).toBeNull();
		expect(await removeUnattachedUploads(env.DB, env.UPLOADS, now)).toEqual({ removed: 5, batches: 1, done: true });
		expect(await removeUnattachedUploads(env.DB, env.UPLOADS, now)).toEqual({ removed: 0, batches: 0, done: true });
	});

	// 407 rows: three steps in one run. The run's wall-time budget reads a clock that stands still here,
	// so only its budget of steps bounds it, whatever the machine's speed (a loaded machine once spent
	// the real 20 s before the third step); the scheduled handler's own run is the test above.
	it(`drains more than one step in one run, within its budget of ${CLEANUP_MAX_BATCHES} steps`, async () => {
		expect([CLEANUP_BATCH, CLEANUP_MAX_BATCHES, CLEANUP_TIME_BUDGET_MS]).toEqual([200, 10, 20_000]);
		const now = Date.now();
		const count = 2 * CLEANUP_BATCH + 7;
		const checked = [0, CLEANUP_BATCH, count - 1];
		const keys = await plantOrphans('drain', count, now, checked);
		expect(await removeUnattachedUploads(env.DB, env.UPLOADS, now, { clock: () => now })).toEqual({ removed: count, batches: 3, done: true });
		expect(await orphansLeft('drain')).toEqual([]);
		for (const i of checked) expect(await env.UPLOADS.head(keys[i]!)).toBeNull();
	});

	it('stops at its budget of steps or of wall time, and the next run goes on where it stopped', async () => {
		const now = Date.now();
		const keys = await plantOrphans('budget', 35, now);
		// Steps of 10: a budget of 2 steps removes the oldest 20.
		expect(await removeUnattachedUploads(env.DB, env.UPLOADS, now, { batchSize: 10, maxBatches: 2 })).toEqual({
			removed: 20,
			batches: 2,
			done: false,
		});
		expect(await orphansLeft('budget')).toEqual(keys.slice(20));
		// A clock that says a second passes per reading: a 2.5-second budget allows the steps begun before it ran out.
		let tick = 0;
		const clock = () => (tick += 1000);
		expect(await removeUnattachedUploads(env.DB, env.UPLOADS, now, { batchSize: 5, timeBudgetMs: 2500, clock })).toEqual({
			removed: 10,
			batches: 2,
			done: false,
		});
		expect(await orphansLeft('budget')).toEqual(keys.slice(30));
		expect(await removeUnattachedUploads(env.DB, env.UPLOADS, now, { batchSize: 10 })).toEqual({ removed: 5, batches: 1, done: true });
	});

	it("reads only each step's own candidates, after the last one seen (keyset, not OFFSET)", async () => {
		const now = Date.now();
		const keys = await plantOrphans('keyset', 6, now);
		const { db, statements } = recordingDb();
		expect(await removeUnattachedUploads(db, env.UPLOADS, now, { batchSize: 2, maxBatches: 3 })).toEqual({ removed: 6, batches: 3, done: false });
		const selects = statements.filter((statement) => statement.sql.startsWith('SELECT'));
		expect(selects).toHaveLength(3);
		for (const select of selects) expect(select.rowsRead).toBeLessThanOrEqual(2);
		expect(await orphansLeft('keyset')).toEqual([]);
		for (const key of keys) expect(await env.UPLOADS.head(key)).toBeNull();
	});
});

/**
 * Thumbnails of media posts (docs/reference/thumbnails.md) inside workerd, on the real
 * local D1 and R2: the route that links an upload's small variant to it, everything it refuses (and
 * that a refusal writes nothing), the rows it writes, the thumbnail a post's list row then shows, and
 * the cleanup taking the variant with its upload.
 */
import { describe, expect, it } from 'vitest';
import { env } from 'cloudflare:workers';
import { api } from '@functions/api/app';
import { uploadKeyOf, type ContentDocument } from '@/schemas/content';
import { removeUnattachedUploads, storeThumbnail, UNATTACHED_UPLOAD_TTL_MS } from '@/server/uploads/uploads';
import { AppError } from '@/server/platform/errors';
import { THUMBNAIL_MAX_BYTES } from '@/lib/thumbnails';
import { call, GLOBAL, KOREAN, memberApi, ORIGIN, publicApi, recordingDb, signIn } from './harness';
import * as images from '../fixtures/images';
import { objectCount, storedUpload } from './upload-helpers';

const MEMBER = 1004;
const OTHER_MEMBER = 1005;
const WRITER = 1006;
const KOREAN_MEMBER = 2004;

interface Answer {
	status: number;
	code: number;
	content: { src: string; width: number; height: number; size: number } | undefined;
}

/** POSTs `body` as the thumbnail of the upload `key`, as the editor does (raw bytes). */
async function sendThumbnail(
	key: string,
	body: BodyInit | null,
	{ cookie, headers = {} }: { cookie?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
	const response = await api.request(`${memberApi()}/uploads/${key}/thumbnail`, {
		method: 'POST',
		headers: {
			origin: ORIGIN,
			'content-type': 'image/webp',
			'cf-connecting-ip': `thumbnails:${expect.getState().currentTestName}`,
			...(cookie ? { cookie } : {}),
			...headers,
		},
		body,
		...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
	} as RequestInit);
	const json = (await response.json()) as { header: { resultCode: number }; content?: Answer['content'] };
	return { status: response.status, code: json.header.resultCode, content: json.content };
}

async function thumbKeyOf(key: string): Promise<string | null> {
	return env.DB.prepare('SELECT thumb_key FROM uploads WHERE r2_key = ?1').bind(key).first<string | null>('thumb_key');
}

async function refusal(promise: Promise<unknown>): Promise<string | undefined> {
	try {
		await promise;
		return undefined;
	} catch (error) {
		return error instanceof AppError ? error.codeName : String(error);
	}
}

describe('POST uploads/{key}/thumbnail', () => {
	it.each([
		['a lossy WebP', images.WEBP_LOSSY, 'webp'],
		['a JPEG', images.JPEG, 'jpg'],
	])("stores %s of the member's own upload under a key of its own and links it to the upload", async (_name, bytes, extension) => {
		const upload = await storedUpload(MEMBER);
		const answer = await sendThumbnail(upload.key, bytes, { cookie: await signIn(MEMBER) });
		expect({ status: answer.status, code: answer.code }).toEqual({ status: 200, code: 0 });
		expect(answer.content).toMatchObject({ width: images.WIDTH, height: images.HEIGHT });
		expect(answer.content?.src).toMatch(new RegExp(`^/uploads/[A-Za-z0-9_-]{22}\\.${extension}$`));
		const thumbKey = uploadKeyOf(answer.content?.src ?? '');
		expect(thumbKey).not.toBe(upload.key);
		expect(await thumbKeyOf(upload.key)).toBe(thumbKey);
		const object = await env.UPLOADS.head(thumbKey ?? '');
		expect(object?.size).toBe(answer.content?.size);
		expect(object?.size).toBeLessThanOrEqual(THUMBNAIL_MAX_BYTES);
		expect(object?.httpMetadata?.contentType).toBe(`image/${extension === 'jpg' ? 'jpeg' : extension}`);
	});

	it.each([
		['a PNG (not a thumbnail type)', images.PNG],
		['a GIF', images.GIF],
		['a WebP 321 px wide', images.withSize('webp-lossy', 321, 20)],
		['a JPEG 321 px tall', images.withSize('jpeg', 20, 321)],
		['a 10,000 px bomb', images.withSize('jpeg', 10_000, 10_000)],
		['HTML', images.HTML_AS_PNG],
		['a truncated JPEG', images.JPEG.subarray(0, images.JPEG.length - 2)],
		['an empty body', new Uint8Array(0)],
	])('refuses %s with -4001446 and writes nothing', async (_name, bytes) => {
		const upload = await storedUpload(MEMBER);
		const objects = await objectCount();
		const answer = await sendThumbnail(upload.key, bytes, { cookie: await signIn(MEMBER) });
		expect({ status: answer.status, code: answer.code }).toEqual({ status: 400, code: -4001446 });
		expect([await thumbKeyOf(upload.key), await objectCount()]).toEqual([null, objects]);
	});

	it('refuses more than 64 KB with -4131442 by its Content-Length, and while reading a body without one', async () => {
		const upload = await storedUpload(MEMBER);
		const cookie = await signIn(MEMBER);
		const padded = new Uint8Array(THUMBNAIL_MAX_BYTES + 1);
		padded.set(images.WEBP_LOSSY);
		const answer = await sendThumbnail(upload.key, padded, { cookie });
		expect({ status: answer.status, code: answer.code }).toEqual({ status: 413, code: -4131442 });
		const stream = new ReadableStream<Uint8Array>({
			pull(controller) {
				controller.enqueue(new Uint8Array(16 * 1024));
			},
		});
		const streamed = await sendThumbnail(upload.key, stream, { cookie });
		expect({ status: streamed.status, code: streamed.code }).toEqual({ status: 413, code: -4131442 });
		expect(await thumbKeyOf(upload.key)).toBeNull();
		// Exactly the limit passes as far as the size goes (stored without the trailing bytes).
		const exact = new Uint8Array(THUMBNAIL_MAX_BYTES);
		exact.set(images.WEBP_LOSSY);
		expect((await sendThumbnail(upload.key, exact, { cookie })).code).toBe(0);
	});

	it("refuses someone else's upload, another community's, an unknown or malformed key and a thumbnail's own key with -4041410, writing nothing", async () => {
		const others = await storedUpload(OTHER_MEMBER);
		const korean = await storedUpload(KOREAN_MEMBER, KOREAN.id);
		const own = await storedUpload(MEMBER);
		const cookie = await signIn(MEMBER);
		const linked = await sendThumbnail(own.key, images.WEBP_LOSSY, { cookie });
		const objects = await objectCount();
		for (const key of [
			others.key,
			korean.key,
			'AAAAAAAAAAAAAAAAAAAAAA.png',
			'not-a-key',
			'..%2Fescape',
			uploadKeyOf(linked.content?.src ?? '') ?? '',
		]) {
			const answer = await sendThumbnail(key, images.WEBP_LOSSY, { cookie });
			expect({ key, status: answer.status, code: answer.code }).toEqual({ key, status: 404, code: -4041410 });
		}
		expect([await thumbKeyOf(others.key), await thumbKeyOf(korean.key), await objectCount()]).toEqual([null, null, objects]);
	});

	it('gives an upload one thumbnail: a second one, or racing ones, are refused with -4091443 and store no object', async () => {
		const upload = await storedUpload(MEMBER);
		const cookie = await signIn(MEMBER);
		const racing = await Promise.all([sendThumbnail(upload.key, images.WEBP_LOSSY, { cookie }), sendThumbnail(upload.key, images.JPEG, { cookie })]);
		expect(racing.map((answer) => answer.code).sort()).toEqual([-4091443, 0]);
		const objects = await objectCount();
		const again = await sendThumbnail(upload.key, images.WEBP_LOSSY, { cookie });
		expect({ status: again.status, code: again.code }).toEqual({ status: 409, code: -4091443 });
		expect(await objectCount()).toBe(objects);
		expect(await thumbKeyOf(upload.key)).toBe(uploadKeyOf(racing.find((answer) => answer.code === 0)?.content?.src ?? ''));
	});

	it('asks a guest to log in, refuses another site and other methods, in the envelope', async () => {
		const upload = await storedUpload(MEMBER);
		expect((await sendThumbnail(upload.key, images.WEBP_LOSSY)).code).toBe(-4011401);
		expect(
			(await sendThumbnail(upload.key, images.WEBP_LOSSY, { cookie: await signIn(MEMBER), headers: { origin: 'https://evil.example' } })).code,
		).toBe(-4031401);
		const response = await api.request(`${memberApi()}/uploads/${upload.key}/thumbnail`, {
			method: 'PUT',
			headers: { origin: ORIGIN, cookie: await signIn(MEMBER) },
		});
		expect(response.status).toBe(405);
		expect(await thumbKeyOf(upload.key)).toBeNull();
	});

	it("writes one row (the upload's, no index) and one object of at most 64 KB per upload: 100 uploads a day bound a member to 6.4 MB of thumbnails", async () => {
		const upload = await storedUpload(MEMBER);
		const { db, statements } = recordingDb();
		await storeThumbnail(db, env.UPLOADS, GLOBAL.id, MEMBER, upload.key, images.WEBP_LOSSY);
		expect(statements.map((statement) => statement.sql.split(' ')[0])).toEqual(['UPDATE']);
		expect(statements.reduce((sum, statement) => sum + statement.rowsWritten, 0)).toBe(1);
		// The lookup is by the upload's unique key: one row read, however many uploads there are.
		expect(statements.reduce((sum, statement) => sum + statement.rowsRead, 0)).toBeLessThanOrEqual(2);
		// A refusal (the second thumbnail) writes nothing.
		const refused = recordingDb();
		expect(await refusal(storeThumbnail(refused.db, env.UPLOADS, GLOBAL.id, MEMBER, upload.key, images.WEBP_LOSSY))).toBe('ThumbnailExists');
		expect(refused.statements.reduce((sum, statement) => sum + statement.rowsWritten, 0)).toBe(0);
	});
});

describe("a post's thumbnail", () => {
	const fields = (content: ContentDocument) => ({ boardId: 12, subjectId: 121, title: 'Screenshots', content, isPrivate: false, isNotice: false });
	const post = (content: ContentDocument) => ({ ...fields(content), requestId: crypto.randomUUID() });
	const image = (src: string) => ({ type: 'image' as const, src, alt: '' });
	const doc = (...blocks: ContentDocument['blocks']): ContentDocument => ({
		type: 'doc',
		blocks: [{ type: 'paragraph', children: [{ text: 'Look' }] }, ...blocks],
	});

	async function listed(postId: number): Promise<{ thumbnail: string | null; hasImage: boolean; hasVideo: boolean } | undefined> {
		const answer = await call(`${publicApi()}/posts?boardId=12`);
		return (answer.body['content'] as { posts: { postId: number; thumbnail: string | null; hasImage: boolean; hasVideo: boolean }[] }).posts.find(
			(row) => row.postId === postId,
		);
	}

	it("is the first image's small variant (an image without one passed over), or the first video's poster, and changes with an edit", async () => {
		const cookie = await signIn(WRITER);
		const without = await storedUpload(WRITER);
		const withThumb = await storedUpload(WRITER);
		const thumb = await sendThumbnail(withThumb.key, images.WEBP_LOSSY, { cookie });
		const created = await call(`${memberApi()}/posts`, {
			method: 'POST',
			cookie,
			body: post(doc(image(without.src), image(withThumb.src), { type: 'youtube', videoId: 'dQw4w9WgXcQ' })),
		});
		expect(created.code).toBe(0);
		const postId = (created.body['content'] as { postId: number }).postId;
		expect(await listed(postId)).toMatchObject({ thumbnail: thumb.content?.src, hasImage: true, hasVideo: true });

		// An edit that puts the video first shows its poster.
		const edited = await call(`${memberApi()}/posts/${postId}`, {
			method: 'PUT',
			cookie,
			body: { ...fields(doc({ type: 'youtube', videoId: 'dQw4w9WgXcQ' }, image(withThumb.src))), version: 1 },
		});
		expect(edited.code).toBe(0);
		expect(await listed(postId)).toMatchObject({ thumbnail: 'https://i.ytimg.com/vi/dQw4w9WgXcQ/mqdefault.jpg' });

		// Text only: no thumbnail, no marks.
		expect((await call(`${memberApi()}/posts/${postId}`, { method: 'PUT', cookie, body: { ...fields(doc()), version: 2 } })).code).toBe(0);
		expect(await listed(postId)).toMatchObject({ thumbnail: null, hasImage: false, hasVideo: false });
	});

	it('moves the lists in the edge cache when an edit changes it, and only then', async () => {
		const cookie = await signIn(WRITER);
		const without = await storedUpload(WRITER);
		const withThumb = await storedUpload(WRITER);
		await sendThumbnail(withThumb.key, images.WEBP_LOSSY, { cookie });
		const created = await call(`${memberApi()}/posts`, { method: 'POST', cookie, body: post(doc(image(without.src))) });
		const postId = (created.body['content'] as { postId: number }).postId;
		// The versions of the board's list and All Posts (search results, which show text, move with any edit).
		const lists = async () => {
			const versions = JSON.parse(
				(await env.DB.prepare('SELECT list_versions FROM channels WHERE id = ?1').bind(GLOBAL.id).first<string>('list_versions')) ?? '{}',
			) as Record<string, number>;
			return { board: versions['b12'], all: versions['all'] };
		};
		// Same title, board and marks; only the picture the row shows changes.
		const before = await lists();
		expect(
			(await call(`${memberApi()}/posts/${postId}`, { method: 'PUT', cookie, body: { ...fields(doc(image(withThumb.src))), version: 1 } })).code,
		).toBe(0);
		const changed = await lists();
		expect(changed).toEqual({ board: (before.board ?? 0) + 1, all: (before.all ?? 0) + 1 });
		// The same picture with other words: the lists stay as they were.
		const body = doc(image(withThumb.src));
		body.blocks.push({ type: 'paragraph', children: [{ text: 'More words' }] });
		expect((await call(`${memberApi()}/posts/${postId}`, { method: 'PUT', cookie, body: { ...fields(body), version: 2 } })).code).toBe(0);
		expect(await lists()).toEqual(changed);
	});

	it("of a post showing only images without a variant (or the demo's) is none, or the demo image itself", async () => {
		const cookie = await signIn(WRITER);
		const without = await storedUpload(WRITER);
		const plain = await call(`${memberApi()}/posts`, { method: 'POST', cookie, body: post(doc(image(without.src))) });
		expect(await listed((plain.body['content'] as { postId: number }).postId)).toMatchObject({ thumbnail: null, hasImage: true });
		const demo = await call(`${memberApi()}/posts`, { method: 'POST', cookie, body: post(doc(image('/demo/shot-03.svg'))) });
		expect(await listed((demo.body['content'] as { postId: number }).postId)).toMatchObject({ thumbnail: '/demo/shot-03.svg' });
	});

	it("can never be another member's thumbnail: their upload is refused in the post, and the thumbnail route refuses their upload", async () => {
		const owner = await storedUpload(OTHER_MEMBER);
		await sendThumbnail(owner.key, images.WEBP_LOSSY, { cookie: await signIn(OTHER_MEMBER) });
		const cookie = await signIn(WRITER);
		const stolen = await call(`${memberApi()}/posts`, { method: 'POST', cookie, body: post(doc(image(owner.src))) });
		expect(stolen.code).toBe(-4001442);
		expect((await sendThumbnail(owner.key, images.JPEG, { cookie })).code).toBe(-4041410);
	});
});

describe('the cleanup', () => {
	it("removes an unattached upload's thumbnail with it, and keeps an attached one's", async () => {
		const cookie = await signIn(OTHER_MEMBER);
		const old = await storedUpload(OTHER_MEMBER, GLOBAL.id, UNATTACHED_UPLOAD_TTL_MS + 60_000);
		const oldThumb = uploadKeyOf((await sendThumbnail(old.key, images.WEBP_LOSSY, { cookie })).content?.src ?? '') ?? '';
		const kept = await storedUpload(OTHER_MEMBER, GLOBAL.id, UNATTACHED_UPLOAD_TTL_MS + 60_000);
		const keptThumb = uploadKeyOf((await sendThumbnail(kept.key, images.WEBP_LOSSY, { cookie })).content?.src ?? '') ?? '';
		await env.DB.prepare('UPDATE uploads SET post_id = (SELECT min(id) FROM posts WHERE channel_id = ?1) WHERE r2_key = ?2')
			.bind(GLOBAL.id, kept.key)
			.run();
		expect(await env.UPLOADS.head(oldThumb)).not.toBeNull();
		await removeUnattachedUploads(env.DB, env.UPLOADS, Date.now());
		expect([await env.UPLOADS.head(old.key), await env.UPLOADS.head(oldThumb)]).toEqual([null, null]);
		expect(await env.UPLOADS.head(keptThumb)).not.toBeNull();
		expect(await thumbKeyOf(kept.key)).toBe(keptThumb);
	});
});

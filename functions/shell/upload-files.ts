/**
 * GET and HEAD /uploads/{key}: the uploaded images, answered by the Worker before the edge cache
 * and Astro (functions/shell/worker.ts). The bytes come from R2 with the type sniffed when they were
 * stored; the headers keep a browser from reading them as anything but that image (nosniff, a
 * sandboxing policy that lets nothing load or run even if the file is opened on its own; only
 * inline styles, which the browser's own image viewer uses, and no script can run in a sandbox
 * without allow-scripts) and let it keep them for good, since a key never changes its bytes, once
 * the cleanup can no longer remove them.
 *
 * An upload is served to whoever has its key: until a post shows it, only its uploader does (128
 * random bits), and the editor previews it from its URL. During its first day, while it may still
 * be an orphan the scheduled cleanup removes, it is kept only by the browser and for an hour
 * (YOUNG_UPLOAD_CACHE_CONTROL), so that a removed orphan does not live on in shared caches or for
 * a year; after that day it is an image a post or draft shows, and is kept for good.
 */
import { readUpload, UNATTACHED_UPLOAD_TTL_MS } from '@/server/uploads/uploads';
import { requestUrl } from '@/server/platform/request-url';

const PREFIX = '/uploads/';

/** The headers of every upload answered. */
export const UPLOAD_HEADERS: Readonly<Record<string, string>> = {
	'X-Content-Type-Options': 'nosniff',
	'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
	'Content-Disposition': 'inline',
	'Cache-Control': 'public, max-age=31536000, immutable',
};

/** The caching of an upload in its first day, when the cleanup may still remove it. */
export const YOUNG_UPLOAD_CACHE_CONTROL = 'private, max-age=3600';

/** A key that is malformed or unknown: briefly cached, since a key never comes into being later. */
const NOT_FOUND_CACHE_CONTROL = 'public, max-age=60';

function notFound(): Response {
	return new Response('Not found.', {
		status: 404,
		headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': NOT_FOUND_CACHE_CONTROL },
	});
}

/** The answer to a request under /uploads/ at `now`, or null for any other path. */
export async function serveUploadFile(request: Request, bucket: R2Bucket, now = Date.now()): Promise<Response | null> {
	const { pathname } = requestUrl(request);
	if (!pathname.startsWith(PREFIX)) return null;
	if (request.method !== 'GET' && request.method !== 'HEAD') {
		return new Response('Method not allowed.', { status: 405, headers: { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' } });
	}
	const ifNoneMatch = request.headers.get('If-None-Match');
	const file = await readUpload(bucket, pathname.slice(PREFIX.length), { head: request.method === 'HEAD', ifNoneMatch });
	if (!file) return notFound();
	const headers = new Headers({ ...UPLOAD_HEADERS, 'Content-Type': file.contentType, ETag: file.etag });
	if (now - file.uploadedAt < UNATTACHED_UPLOAD_TTL_MS) headers.set('Cache-Control', YOUNG_UPLOAD_CACHE_CONTROL);
	if (request.method === 'GET' && file.body === null) return new Response(null, { status: 304, headers });
	headers.set('Content-Length', String(file.size));
	return new Response(request.method === 'HEAD' ? null : file.body, { status: 200, headers });
}

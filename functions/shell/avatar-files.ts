/**
 * GET and HEAD /{domain}/{slug}/avatars/{memberId}?s=96|256: a member's avatar by its stable URL
 * (docs/reference/avatars.md), answered by the Worker before the edge cache and Astro, like the
 * uploads (functions/shell/upload-files.ts) and with their headers. The member's picture from R2 when
 * they set one, else their generated pattern (src/lib/avatars.ts): one R2 read, never D1. Both are
 * kept AVATAR_MAX_AGE seconds by browsers and shared caches, so a change (or a removal) shows
 * everywhere within a minute while no page that embeds the URL changes; a picture's ETag lets a
 * browser revalidate it for a 304.
 */
import { AVATAR_MAX_AGE, generatedAvatarSvg, isAvatarSize } from '@/lib/avatars';
import { readAvatar } from '@/server/members/avatars';
import { DomainSchema } from '@/schemas/params';
import { UPLOAD_HEADERS } from './upload-files';
import { requestUrl } from '@/server/platform/request-url';

/** The path of an avatar: the community's domain and slug, then the member's id. */
const AVATAR_PATH = /^\/([a-z0-9][a-z0-9.-]{0,62})\/([a-z0-9][a-z0-9.-]{0,62})\/avatars\/([1-9]\d{0,15})$/;

/** The caching of every avatar answered, the picture's and the generated one. */
export const AVATAR_CACHE_CONTROL = `public, max-age=${AVATAR_MAX_AGE}`;

function plain(status: number, text: string, headers: Record<string, string> = {}): Response {
	return new Response(text, { status, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'public, max-age=60', ...headers } });
}

/** The answer to a request for an avatar, or null for any other path. */
export async function serveAvatarFile(request: Request, bucket: R2Bucket): Promise<Response | null> {
	const url = requestUrl(request);
	const match = AVATAR_PATH.exec(url.pathname);
	if (!match || !DomainSchema.safeParse(match[1]).success) return null;
	if (request.method !== 'GET' && request.method !== 'HEAD') return plain(405, 'Method not allowed.', { Allow: 'GET, HEAD' });
	const sizeText = url.searchParams.get('s') ?? '96';
	const size = Number(sizeText);
	if (!/^\d+$/.test(sizeText) || !isAvatarSize(size) || [...url.searchParams.keys()].some((name) => name !== 's')) return plain(404, 'Not found.');
	const [, domain, slug, memberText] = match as unknown as [string, string, string, string];
	const stored = await readAvatar(bucket, { domain, slug }, Number(memberText), size, request.headers.get('If-None-Match'));
	const headers = new Headers({ ...UPLOAD_HEADERS, 'Cache-Control': AVATAR_CACHE_CONTROL });
	if (!stored) {
		const svg = generatedAvatarSvg(Number(memberText));
		headers.set('Content-Type', 'image/svg+xml');
		headers.set('Content-Length', String(new TextEncoder().encode(svg).length));
		return new Response(request.method === 'HEAD' ? null : svg, { status: 200, headers });
	}
	headers.set('Content-Type', stored.contentType);
	headers.set('ETag', stored.etag);
	if (request.method === 'GET' && stored.body === null) return new Response(null, { status: 304, headers });
	headers.set('Content-Length', String(stored.size));
	return new Response(request.method === 'HEAD' ? null : stored.body, { status: 200, headers });
}

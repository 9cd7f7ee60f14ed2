/**
 * A request's URL, parsed once per Request: the Worker's steps before an answer (the D1 session's
 * kind and bookmark, the session cookie, the upload and avatar paths, the edge cache, a member's
 * page) each read it, and each parse cost its own CPU (docs/decisions/performance.md). Read only:
 * every caller of one request shares the object; one that changes a URL makes its own.
 */
const parsed = new WeakMap<Request, Readonly<URL>>();

export function requestUrl(request: Request): Readonly<URL> {
	let url = parsed.get(request);
	if (url === undefined) {
		url = new URL(request.url);
		parsed.set(request, url);
	}
	return url;
}

/**
 * The Worker's last wall: an exception that nothing else caught (R2 or D1 failing before the API
 * or a page could answer, a fault in the edge cache) is logged and answered the way the API and
 * the pages answer their own failures, never cached and with the security headers, instead of the
 * platform's bare error page. The API's paths get the Internal envelope (-5001500); everything
 * else a page saying 'Something went wrong' / 'Please try again' (docs/reference/product-rules.md#errors-and-texts) with a Retry link.
 */
import { ResultCodes } from '@/server/platform/errors';
import { failure } from '@/server/platform/envelope';
import { escapeHtml } from '@/server/posts/content-html';
import { translator } from '@/i18n';
import { withSecurityHeaders } from './security-headers';

const API_PREFIXES = ['/v1/', '/public/v1/', '/admin/v1/'];

/** The answer to `request` when handling it threw `error`. */
function unexpectedFailure(request: Request, error: unknown): Response {
	const url = new URL(request.url);
	console.error('Unhandled Worker error', request.method, url.pathname, error);
	const def = ResultCodes.Internal;
	const headers = { 'Cache-Control': 'no-store' };
	if (API_PREFIXES.some((prefix) => url.pathname.startsWith(prefix))) {
		return withSecurityHeaders(Response.json(failure(def.code, def.message), { status: def.status, headers }));
	}
	const t = translator('en');
	const title = escapeHtml(t('error.generic.title'));
	const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${title}</title></head><body><main><h1>${title}</h1><p>${escapeHtml(t('error.generic.desc'))}</p><p><a href="${escapeHtml(url.pathname + url.search)}">${escapeHtml(t('common.button.retry'))}</a></p></main></body></html>`;
	return withSecurityHeaders(new Response(page, { status: def.status, headers: { ...headers, 'Content-Type': 'text/html; charset=utf-8' } }));
}

/** Runs `answer`, turning anything it throws into `unexpectedFailure`. */
export async function guarded(request: Request, answer: () => Promise<Response>): Promise<Response> {
	try {
		return await answer();
	} catch (error) {
		return unexpectedFailure(request, error);
	}
}

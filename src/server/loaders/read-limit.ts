/**
 * The read rate limits of pages (src/server/platform/rate-limit.ts): a page that reads D1 with a key
 * of the reader's choosing (a search term, a member's profile) counts the read against its limits
 * before it reads. A guest's page comes from the edge cache when it can and only a miss gets here,
 * so cache hits are never counted. A refused page answers 429 with Retry-After and is never stored.
 */
import type { AstroGlobal } from 'astro';
import { env } from 'cloudflare:workers';
import { enforceRateLimit, limitersOf, type RateLimitedAction } from '@/server/platform/rate-limit';
import { isAppError } from '@/server/platform/errors';
import { isSignedIn, type ChannelPage } from './channel-page';

/**
 * Counts the page's read as `action` of its reader (the member, when signed in, and the client
 * address). Answers whether it was refused; if so, the response is already a 429 with Retry-After.
 */
export async function pageReadRefused(
	page: ChannelPage,
	astro: Pick<AstroGlobal, 'request' | 'response'>,
	action: RateLimitedAction,
): Promise<boolean> {
	try {
		await enforceRateLimit(limitersOf(env), action, {
			channelId: page.channel.id,
			memberId: isSignedIn(page.session) ? page.session.member.userId : null,
			ip: astro.request.headers.get('cf-connecting-ip'),
		});
		return false;
	} catch (error) {
		if (!isAppError(error) || error.codeName !== 'TooManyRequests') throw error;
		astro.response.status = 429;
		astro.response.headers.set('Retry-After', String(error.details?.['retryAfter'] ?? 60));
		astro.response.headers.set('Cache-Control', 'no-store');
		return true;
	}
}

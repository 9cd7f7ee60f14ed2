/**
 * The read rate limits of pages (src/server/platform/rate-limit.ts): a page that reads D1 with a key
 * of the reader's choosing (a search term, a member's profile) counts the read against its limits.
 * A guest's page comes from the edge cache when it can and only a miss gets here, so cache hits are
 * never counted. A refused page answers 429 with Retry-After and is never stored.
 */
import type { AstroGlobal } from 'astro';
import { env } from 'cloudflare:workers';
import { enforceRateLimit, limitersOf, type RateLimitedAction } from '@/server/platform/rate-limit';
import { isAppError } from '@/server/platform/errors';
import { isSignedIn, loadChannelPageIf, type ChannelPage, type PageReads } from './channel-page';
import type { Reads, ReadValues } from '@/server/platform/reads';

/**
 * A page whose reads count against a read limit. `read` is null when nothing was read: the page
 * was refused, or it asked for no reads (`action` null).
 */
export interface ReadLimitedPage<R extends Reads> extends Omit<ChannelPage<R>, 'read'> {
	read: ReadValues<R> | null;
	refused: boolean;
}

/**
 * The channel page (loadChannelPage) with its `reads` made in its session's round trip and counted
 * as `action` of its reader, by the keys and limits of the action's rule: the client address before
 * anything is read (past its limit, nothing is), and a signed-in member's own key once the session,
 * read in the same batch, says who they are (past it, the results are dropped: the reads cost no
 * round trip beyond the session's own). Either refusal answers 429 with Retry-After, never stored.
 * With no `action` (a request the page answers without reading, such as a malformed id), nothing is
 * read and nothing is counted.
 */
export async function loadReadLimitedPage<R extends Reads>(
	astro: Pick<AstroGlobal, 'params' | 'request' | 'response' | 'locals' | 'csp'>,
	action: RateLimitedAction | null,
	reads: PageReads<R>,
): Promise<ReadLimitedPage<R> | null> {
	if (action === null) {
		const page = await loadChannelPageIf(astro);
		return page && { ...page, refused: false, read: null };
	}
	const limiters = limitersOf(env);
	const ip = astro.request.headers.get('cf-connecting-ip');
	/** The Retry-After of each refusal. */
	const refusals: number[] = [];
	const refused = (error: unknown): false => {
		if (!isAppError(error) || error.codeName !== 'TooManyRequests') throw error;
		refusals.push(Number(error.details?.['retryAfter'] ?? 60));
		return false;
	};
	const page = await loadChannelPageIf(astro, reads, (channel) =>
		enforceRateLimit(limiters, action, { channelId: channel.id, memberId: null, ip }, 'address').then(() => true, refused),
	);
	if (!page) return null;
	if (isSignedIn(page.session)) {
		await enforceRateLimit(limiters, action, { channelId: page.channel.id, memberId: page.session.member.userId, ip }, 'member').catch(refused);
	}
	if (refusals.length === 0) return { ...page, refused: false };
	astro.response.status = 429;
	astro.response.headers.set('Retry-After', String(Math.max(...refusals)));
	astro.response.headers.set('Cache-Control', 'no-store');
	return { ...page, refused: true, read: null };
}

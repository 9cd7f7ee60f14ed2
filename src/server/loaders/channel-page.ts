/** What every channel page loads first: the channel from the path, its layout data, texts and session. */
import type { AstroGlobal } from 'astro';
import type { Channel } from '@/server/channels/channels';
import { findCommunity } from '@/server/channels/community';
import { loadLayout, type LayoutData } from '@/server/channels/layout';
import type { SessionState } from '@/server/sign-in/sessions';
import { requestSession } from '@/server/sign-in/request-session';
import { translator, type Translate } from '@/i18n';
import { channelPathOf } from '@/schemas/params';
import { safeRedirect } from '@/server/sign-in/redirect';
import { loginPageUrl } from '@/lib/urls';
import { themeCss } from '@/server/channels/theme';
import { cspHash, imageSourceDirective } from '@/server/platform/security-policy';
import { together, type Reads, type ReadValues } from '@/server/platform/reads';

export interface ChannelPage<R extends Reads = NoReads> {
	db: Db;
	channel: Channel;
	layout: LayoutData;
	t: Translate;
	session: SessionState;
	/** The values of the page's own reads (loadChannelPage's `reads`), by name. */
	read: ReadValues<R>;
}

/** The reads of a page that makes none of its own. */
export type NoReads = Record<never, never>;

/**
 * A page's own named reads (src/server/platform/reads.ts), made in the session's D1 round trip
 * (src/server/sign-in/request-session.ts), given the hash of the session cookie's token (or null).
 * They are sent beside the layout's read when the isolate does not remember the layout (after any
 * new post in the channel: its post counts come with it), so the page still takes one round trip.
 */
export type PageReads<R extends Reads> = ((db: Db, channel: Channel, tokenHash: string | null) => R) | LayoutPageReads<R>;

/**
 * Reads that need the layout first (afterLayout): the board page's list, whose size and the board's
 * post count place the page. They wait for it: one round trip more when it is not remembered.
 */
export interface LayoutPageReads<R extends Reads> {
	afterLayout: (db: Db, channel: Channel, tokenHash: string | null, layout: LayoutData) => R;
}

/** Page reads made once the layout is known (LayoutPageReads). */
export function afterLayout<R extends Reads>(reads: LayoutPageReads<R>['afterLayout']): LayoutPageReads<R> {
	return { afterLayout: reads };
}

type PageContext = Pick<AstroGlobal, 'params' | 'request' | 'response' | 'locals' | 'csp'>;

/**
 * The channel page context, or null when the path names no channel. A request with the channel's
 * session cookie gets a private answer (the edge cache never sees it), and a cookie whose session
 * has ended is cleared. The session is also put in `Astro.locals` for the main layout, and the
 * hash of the channel's theme style (both layouts render `themeCss(channel)`) goes into the page's
 * Content-Security-Policy, with the hosts of the images its operator configured: here, because the
 * page's frontmatter runs before Astro writes the header.
 * `reads` are the page's own named D1 reads, sent in one batch with the session's row (one round
 * trip); their values are `page.read`, by name.
 */
export async function loadChannelPage<R extends Reads = NoReads>(astro: PageContext, reads?: PageReads<R>): Promise<ChannelPage<R> | null> {
	const page = await loadChannelPageIf(astro, reads);
	return page && { ...page, read: page.read ?? ({} as ReadValues<R>) };
}

/**
 * loadChannelPage, with `readsAllowed` asked once the channel is known and before anything is
 * read: the reads are made only when it answers true (a read limit: src/server/loaders/read-limit.ts),
 * and `read` is null when they were not.
 */
export async function loadChannelPageIf<R extends Reads>(
	astro: PageContext,
	reads?: PageReads<R>,
	readsAllowed?: (channel: Channel) => Promise<boolean>,
): Promise<(Omit<ChannelPage<R>, 'read'> & { read: ReadValues<R> | null }) | null> {
	const path = channelPathOf(astro.params);
	if (!path) return null;
	const community = await findCommunity(path.domain, path.slug);
	if (!community) return null;
	const { db, channel } = community;
	// Reads made after the layout (afterLayout) wait for it, which costs no round trip while the
	// layout is remembered; the others go beside it.
	const layoutRead = loadLayout(db, channel);
	const allowed = () => readsAllowed?.(channel) ?? Promise.resolve(true);
	const pageReads: Promise<((tokenHash: string | null) => R) | null> = !reads
		? Promise.resolve(null)
		: 'afterLayout' in reads
			? Promise.all([layoutRead, allowed()]).then(([layout, reading]) =>
					reading ? (tokenHash: string | null) => reads.afterLayout(db, channel, tokenHash, layout) : null,
				)
			: allowed().then((reading) => (reading ? (tokenHash: string | null) => reads(db, channel, tokenHash) : null));
	const sessionRead = pageReads.then((made) =>
		requestSession(db, channel, astro.request, made ? (tokenHash) => together(made(tokenHash)) : undefined),
	);
	const [layout, { session, headers, read }, themeHash] = await Promise.all([layoutRead, sessionRead, cspHash(themeCss(channel))]);
	astro.csp?.insertStyleHash(themeHash);
	const images = imageSourceDirective([
		channel.header.gameBiIcon,
		channel.banner?.imageUrl,
		...channel.footer.companyCiIcons.map((icon) => icon.key),
	]);
	if (images) astro.csp?.insertDirective(images);
	for (const [name, value] of headers) {
		if (name === 'Set-Cookie') astro.response.headers.append(name, value);
		else astro.response.headers.set(name, value);
	}
	astro.locals.session = session;
	return { db, channel, layout, t: translator(channel.language), session, read };
}

/** Whether the page is seen by a signed-in member (a banned one included: the ban dialog covers it). */
export function isSignedIn(session: SessionState): session is Extract<SessionState, { kind: 'member' | 'banned' }> {
	return session.kind === 'member' || session.kind === 'banned';
}

/** Login-required routes: a guest is sent to login with this page as redirectUrl. */
export function loginRedirect(page: ChannelPage, url: URL): string | null {
	return isSignedIn(page.session) ? null : loginPageUrl(page.channel.basePath, `${url.pathname}${url.search}`);
}

/** Guest-only routes (login, sign-up): a member is sent on to the redirectUrl, or home. */
export function memberRedirect(page: ChannelPage, url: URL): string | null {
	return isSignedIn(page.session) ? safeRedirect(page.channel.basePath, url.searchParams.get('redirectUrl')) : null;
}

/** What the My Page routes load: the channel page of a signed-in member, or where a guest goes. */
import type { AstroGlobal } from 'astro';
import { isSignedIn, loadChannelPage, loginRedirect, type ChannelPage, type NoReads } from './channel-page';
import type { Reads } from '@/server/platform/reads';
import type { SessionToken } from '@/server/sign-in/member-ref';
import type { SessionMember } from '@/server/sign-in/sessions';
import { vapidFromEnv } from '@/server/notifications/push';
import { emailOfferFromEnv, type EmailOffer } from '@/server/notifications/email';
import { env } from 'cloudflare:workers';

export interface MyPage<R extends Reads = NoReads> {
	page: ChannelPage<R>;
	member: SessionMember;
}

/**
 * A My Page route's own named reads of the member's rows, made in the session's round trip: keyed
 * by the session (src/server/sign-in/member-ref.ts), and only for a request with a session cookie.
 * Their values (`page.read`) are seen only once the session is known to be a signed-in member's.
 */
export type MyPageReads<R extends Reads> = (db: Db, channelId: number, session: SessionToken) => R;

/**
 * Login-required: a guest goes to login with this page as redirectUrl. Returns the page's data,
 * or the Response the page answers with instead (not found, redirect).
 */
export async function loadMyPage<R extends Reads = NoReads>(
	astro: Pick<AstroGlobal, 'params' | 'request' | 'response' | 'locals' | 'csp' | 'url' | 'redirect' | 'rewrite'>,
	reads?: MyPageReads<R>,
): Promise<MyPage<R> | Response> {
	const page = await loadChannelPage(astro, reads && ((db, channel, tokenHash) => (tokenHash === null ? {} : reads(db, channel.id, { tokenHash }))));
	if (!page) return astro.rewrite('/404');
	const login = loginRedirect(page, astro.url);
	if (login || !isSignedIn(page.session)) return astro.redirect(login ?? page.channel.basePath, 302);
	// A signed-in member's session came from a session cookie's token, so the reads were made.
	return { page: page as ChannelPage<R>, member: page.session.member };
}

/** The deployment's VAPID public key when it sends Web Push (all three VAPID settings present), else null. */
export function pushPublicKey(): string | null {
	return vapidFromEnv(env)?.publicKey ?? null;
}

/** Whether the deployment sends notification emails: on, off (no mailer), or not without SITE_ORIGIN (docs/reference/notifications.md#email). */
export function emailOffered(): EmailOffer['kind'] {
	return emailOfferFromEnv(env).kind;
}

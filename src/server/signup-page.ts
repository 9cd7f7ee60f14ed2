/** What the two sign-up screens load: the channel page (guests only) and the sign-up in progress. */
import type { AstroGlobal } from 'astro';
import { loadChannelPage, memberRedirect, type ChannelPage } from './page';
import { findSignup, type Signup } from './accounts';
import { readAuthCookie } from './auth-cookies';
import { loginPageUrl } from '../lib/redirect';

export type SignupPage = { kind: 'page'; page: ChannelPage; signup: Signup } | { kind: 'redirect'; to: string } | { kind: 'not-found' };

/** A member goes on; a browser without a sign-up in progress goes to login. */
export async function loadSignupPage(astro: Pick<AstroGlobal, 'params' | 'request' | 'response' | 'locals' | 'url'>): Promise<SignupPage> {
	const page = await loadChannelPage(astro);
	if (!page) return { kind: 'not-found' };
	const signedIn = memberRedirect(page, astro.url);
	if (signedIn) return { kind: 'redirect', to: signedIn };
	const { channel, db } = page;
	const signup = await findSignup(db, channel.id, readAuthCookie(astro.request.headers.get('cookie'), 'signup', channel.domain, channel.slug));
	if (!signup) return { kind: 'redirect', to: loginPageUrl(channel.basePath, channel.basePath) };
	astro.response.headers.set('Cache-Control', 'private, no-store');
	return { kind: 'page', page, signup };
}

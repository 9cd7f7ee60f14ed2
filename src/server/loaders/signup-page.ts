/** What the two sign-up screens load: the channel page (guests only) and the sign-up in progress. */
import type { AstroGlobal } from 'astro';
import { loadChannelPage, memberRedirect, type ChannelPage } from './channel-page';
import { findSignup, type Signup } from '@/server/accounts/signup';
import { readAuthCookie } from '@/server/sign-in/cookies';
import { loginPageUrl } from '@/lib/urls';

export interface SignupPage {
	page: ChannelPage;
	signup: Signup;
}

/**
 * A member goes on; a browser without a sign-up in progress goes to login. Returns the page's
 * data, or the Response the page answers with instead (not found, redirect).
 */
export async function loadSignupPage(
	astro: Pick<AstroGlobal, 'params' | 'request' | 'response' | 'locals' | 'csp' | 'url' | 'redirect' | 'rewrite'>,
): Promise<SignupPage | Response> {
	const page = await loadChannelPage(astro);
	if (!page) return astro.rewrite('/404');
	const signedIn = memberRedirect(page, astro.url);
	if (signedIn) return astro.redirect(signedIn, 302);
	const { channel, db } = page;
	const signup = await findSignup(db, channel.id, readAuthCookie(astro.request, 'signup', channel.domain, channel.slug));
	if (!signup) return astro.redirect(loginPageUrl(channel.basePath, channel.basePath), 302);
	astro.response.headers.set('Cache-Control', 'private, no-store');
	return { page, signup };
}

/** What the My Page routes load: the channel page of a signed-in member, or where a guest goes. */
import type { AstroGlobal } from 'astro';
import { isSignedIn, loadChannelPage, loginRedirect, type ChannelPage } from './page';
import type { SessionMember } from './sessions';

export type MyPage = { kind: 'page'; page: ChannelPage; member: SessionMember } | { kind: 'redirect'; to: string } | { kind: 'not-found' };

/** Login-required: a guest goes to login with this page as redirectUrl. */
export async function loadMyPage(astro: Pick<AstroGlobal, 'params' | 'request' | 'response' | 'locals' | 'url'>): Promise<MyPage> {
	const page = await loadChannelPage(astro);
	if (!page) return { kind: 'not-found' };
	const login = loginRedirect(page, astro.url);
	if (login || !isSignedIn(page.session)) return { kind: 'redirect', to: login ?? page.channel.basePath };
	return { kind: 'page', page, member: page.session.member };
}

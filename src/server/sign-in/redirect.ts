/**
 * The redirectUrl of login and sign-up: only a path inside the same channel is followed; anything
 * else (another site, another channel, a protocol-relative or malformed URL, the sign-in routes
 * themselves) falls back to the channel home, so there is no open redirect.
 */
import { isSitePath } from '@/lib/safe-url';

const SIGN_IN_ROUTES = /^\/(?:login|oauth|signup)(?:[/?#]|$)/;

export function safeRedirect(channelBase: string, raw: string | null | undefined): string {
	if (!raw || !isSitePath(raw)) return channelBase;
	let url: URL;
	try {
		url = new URL(raw, 'https://channel.invalid');
	} catch {
		return channelBase;
	}
	if (url.origin !== 'https://channel.invalid') return channelBase;
	const path = url.pathname;
	if (path !== channelBase && !path.startsWith(`${channelBase}/`)) return channelBase;
	if (SIGN_IN_ROUTES.test(path.slice(channelBase.length))) return channelBase;
	return `${path}${url.search}${url.hash}`;
}

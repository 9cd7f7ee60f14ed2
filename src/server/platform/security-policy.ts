/**
 * The site's security policies, in one place for astro.config.mjs (the pages' Content-Security-
 * Policy), the Worker (functions/shell/security-headers.ts) and public/_headers (static assets, kept
 * equal by a unit test). Every community shares one origin, so a script injected into one could
 * act in all of them: the policy is the second wall behind escaping.
 */
// Relative, not through the alias: astro.config.mjs loads this module before any alias exists.
import { PLAYER_FEATURES, YOUTUBE_PLAYER_ORIGIN } from '@/lib/youtube-player';
import { YOUTUBE_POSTER_ORIGIN } from '@/lib/thumbnails';

/**
 * A page's directives besides script-src and style-src, which Astro writes with the hashes of the
 * build's inline scripts and styles (and the page's theme style, src/server/loaders/channel-page.ts).
 * Images come only from this origin and YouTube's image host (a video's poster, by its id:
 * docs/reference/thumbnails.md): a post may not make readers' browsers call a host its writer chose. A community's own configured images widen it on its pages (imageSourceDirective). `form-action 'self'` is widened on the login page alone, to the origins of its providers'
 * authorization endpoints (the form's 303 goes there, and Chromium checks redirects of a form).
 */
export const PAGE_POLICY_DIRECTIVES = [
	"default-src 'none'",
	"base-uri 'none'",
	"object-src 'none'",
	"frame-ancestors 'none'",
	"form-action 'self'",
	`img-src 'self' ${YOUTUBE_POSTER_ORIGIN}`,
	"connect-src 'self'",
	// The notifications' service worker (public/notification-sw.js), registered from mypage/settings.
	"worker-src 'self'",
	`frame-src ${YOUTUBE_PLAYER_ORIGIN}`,
] as const;

/** An https origin as a CSP source: a host name (punycode, as URL gives it) and a port, nothing that could end the source. */
const IMAGE_ORIGIN = /^https:\/\/[a-z0-9.-]+(?::\d{1,5})?$/;

/**
 * The img-src of a community's pages when its operator configured images on other hosts (the brand
 * icon, the footer's logos, the banner): this origin and theirs, else null (the default above).
 * Members never widen it: a post's images are uploads on this origin.
 */
export function imageSourceDirective(urls: readonly (string | null | undefined)[]): `img-src ${string}` | null {
	const origins = new Set<string>();
	for (const url of urls) {
		if (!url?.startsWith('https://') || !URL.canParse(url)) continue;
		const { origin } = new URL(url);
		if (IMAGE_ORIGIN.test(origin)) origins.add(origin);
	}
	origins.delete(YOUTUBE_POSTER_ORIGIN);
	return origins.size === 0 ? null : `img-src 'self' ${YOUTUBE_POSTER_ORIGIN} ${[...origins].sort().join(' ')}`;
}

/**
 * The sources a page that shows the Turnstile widget (sign-up's nickname step, a new member's write
 * screen; docs/reference/spam-defence.md) adds for the widget's origin: its script and its challenge frame.
 * Every other page keeps the policy above.
 */
export function challengeSources(origin: string): { scripts: string[]; directive: `frame-src ${string}` } {
	// A script resource replaces Astro's default 'self', so it is named again.
	return { scripts: ["'self'", origin], directive: `frame-src ${origin}` };
}

/** The policy of every answer that is not a page (JSON, redirects, static files): nothing may load. */
export const STRICT_POLICY = "default-src 'none'; frame-ancestors 'none'";

/** Powerful features no page of the site uses: denied to the page and to every frame in it. */
const DENIED_FEATURES = [
	'bluetooth',
	'browsing-topics',
	'camera',
	'display-capture',
	'geolocation',
	'hid',
	'idle-detection',
	'magnetometer',
	'microphone',
	'midi',
	'payment',
	'publickey-credentials-get',
	'screen-wake-lock',
	'serial',
	'usb',
	'xr-spatial-tracking',
] as const;

// A frame gets a feature only if the page itself has it, hence `self` beside the player.
const PERMISSIONS_POLICY = [
	...PLAYER_FEATURES.map((feature) => `${feature}=(self "${YOUTUBE_PLAYER_ORIGIN}")`),
	...DENIED_FEATURES.map((feature) => `${feature}=()`),
].join(', ');

/** A response that sets a stricter Referrer-Policy (the sign-in return's `no-referrer`) keeps it. */
export const DEFAULT_REFERRER_POLICY = 'strict-origin-when-cross-origin';

/** The headers every answer carries whatever it is. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
	'Strict-Transport-Security': 'max-age=31536000; includeSubDomains',
	'X-Content-Type-Options': 'nosniff',
	'Permissions-Policy': PERMISSIONS_POLICY,
};

const HASH_MEMO_ENTRIES = 256;
const hashes = new Map<string, Promise<`sha256-${string}`>>();

/** The CSP source that allows exactly this inline script or style text: `sha256-<base64>`. */
export function cspHash(text: string): Promise<`sha256-${string}`> {
	let hash = hashes.get(text);
	if (!hash) {
		// The same few texts (a channel's theme) are hashed for every page: remember them, within bounds.
		if (hashes.size >= HASH_MEMO_ENTRIES) hashes.clear();
		hash = digestOf(text);
		hashes.set(text, hash);
	}
	return hash;
}

async function digestOf(text: string): Promise<`sha256-${string}`> {
	const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
	let binary = '';
	for (const byte of digest) binary += String.fromCharCode(byte);
	return `sha256-${btoa(binary)}`;
}

/**
 * Reads a YouTube video id out of a link a person pasted: watch?v=, youtu.be/, shorts/, embed/,
 * live/ and v/ paths on youtube.com (www., m., music. or none) and youtube-nocookie.com, with any
 * extras (t=, si=, list=, feature=…). Anything else (another host, a bad id, another scheme) is
 * null, which the editor shows as 'Please enter a valid URL.'.
 */

/**
 * A video id: 11 letters, digits, `-` or `_`. The same rule as `YOUTUBE_ID` of src/schemas/content.ts
 * (a unit test holds them equal), kept here so that the editor's bundle does not load zod for one regex.
 */
export const YOUTUBE_VIDEO_ID = /^[A-Za-z0-9_-]{11}$/;

const YOUTUBE_HOSTS = new Set([
	'youtube.com',
	'www.youtube.com',
	'm.youtube.com',
	'music.youtube.com',
	'youtube-nocookie.com',
	'www.youtube-nocookie.com',
]);
const SHORT_HOSTS = new Set(['youtu.be', 'www.youtu.be']);
const ID_PATHS = new Set(['shorts', 'embed', 'live', 'v']);

export function youTubeVideoId(input: string): string | null {
	const trimmed = input.trim();
	if (trimmed.length === 0 || trimmed.length > 2048 || /[\s\\]/.test(trimmed)) return null;
	// A link without its scheme ("youtu.be/…") is what people copy from an address bar on a phone.
	const withScheme = /^[a-z][a-z0-9+.-]*:/i.test(trimmed) ? trimmed : `https://${trimmed}`;
	let url: URL;
	try {
		url = new URL(withScheme);
	} catch {
		return null;
	}
	if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.username || url.password || url.port) return null;
	const host = url.hostname.toLowerCase();
	const segments = url.pathname.split('/').filter(Boolean);
	let id: string | null | undefined = null;
	if (SHORT_HOSTS.has(host)) {
		id = segments.length === 1 ? segments[0] : null;
	} else if (YOUTUBE_HOSTS.has(host)) {
		if (segments.length === 1 && segments[0] === 'watch') id = url.searchParams.get('v');
		else if (segments.length === 2 && ID_PATHS.has(segments[0] ?? '')) id = segments[1];
	}
	return id && YOUTUBE_VIDEO_ID.test(id) ? id : null;
}

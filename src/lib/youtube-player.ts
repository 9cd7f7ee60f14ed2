/** The YouTube player that a post's video facade turns into when a reader asks for it. */

/** The privacy-enhanced player's origin: the only one the pages may frame (src/server/platform/security-policy.ts). */
export const YOUTUBE_PLAYER_ORIGIN = 'https://www.youtube-nocookie.com';

/** The features the player's iframe is allowed (its `allow`); the site's Permissions-Policy grants it these and no others. */
export const PLAYER_FEATURES = [
	'accelerometer',
	'autoplay',
	'clipboard-write',
	'encrypted-media',
	'fullscreen',
	'gyroscope',
	'picture-in-picture',
] as const;

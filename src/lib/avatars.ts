/**
 * Avatars (docs/reference/avatars.md): the sizes a member's picture is stored in, the limits of each
 * stored image, the stable URL every page embeds, and the generated picture of a member who has
 * none (a pattern from the member's id). No imports, so that the browser's crop code, the pages and
 * the Worker share them as they are.
 */

/** The sizes stored, in pixels a side: 96 for lists, comments, posts and the header (shown at 20 to 32 CSS px, sharp at 3×), 256 for the profile (shown at 96). */
export const AVATAR_SIZES = [96, 256] as const;
export type AvatarSize = (typeof AVATAR_SIZES)[number];
/** The most bytes one stored size may weigh (a 256 px WebP is 5 to 30 KB; JPEG where a canvas cannot encode WebP). */
export const AVATAR_MAX_BYTES = 64 * 1024;
/** The types a stored size is taken in: what every browser's canvas encodes small. */
export const AVATAR_TYPES = ['image/webp', 'image/jpeg'] as const;
/** Stored sizes a member may send in 24 hours (a change sends both sizes: 20 changes a day). */
export const AVATAR_UPLOADS_PER_DAY = 40;
/** How long a browser or a shared cache keeps an avatar, in seconds: a change shows everywhere within it. */
export const AVATAR_MAX_AGE = 60;

/** Whether `size` is one of AVATAR_SIZES. */
export function isAvatarSize(size: number): size is AvatarSize {
	return (AVATAR_SIZES as readonly number[]).includes(size);
}

/**
 * The stable URL of a member's avatar under the community's path `channelBase`: the picture when
 * the member set one, their generated one otherwise. It never changes, so no page that embeds it
 * changes when the picture does.
 */
export function avatarUrl(channelBase: string, memberId: number, size: AvatarSize): string {
	return `${channelBase}/avatars/${memberId}?s=${size}`;
}

/** A 32-bit mix of the member's id (deterministic: the same member, the same pattern everywhere). */
function mix(memberId: number): number {
	let h = (memberId ^ 0x9e3779b9) >>> 0;
	h = Math.imul(h ^ (h >>> 16), 0x85ebca6b) >>> 0;
	h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35) >>> 0;
	return (h ^ (h >>> 16)) >>> 0;
}

/**
 * The generated avatar of `memberId`: a 5 × 5 pattern, mirrored like a GitHub identicon, in a light
 * tint on a solid tile of the member's hue. A tile with its own background reads the same on the
 * light and the dark theme (the pattern's contrast with the tile is above 4.5:1 for every hue).
 */
export function generatedAvatarSvg(memberId: number): string {
	const bits = mix(memberId);
	const hue = mix(memberId + 0x5bd1e995) % 360;
	const cells: string[] = [];
	for (let row = 0; row < 5; row += 1) {
		for (let column = 0; column < 3; column += 1) {
			if (((bits >>> (row * 3 + column)) & 1) === 0) continue;
			cells.push(`M${column + 1} ${row + 1}h1v1h-1z`);
			if (column < 2) cells.push(`M${5 - column} ${row + 1}h1v1h-1z`);
		}
	}
	return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 7 7" width="256" height="256"><rect width="7" height="7" fill="hsl(${hue} 45% 30%)"/><path d="${cells.join('')}" fill="hsl(${hue} 80% 88%)"/></svg>`;
}

/**
 * What an avatar's `<img>` asks for, shown at `px` CSS pixels a side: the stored size that is sharp
 * there at 3× (96 up to 32 px, 256 above) and the box, so that nothing moves while it loads. Every
 * avatar on a page is `<img class="avatar" alt="" …>` beside the member's name (the name says who it is).
 */
export function avatarImage(channelBase: string, memberId: number, px: number): { src: string; width: number; height: number } {
	return { src: avatarUrl(channelBase, memberId, px > 32 ? 256 : 96), width: px, height: px };
}

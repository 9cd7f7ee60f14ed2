/**
 * The limits of writing (titles, drafts, images), shared by the write screen's island and the
 * server. No zod here: the island loads this module, and the schemas of ./post-write.ts re-export it.
 */

/**
 * The longest title, in characters (code points). 100 fits a list row on a desktop and two lines on
 * a phone; peers that allow 300 (Reddit) get paragraphs as titles, and 40 (DCInside) cuts ordinary
 * Korean and Japanese titles short.
 */
export const TITLE_MAX_LENGTH = 100;

/** How many drafts a member keeps in one community; saving one more is refused (DraftLimitReached). */
export const DRAFT_LIMIT = 100;

/** The largest image upload, in bytes (10 MB: a phone photo at full size fits). */
export const IMAGE_MAX_BYTES = 10 * 1024 * 1024;
export const IMAGE_MAX_SIZE_LABEL = { size: 10, unit: 'MB' } as const;

/**
 * The largest image by its pixels (src/server/uploads/image-format.ts): 10,000 a side and 40
 * megapixels in all, read from the file's header. A browser holds a decoded image at 4 bytes a
 * pixel: 40 MP is 160 MB, which an 8K screenshot (33 MP) and a phone's photo (12 to 24 MP) stay
 * under, while a 12 KB PNG of 10,000 × 10,000 would take 400 MB of every reader's memory.
 */
export const IMAGE_MAX_SIDE = 10_000;
export const IMAGE_MAX_MEGAPIXELS = 40;

/**
 * The most images one post or draft shows, every image block counted (the same image twice counts
 * twice, the demo's images too): 50 fills a long guide, and bounds what one page asks of a reader's
 * browser. Refused with TooManyImages.
 */
export const IMAGES_PER_DOCUMENT_MAX = 50;

/**
 * What one member may upload in a community in 24 hours (src/server/uploads/uploads.ts, enforced
 * by the trigger of migrations/0019): 100 images and 200 MB, two full 50-image posts of 2 MB
 * photos a day, which a community's heaviest posters do not reach; refused with
 * UploadDailyLimitReached.
 */
export const UPLOADS_PER_DAY = 100;
export const UPLOAD_MB_PER_DAY = 200;
export const UPLOAD_BYTES_PER_DAY = UPLOAD_MB_PER_DAY * 1024 * 1024;

/**
 * How many of a member's uploads of the last 24 hours may wait unshown by any post or draft:
 * a 50-image post in the making plus slack for replaced images. Refused with
 * UnattachedUploadLimitReached; publishing or saving a draft frees them.
 */
export const UNATTACHED_UPLOADS_MAX = 60;

/**
 * The values the texts of these limits name ({{megapixels}}, {{side}}, {{images}}, {{dailyImages}},
 * {{dailyMb}}, {{unattached}}), filled in on the server (LIMIT_TEXT_KEYS of the write screen) so
 * that the browser gets the texts whole.
 */
export const UPLOAD_LIMIT_LABELS = {
	megapixels: IMAGE_MAX_MEGAPIXELS,
	side: IMAGE_MAX_SIDE.toLocaleString('en'),
	images: IMAGES_PER_DOCUMENT_MAX,
	dailyImages: UPLOADS_PER_DAY,
	dailyMb: UPLOAD_MB_PER_DAY,
	unattached: UNATTACHED_UPLOADS_MAX,
} as const;

/** The title's length as a person counts it: code points, so an emoji or a CJK character is one. */
export function titleLength(title: string): number {
	return [...title].length;
}

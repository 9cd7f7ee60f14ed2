/**
 * The thumbnails of media posts in lists (docs/reference/thumbnails.md). A post keeps in
 * posts.thumbnail what its list row shows, chosen when it is written: the small variant of its first
 * uploaded image that has one, a demo image as it is, or a YouTube video's poster. No imports, so
 * that the seed (Node) and the editor's lazily loaded thumbnail code can read the limits as they are.
 */

/** The longest side of an upload's thumbnail, in pixels: three times the list's 80 × 60 box, sharp on a phone. */
export const THUMBNAIL_MAX_SIDE = 320;
/** The most bytes a thumbnail may weigh (a 320 px WebP is 5 to 20 KB; the cap leaves room for a busy picture at JPEG). */
export const THUMBNAIL_MAX_BYTES = 64 * 1024;
/** The types a thumbnail is taken in: what every browser's canvas encodes small. */
export const THUMBNAIL_TYPES = ['image/webp', 'image/jpeg'] as const;

/** YouTube's image host, which serves every video's posters (the pages' img-src allows it, src/server/platform/security-policy.ts). */
export const YOUTUBE_POSTER_ORIGIN = 'https://i.ytimg.com';

const VIDEO_ID = /^[A-Za-z0-9_-]{11}$/;
const YOUTUBE_PREFIX = 'youtube:';

/**
 * A video's poster: `mq` is 320 × 180 (about 10 to 20 KB, for lists), `hq` 480 × 360 (the post's
 * facade, 16:9 inside black bars that the facade's cover crop hides), as lite-youtube-embed does.
 */
export function youTubePoster(videoId: string, size: 'mq' | 'hq'): string {
	return `${YOUTUBE_POSTER_ORIGIN}/vi/${videoId}/${size}default.jpg`;
}

interface MediaBlock {
	type: string;
	src?: string;
	videoId?: string;
}

/**
 * What a post's list row shows for `blocks`, to store in posts.thumbnail: the first image that has a
 * small variant (`imageThumbnail` answers it for an image's src, or null) or the first video,
 * whichever comes first; null when neither.
 */
export function postThumbnailOf(blocks: readonly MediaBlock[], imageThumbnail: (src: string) => string | null): string | null {
	for (const block of blocks) {
		if (block.type === 'image' && typeof block.src === 'string') {
			const thumbnail = imageThumbnail(block.src);
			if (thumbnail) return thumbnail;
		} else if (block.type === 'youtube' && typeof block.videoId === 'string' && VIDEO_ID.test(block.videoId)) {
			return `${YOUTUBE_PREFIX}${block.videoId}`;
		}
	}
	return null;
}

/**
 * The URL of a stored thumbnail for an <img>: a video's list poster, or the stored path when
 * `isLocalImage` allows it (an upload or a demo file); null for anything else, so that a row of any
 * age never makes readers' browsers call a host of a writer's choosing.
 */
export function thumbnailUrl(stored: string | null, isLocalImage: (src: string) => boolean): string | null {
	if (!stored) return null;
	if (stored.startsWith(YOUTUBE_PREFIX)) {
		const id = stored.slice(YOUTUBE_PREFIX.length);
		return VIDEO_ID.test(id) ? youTubePoster(id, 'mq') : null;
	}
	return isLocalImage(stored) ? stored : null;
}

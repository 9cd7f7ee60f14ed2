/**
 * Names shared by the server and the browser: the request header and the browser-storage keys.
 * Storage keys follow the `app:{domain}-{slug}-…` pattern (docs/reference/product-rules.md#data).
 */

/** Sent by the API client once a user id is known (docs/reference/product-rules.md#api-calls). */
export const USER_ID_HEADER = 'X-User-Id';

/** localStorage: the signed-in member's user id in a channel (docs/reference/product-rules.md#states). */
export function userIdStorageKey(domain: string, slug: string): string {
	return `app:${domain}-${slug}-userId`;
}

/** sessionStorage: a message for the toast of the next page. */
export const TOAST_STORAGE_KEY = 'app:toast';

/** The document's event for a new toast in the queue: the layout loads the toast's view with the first (src/page-scripts/toast-loader.ts). */
export const TOAST_EVENT = 'app:toast';

/** sessionStorage: that this reader session has counted a view of the post behind `beaconUrl`. */
export function viewedStorageKey(beaconUrl: string): string {
	return `app:viewed:${beaconUrl}`;
}

/**
 * localStorage: the local safety net of the write screen, the form as the member left it, per
 * member and per screen (`write`, or the edit screen of one post), so that nothing typed is lost.
 */
export function localDraftStorageKey(domain: string, slug: string, userId: number, screen: { postId: number } | 'write'): string {
	return `app:${domain}-${slug}-${userId}-editor:${screen === 'write' ? 'write' : `edit:${screen.postId}`}`;
}

/**
 * localStorage: the comment a member was writing on a post when their session ended, until they
 * come back signed in (src/islands/comments/kept-text.ts).
 */
export function keptCommentStorageKey(domain: string, slug: string, userId: number, postId: number): string {
	return `app:${domain}-${slug}-${userId}-comment:${postId}`;
}

/**
 * The blocks and unblocks the reader made on this page (docs/reference/blocking.md), by member id
 * (true: blocked), shared by everything on the page that shows a member as blocked: the comments
 * island collapses or opens their comments, the post's action bar and the profile say Block or
 * Unblock. A page starts with what the server rendered (the island's `data-blocking`, the buttons'
 * `data-blocked`); this store holds only what changed since, so whichever part wakes first agrees
 * with the others. Browser only.
 */
import { map } from 'nanostores';

export const $blockChanges = map<Record<string, boolean>>({});

/** The reader blocked (`blocked` true) or unblocked member `userId`. */
export function setBlocked(userId: number, blocked: boolean): void {
	$blockChanges.setKey(String(userId), blocked);
}

/** Whether member `userId` is blocked now: as changed on this page, else as the page was rendered (`rendered`). */
function isBlocked(changes: Readonly<Record<string, boolean>>, userId: number, rendered: readonly number[]): boolean {
	return changes[String(userId)] ?? rendered.includes(userId);
}

/** The members blocked now: those the page was rendered with (`rendered`) and the changes since. */
export function blockedNow(changes: Readonly<Record<string, boolean>>, rendered: readonly number[]): number[] {
	const changed = Object.keys(changes).map(Number);
	return [...new Set([...rendered, ...changed])].filter((userId) => isBlocked(changes, userId, rendered));
}

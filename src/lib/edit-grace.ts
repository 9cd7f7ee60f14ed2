/**
 * The grace period of editing (docs/reference/edit-history.md): an edit within 5 minutes of writing
 * leaves no mark and no revision, as Discourse's does; a later one shows "edited" with its time.
 */

/** How long after writing a post or comment its author may still change it without a trace: 5 minutes. */
export const EDIT_GRACE_MS = 5 * 60 * 1000;

/** The time a reader is shown as "edited": the last edit's, when it came after the grace period; otherwise null. */
export function shownEditTime(createdAt: number, editedAt: number | null): number | null {
	return editedAt !== null && editedAt - createdAt > EDIT_GRACE_MS ? editedAt : null;
}

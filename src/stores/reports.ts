/**
 * The comments the member has reported on this page, as the report dialog learns it (a report made,
 * or the API's word that it was made before): the comments island marks their menu's Report item
 * "Reported", as the page marks those it rendered (`data-reported`). Browser only.
 */
import { atom } from 'nanostores';

export const $reportedComments = atom<readonly number[]>([]);

export function markCommentReported(commentId: number): void {
	const current = $reportedComments.get();
	if (!current.includes(commentId)) $reportedComments.set([...current, commentId]);
}

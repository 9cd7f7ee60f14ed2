/**
 * The write screen's calls to the member API (posts, drafts) and what their failures mean to a
 * person (docs/reference/product-rules.md#errors-and-texts): a field's own text, the "subject disabled" alert, the edit conflict, the
 * forced-login alert, the ban dialog, too many requests, or the screen's generic failure.
 */
import { memberRoutes, resultCodeOf, type RoutesClient } from '@/lib/api-client';
import { memberFailure, type MemberFailure, mutationErrorKind } from '@/lib/route-errors';
import { ContentRequired, DraftLimitReached, PostChanged, TitleRequired, TitleTooLong, TooManyImages } from '@/lib/result-codes';
import type { DraftBody } from '@/lib/api-types';

/** A draft's fields as POST and PUT drafts take them (src/schemas/post-write.ts DraftFieldsSchema). */
export type { DraftBody } from '@/lib/api-types';

/** The member API of `channel` for the signed-in member (the user-id header of docs/reference/product-rules.md#api-calls). */
export const memberApi = memberRoutes;

export type MemberApi = RoutesClient<'member'>;

/** What the form does with a failed request. */
export type FailureMeaning =
	| { kind: 'field'; field: 'title' | 'content'; problem: 'required' | 'tooLong' | 'tooManyImages' }
	| { kind: 'subject-disabled' }
	| { kind: 'post-changed' }
	| { kind: 'draft-limit' }
	| MemberFailure
	| { kind: 'generic' };

/** Decides what a failure of a post or draft request means; `returnPath` is where login comes back to. */
export function failureMeaning(error: unknown, channelBase: string, returnPath: string): FailureMeaning {
	const shared = memberFailure(error, channelBase, returnPath);
	if (shared) return shared;
	if (mutationErrorKind(error) === 'subject-disabled') return { kind: 'subject-disabled' };
	switch (resultCodeOf(error)) {
		case TitleRequired.code:
			return { kind: 'field', field: 'title', problem: 'required' };
		case TitleTooLong.code:
			return { kind: 'field', field: 'title', problem: 'tooLong' };
		case ContentRequired.code:
			return { kind: 'field', field: 'content', problem: 'required' };
		case TooManyImages.code:
			return { kind: 'field', field: 'content', problem: 'tooManyImages' };
		case PostChanged.code:
			return { kind: 'post-changed' };
		case DraftLimitReached.code:
			return { kind: 'draft-limit' };
		default:
			return { kind: 'generic' };
	}
}

/** The drafts routes of the member API. */
export function draftsApi(api: MemberApi) {
	return {
		list: (page: number) => api.get('/drafts', { query: { page } }),
		get: (draftId: number) => api.get('/drafts/:draftId', { param: { draftId } }),
		create: (fields: DraftBody) => api.post('/drafts', { json: fields }),
		update: (draftId: number, fields: DraftBody) => api.put('/drafts/:draftId', { param: { draftId }, json: fields }),
		remove: async (draftId: number) => {
			await api.delete('/drafts/:draftId', { param: { draftId } });
		},
	};
}

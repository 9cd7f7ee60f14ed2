/**
 * A comment the member was writing when their session ended, kept in localStorage until they come
 * back signed in (the forced-login alert clears sessionStorage and the stored user id, not this),
 * per member and post, so that another member of the same browser never sees it.
 */
import { keptCommentStorageKey } from '@/lib/names';

/** Which box the text belongs to: the new-comment box, a reply to a thread, or the edit of a comment. */
export type KeptBox = { kind: 'new' } | { kind: 'reply'; parentId: number } | { kind: 'edit'; commentId: number };

export interface KeptComment {
	box: KeptBox;
	text: string;
}

export interface KeptScope {
	domain: string;
	slug: string;
	userId: number;
	postId: number;
}

export function keepComment(scope: KeptScope, kept: KeptComment): void {
	try {
		localStorage.setItem(keptCommentStorageKey(scope.domain, scope.slug, scope.userId, scope.postId), JSON.stringify(kept));
	} catch {
		// Storage blocked: the text is lost with the session, as it would be without this.
	}
}

/** The kept comment, removed from storage as it is read; null when there is none or it is not one. */
export function takeKeptComment(scope: KeptScope): KeptComment | null {
	try {
		const key = keptCommentStorageKey(scope.domain, scope.slug, scope.userId, scope.postId);
		const raw = localStorage.getItem(key);
		if (raw === null) return null;
		localStorage.removeItem(key);
		return parseKept(JSON.parse(raw));
	} catch {
		return null;
	}
}

function parseKept(value: unknown): KeptComment | null {
	if (typeof value !== 'object' || value === null) return null;
	const { box, text } = value as { box?: { kind?: unknown; parentId?: unknown; commentId?: unknown }; text?: unknown };
	if (typeof text !== 'string' || !box) return null;
	if (box.kind === 'new') return { box: { kind: 'new' }, text };
	if (box.kind === 'reply' && typeof box.parentId === 'number') return { box: { kind: 'reply', parentId: box.parentId }, text };
	if (box.kind === 'edit' && typeof box.commentId === 'number') return { box: { kind: 'edit', commentId: box.commentId }, text };
	return null;
}

/**
 * The local safety net of the write screen: the form as the member left it, kept in localStorage
 * (localDraftStorageKey of src/lib/names.ts) so that a closed tab, a crash, a dropped network or an
 * ended session loses nothing. Read defensively: anything that is not a copy this code wrote is
 * ignored.
 */
import type { FormFields } from '@/schemas/post-write';

/** The form's fields as the safety net keeps them (a post's, the board perhaps not chosen yet). */
export type { FormFields } from '@/schemas/post-write';

export interface LocalCopy {
	fields: FormFields;
	/** The server draft the form was loaded from or saved as, so that saving again updates it. */
	draftId: number | null;
	savedAt: number;
	/** Left by a forced login: the editor restores the copy by itself when the member is back. */
	resume?: boolean;
}

function isId(value: unknown): value is number | null {
	return value === null || (typeof value === 'number' && Number.isSafeInteger(value) && value > 0);
}

function isCopy(value: unknown): value is LocalCopy {
	if (typeof value !== 'object' || value === null) return false;
	const { fields, draftId, savedAt } = value as Partial<LocalCopy>;
	if (typeof fields !== 'object' || fields === null || !isId(draftId ?? null) || typeof savedAt !== 'number') return false;
	const { boardId, subjectId, title, content, isPrivate, isNotice } = fields;
	return (
		isId(boardId) &&
		isId(subjectId) &&
		typeof title === 'string' &&
		typeof isPrivate === 'boolean' &&
		typeof isNotice === 'boolean' &&
		typeof content === 'object' &&
		content !== null &&
		content.type === 'doc' &&
		Array.isArray(content.blocks)
	);
}

export function readLocalCopy(key: string): LocalCopy | null {
	try {
		const stored = localStorage.getItem(key);
		if (!stored) return null;
		const parsed: unknown = JSON.parse(stored);
		return isCopy(parsed) ? parsed : null;
	} catch {
		return null;
	}
}

export function writeLocalCopy(key: string, copy: LocalCopy): void {
	try {
		localStorage.setItem(key, JSON.stringify(copy));
	} catch {
		// Storage blocked or full: the form still holds the work, and the server drafts remain.
	}
}

export function clearLocalCopy(key: string): void {
	try {
		localStorage.removeItem(key);
	} catch {
		// Storage blocked: nothing was kept either.
	}
}

/** Whether a form holds nothing a member would miss: no title and a body without text or media. */
export function isBlank(fields: FormFields): boolean {
	return (
		fields.title.trim() === '' &&
		fields.content.blocks.every((block) =>
			'children' in block
				? block.children.every((inline) => inline.text.trim() === '')
				: block.type === 'list'
					? block.items.every((item) => item.every((inline) => inline.text.trim() === ''))
					: false,
		)
	);
}

/** Whether two forms hold the same work (what the member would lose or get back). */
export function sameWork(a: FormFields, b: FormFields): boolean {
	return (
		a.boardId === b.boardId &&
		a.subjectId === b.subjectId &&
		a.title === b.title &&
		a.isPrivate === b.isPrivate &&
		a.isNotice === b.isNotice &&
		JSON.stringify(a.content) === JSON.stringify(b.content)
	);
}

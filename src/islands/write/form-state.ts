/**
 * The write form's state and the changes made to it: the fields, the server draft they are kept as,
 * the field errors shown and the request under way. Pure: WriteForm.tsx holds it with useReducer.
 */
import type { FormFields } from './local-copy';
import type { WritableBoard } from '@/server/boards/writable';

/** A board the member may write in, as the write page's loader gives it (src/server/boards/writable.ts). */
export type WriteBoard = Pick<WritableBoard, 'boardId' | 'name' | 'usesSubjects' | 'subjects' | 'template'>;

export type FieldErrors = Partial<Record<'board' | 'title' | 'content', string | undefined>>;

export interface WriteFormState {
	fields: FormFields;
	/** The server draft the form was loaded from or saved as: saving a draft overwrites it. */
	draftId: number | null;
	errors: FieldErrors;
	busy: 'submit' | 'draft' | null;
}

export type WriteFormAction =
	/** The member changed some fields (or the editor reported its form of the opening content). */
	| { type: 'change'; fields: Partial<FormFields> }
	/** Work read back (a draft, a local copy) replaces the form. */
	| { type: 'work'; fields: FormFields; draftId: number | null }
	| { type: 'draft'; draftId: number | null }
	/** The errors of a check or a failed request replace the shown ones. */
	| { type: 'errors'; errors: FieldErrors }
	/** A field was changed: its error goes. */
	| { type: 'fixed'; field: keyof FieldErrors }
	| { type: 'busy'; busy: WriteFormState['busy'] };

export function initialWriteForm(fields: FormFields, draftId: number | null): WriteFormState {
	return { fields, draftId, errors: {}, busy: null };
}

export function writeFormReducer(state: WriteFormState, action: WriteFormAction): WriteFormState {
	switch (action.type) {
		case 'change':
			return { ...state, fields: { ...state.fields, ...action.fields } };
		case 'work':
			return { ...state, fields: action.fields, draftId: action.draftId };
		case 'draft':
			return { ...state, draftId: action.draftId };
		case 'errors':
			return { ...state, errors: action.errors };
		case 'fixed':
			return { ...state, errors: { ...state.errors, [action.field]: undefined } };
		case 'busy':
			return { ...state, busy: action.busy };
	}
}

/** Work read back (a draft, a local copy) fitted to the boards the member may write in now. */
export function fitToBoards(work: FormFields, boards: WriteBoard[]): FormFields {
	const board = boards.find((candidate) => candidate.boardId === work.boardId) ?? boards[0];
	const subjectId = board?.subjects.some((subject) => subject.subjectId === work.subjectId) ? work.subjectId : null;
	return { ...work, boardId: board?.boardId ?? null, subjectId };
}

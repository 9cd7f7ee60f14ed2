/**
 * The write form's state and the changes made to it: the fields, the server draft they are kept as,
 * the field errors shown, the request under way, whether the member has changed anything and
 * written in the body, the fields as the page opened, and a request waiting for the connection.
 * Pure: WriteForm.tsx holds it with useReducer and passes it, with dispatch, to its hooks, so the
 * hooks read the current state instead of copies of it kept in refs.
 */
import { sameWork, type FormFields } from './local-copy';
import { documentIsEmpty } from '@/islands/editor/document';
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
	/** The member has changed something (typed, pasted, chosen); until then nothing is kept locally. */
	touched: boolean;
	/** The body holds the member's own work, not just a template (an edited post's body is such work). */
	written: boolean;
	/** The fields as the page opened, the content as the editor reports it (it may normalise it). */
	baseline: FormFields;
	/** A request that failed offline, sent again once the browser is back online. */
	pending: 'submit' | 'draft' | null;
}

export type WriteFormAction =
	/** The member changed some fields. */
	| { type: 'change'; fields: Partial<FormFields> }
	/** The editor reported its content: before the member changed anything, its form of the opening content. */
	| { type: 'edited'; content: FormFields['content'] }
	/** The member typed, pasted or dropped into the body. */
	| { type: 'written' }
	/** A board's template replaced the body: it is not the member's work. */
	| { type: 'template' }
	/** Work read back (a draft, a local copy) replaces the form. */
	| { type: 'work'; fields: FormFields; draftId: number | null }
	/** The form was saved as this server draft. */
	| { type: 'saved'; draftId: number }
	/** The form's server draft was deleted. */
	| { type: 'draft'; draftId: null }
	| { type: 'pending'; pending: WriteFormState['pending'] }
	/** The errors of a check or a failed request replace the shown ones. */
	| { type: 'errors'; errors: FieldErrors }
	/** A field was changed: its error goes. */
	| { type: 'fixed'; field: keyof FieldErrors }
	| { type: 'busy'; busy: WriteFormState['busy'] };

/** The form as the page opens: `editing` a post, whose body is the member's work already. */
export function initialWriteForm(fields: FormFields, draftId: number | null, editing = false): WriteFormState {
	return { fields, draftId, errors: {}, busy: null, touched: false, written: editing, baseline: fields, pending: null };
}

export function writeFormReducer(state: WriteFormState, action: WriteFormAction): WriteFormState {
	switch (action.type) {
		case 'change':
			return { ...state, fields: { ...state.fields, ...action.fields }, touched: true };
		case 'edited': {
			const fields = { ...state.fields, content: action.content };
			return state.touched
				? { ...state, fields, errors: { ...state.errors, content: undefined } }
				: { ...state, fields, baseline: { ...state.baseline, content: action.content } };
		}
		// Said on every key in the body (and in the editor's dialogs): the same state when nothing changes, so nothing renders again.
		case 'written':
			return state.touched && state.written ? state : { ...state, touched: true, written: true };
		case 'template':
			return state.written ? { ...state, written: false } : state;
		case 'work':
			return { ...state, fields: action.fields, draftId: action.draftId, touched: true, written: true };
		case 'saved':
			return { ...state, draftId: action.draftId, touched: true };
		case 'draft':
			return { ...state, draftId: action.draftId };
		case 'pending':
			return state.pending === action.pending ? state : { ...state, pending: action.pending };
		case 'errors':
			return { ...state, errors: action.errors };
		case 'fixed':
			return state.errors[action.field] === undefined ? state : { ...state, errors: { ...state.errors, [action.field]: undefined } };
		case 'busy':
			return state.busy === action.busy ? state : { ...state, busy: action.busy };
	}
}

/** Work read back (a draft, a local copy) fitted to the boards the member may write in now. */
export function fitToBoards(work: FormFields, boards: WriteBoard[]): FormFields {
	const board = boards.find((candidate) => candidate.boardId === work.boardId) ?? boards[0];
	const subjectId = board?.subjects.some((subject) => subject.subjectId === work.subjectId) ? work.subjectId : null;
	return { ...work, boardId: board?.boardId ?? null, subjectId };
}

/**
 * Whether the form holds work that leaving, or loading a draft, would lose: an edited post that
 * differs from how it opened; a new post with a title, or a body of the member's own.
 */
export function hasWork(state: WriteFormState, editing: boolean): boolean {
	if (editing) return !sameWork(state.fields, state.baseline);
	return state.fields.title.trim() !== '' || (state.written && !documentIsEmpty(state.fields.content));
}

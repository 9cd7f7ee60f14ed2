import { describe, expect, it } from 'vitest';
import { fitToBoards, initialWriteForm, writeFormReducer, type WriteBoard } from '@/islands/write/form-state';
import type { FormFields } from '@/islands/write/local-copy';

const fields = (overrides: Partial<FormFields> = {}): FormFields => ({
	boardId: 12,
	subjectId: null,
	title: 'A title',
	content: { type: 'doc', blocks: [{ type: 'paragraph', children: [{ text: 'Body' }] }] },
	isPrivate: false,
	isNotice: false,
	...overrides,
});

const board = (boardId: number, subjectIds: number[] = []): WriteBoard => ({
	boardId,
	name: `Board ${boardId}`,
	usesSubjects: subjectIds.length > 0,
	subjects: subjectIds.map((subjectId) => ({ subjectId, name: `Subject ${subjectId}` })),
	template: null,
});

describe('the write form state', () => {
	const opened = initialWriteForm(fields(), 7);

	it('opens with the page fields, the opened draft, no errors and nothing under way', () => {
		expect(opened).toEqual({ fields: fields(), draftId: 7, errors: {}, busy: null });
	});

	it('a change merges into the fields and leaves the rest', () => {
		const next = writeFormReducer({ ...opened, errors: { board: 'x' } }, { type: 'change', fields: { title: 'New', isPrivate: true } });
		expect(next).toEqual({ fields: fields({ title: 'New', isPrivate: true }), draftId: 7, errors: { board: 'x' }, busy: null });
	});

	it('work read back replaces the fields and the draft it is kept as', () => {
		const work = fields({ boardId: 3, title: 'From a draft' });
		expect(writeFormReducer(opened, { type: 'work', fields: work, draftId: 9 })).toEqual({ ...opened, fields: work, draftId: 9 });
		expect(writeFormReducer(opened, { type: 'draft', draftId: null }).draftId).toBeNull();
	});

	it('errors are replaced by a check and a changed field loses its own error only', () => {
		const checked = writeFormReducer(opened, { type: 'errors', errors: { title: 'Required', content: 'Required' } });
		expect(checked.errors).toEqual({ title: 'Required', content: 'Required' });
		expect(writeFormReducer(checked, { type: 'fixed', field: 'title' }).errors).toEqual({ title: undefined, content: 'Required' });
		expect(writeFormReducer(checked, { type: 'errors', errors: {} }).errors).toEqual({});
	});

	it('busy says which request is under way', () => {
		const saving = writeFormReducer(opened, { type: 'busy', busy: 'draft' });
		expect(saving.busy).toBe('draft');
		expect(writeFormReducer(saving, { type: 'busy', busy: null }).busy).toBeNull();
	});

	it('does not change the state it was given', () => {
		const frozen = Object.freeze({ ...opened, fields: Object.freeze(fields()), errors: Object.freeze({}) });
		expect(() => writeFormReducer(frozen, { type: 'change', fields: { title: 'x' } })).not.toThrow();
		expect(frozen.fields.title).toBe('A title');
	});
});

describe('work read back is fitted to the boards the member may write in now', () => {
	it('keeps a board and subject that still exist', () => {
		expect(fitToBoards(fields({ boardId: 12, subjectId: 5 }), [board(3), board(12, [5])])).toMatchObject({ boardId: 12, subjectId: 5 });
	});

	it('drops a subject the board no longer has', () => {
		expect(fitToBoards(fields({ boardId: 12, subjectId: 6 }), [board(12, [5])])).toMatchObject({ boardId: 12, subjectId: null });
	});

	it('falls back to the first board, or none when there is none', () => {
		expect(fitToBoards(fields({ boardId: 99, subjectId: 5 }), [board(3, [5]), board(12)])).toMatchObject({ boardId: 3, subjectId: 5 });
		expect(fitToBoards(fields({ boardId: 99 }), [])).toMatchObject({ boardId: null, subjectId: null });
	});
});

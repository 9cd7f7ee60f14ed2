import { describe, expect, it } from 'vitest';
import { fitToBoards, hasWork, initialWriteForm, writeFormReducer, type WriteBoard } from '@/islands/write/form-state';
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
		expect(opened).toEqual({
			fields: fields(),
			draftId: 7,
			errors: {},
			busy: null,
			touched: false,
			written: false,
			baseline: fields(),
			pending: null,
		});
		expect(initialWriteForm(fields(), null, true).written).toBe(true);
	});

	it('a change merges into the fields and leaves the rest', () => {
		const next = writeFormReducer({ ...opened, errors: { board: 'x' } }, { type: 'change', fields: { title: 'New', isPrivate: true } });
		expect(next).toEqual({ ...opened, fields: fields({ title: 'New', isPrivate: true }), errors: { board: 'x' }, touched: true });
	});

	it('work read back replaces the fields and the draft it is kept as', () => {
		const work = fields({ boardId: 3, title: 'From a draft' });
		expect(writeFormReducer(opened, { type: 'work', fields: work, draftId: 9 })).toEqual({
			...opened,
			fields: work,
			draftId: 9,
			touched: true,
			written: true,
		});
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

describe('what the member has done, read from the state (no copies in refs)', () => {
	const opened = initialWriteForm(fields(), null);
	const typed: FormFields['content'] = { type: 'doc', blocks: [{ type: 'paragraph', children: [{ text: 'Typed' }] }] };

	it("before any change, the editor's content is its form of the opening content: the baseline moves with it and nothing is touched", () => {
		const normalised = writeFormReducer(opened, { type: 'edited', content: typed });
		expect(normalised).toEqual({ ...opened, fields: fields({ content: typed }), baseline: fields({ content: typed }) });
		expect(hasWork(normalised, true)).toBe(false);
	});

	it("once the member wrote in the body, the editor's content is a change: its error goes and the baseline stays", () => {
		const written = writeFormReducer({ ...opened, errors: { content: 'Required' } }, { type: 'written' });
		expect(written).toMatchObject({ touched: true, written: true });
		const edited = writeFormReducer(written, { type: 'edited', content: typed });
		expect(edited.fields.content).toEqual(typed);
		expect(edited.baseline).toEqual(opened.baseline);
		expect(edited.errors).toEqual({ content: undefined });
		expect(hasWork(edited, true)).toBe(true);
	});

	it("a template that replaced the body is not the member's work; saving a draft touches the form", () => {
		const written = writeFormReducer(opened, { type: 'written' });
		expect(writeFormReducer(written, { type: 'template' })).toMatchObject({ touched: true, written: false });
		expect(writeFormReducer(opened, { type: 'saved', draftId: 4 })).toMatchObject({ draftId: 4, touched: true, written: false });
		expect(writeFormReducer({ ...opened, draftId: 4 }, { type: 'draft', draftId: null }).draftId).toBeNull();
	});

	it('a request that failed offline waits in the state until it is sent again', () => {
		const waiting = writeFormReducer(opened, { type: 'pending', pending: 'submit' });
		expect(waiting.pending).toBe('submit');
		expect(writeFormReducer(waiting, { type: 'pending', pending: null }).pending).toBeNull();
	});

	it('an action that changes nothing answers the same state, so the form does not render again on every key', () => {
		const written = writeFormReducer(opened, { type: 'written' });
		expect(writeFormReducer(written, { type: 'written' })).toBe(written);
		expect(writeFormReducer(opened, { type: 'template' })).toBe(opened);
		expect(writeFormReducer(opened, { type: 'pending', pending: null })).toBe(opened);
		expect(writeFormReducer(opened, { type: 'fixed', field: 'title' })).toBe(opened);
		expect(writeFormReducer(opened, { type: 'busy', busy: null })).toBe(opened);
	});

	it('a new post has work with a title, or with a body the member wrote; an edited one when it differs from how it opened', () => {
		const blank = initialWriteForm(fields({ title: ' ' }), null);
		expect(hasWork(blank, false)).toBe(false);
		expect(hasWork({ ...blank, fields: fields({ title: 'T' }) }, false)).toBe(true);
		expect(hasWork(blank, false)).toBe(false);
		expect(hasWork({ ...blank, written: true }, false)).toBe(true);
		expect(hasWork({ ...blank, written: true, fields: fields({ title: '', content: { type: 'doc', blocks: [] } }) }, false)).toBe(false);
		expect(hasWork(opened, true)).toBe(false);
		expect(hasWork({ ...opened, fields: fields({ isPrivate: true }) }, true)).toBe(true);
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

import { afterEach, describe, expect, it, vi } from 'vitest';
import { failureMeaning } from '@/islands/write/api';
import { clearLocalCopy, isBlank, readLocalCopy, sameWork, writeLocalCopy, type FormFields } from '@/islands/write/local-copy';
import { ResponseError, FetchError } from '@/lib/api-client';
import { localDraftStorageKey } from '@/lib/names';

const fields = (overrides: Partial<FormFields> = {}): FormFields => ({
	boardId: 12,
	subjectId: null,
	title: 'A title',
	content: { type: 'doc', blocks: [{ type: 'paragraph', children: [{ text: 'Body' }] }] },
	isPrivate: false,
	isNotice: false,
	...overrides,
});

const failure = (resultCode: number, body: unknown = null) => new ResponseError({ isSuccessful: false, resultCode, resultMessage: '' }, body);

describe('what a failed write means to the member (docs/reference/product-rules.md#errors-and-texts)', () => {
	const meaning = (error: unknown) => failureMeaning(error, '/starfall/global', '/starfall/global/write?boardId=12');

	it.each([-4011401, -4011402, -4011411, -4011415, -4011416])('%i is the forced login, back to this editor', (code) => {
		expect(meaning(failure(code))).toEqual({
			kind: 'forced-login',
			loginUrl: `/starfall/global/login?redirectUrl=${encodeURIComponent('/starfall/global/write?boardId=12')}`,
		});
	});

	it('the ban opens the ban dialog with its end', () => {
		expect(
			meaning(
				new FetchError(403, 'Forbidden', {
					header: { isSuccessful: false, resultCode: -4031452, resultMessage: '' },
					ban: { kind: 'TEMPORARY', endsAt: 1_800_000_000_000 },
				}),
			),
		).toEqual({ kind: 'ban', endsAt: 1_800_000_000_000 });
		expect(meaning(failure(-4031452, { ban: { kind: 'PERMANENT', endsAt: null } }))).toEqual({ kind: 'ban', endsAt: null });
	});

	it.each([-4001404, -4041405])('%i is the "subject disabled" alert', (code) => {
		expect(meaning(failure(code))).toEqual({ kind: 'subject-disabled' });
	});

	it('field rules, the edit conflict, the draft limit and too many requests have their own meaning', () => {
		expect(meaning(failure(-4001431))).toEqual({ kind: 'field', field: 'title', problem: 'required' });
		expect(meaning(failure(-4001432))).toEqual({ kind: 'field', field: 'title', problem: 'tooLong' });
		expect(meaning(failure(-4001433))).toEqual({ kind: 'field', field: 'content', problem: 'required' });
		expect(meaning(failure(-4001445))).toEqual({ kind: 'field', field: 'content', problem: 'tooManyImages' });
		expect(meaning(failure(-4091431))).toEqual({ kind: 'post-changed' });
		expect(meaning(failure(-4091441))).toEqual({ kind: 'draft-limit' });
		expect(meaning(failure(-4291401))).toEqual({ kind: 'too-many' });
	});

	it('anything else, a network failure included, is the generic failure', () => {
		expect(meaning(failure(-4031431))).toEqual({ kind: 'generic' });
		expect(meaning(new TypeError('Failed to fetch'))).toEqual({ kind: 'generic' });
		expect(meaning(new FetchError(500, 'Internal Server Error', null))).toEqual({ kind: 'generic' });
	});
});

describe('the local safety net', () => {
	const store = new Map<string, string>();
	vi.stubGlobal('localStorage', {
		getItem: (key: string) => store.get(key) ?? null,
		setItem: (key: string, value: string) => void store.set(key, value),
		removeItem: (key: string) => void store.delete(key),
	});
	afterEach(() => store.clear());
	const key = localDraftStorageKey('starfall', 'global', 1002, 'write');

	it('keeps one copy per community, member and screen', () => {
		expect(key).toBe('app:starfall-global-1002-editor:write');
		expect(localDraftStorageKey('starfall', 'global', 1002, { postId: 7 })).toBe('app:starfall-global-1002-editor:edit:7');
		expect(localDraftStorageKey('starfall', 'kr', 1002, 'write')).not.toBe(key);
	});

	it('reads back what it wrote, and forgets it when cleared', () => {
		const copy = { fields: fields(), draftId: 5, savedAt: 1_700_000_000_000 };
		writeLocalCopy(key, copy);
		expect(readLocalCopy(key)).toEqual(copy);
		clearLocalCopy(key);
		expect(readLocalCopy(key)).toBeNull();
	});

	it.each([
		['not JSON', '{'],
		['another shape', JSON.stringify({ title: 'x' })],
		['a bad board id', JSON.stringify({ fields: fields({ boardId: -1 }), draftId: null, savedAt: 1 })],
		['a body that is not a document', JSON.stringify({ fields: { ...fields(), content: '<p>hi</p>' }, draftId: null, savedAt: 1 })],
	])('ignores a stored value that is %s', (_, stored) => {
		store.set(key, stored);
		expect(readLocalCopy(key)).toBeNull();
	});

	it('compares work by every field, the body included', () => {
		expect(sameWork(fields(), fields())).toBe(true);
		expect(sameWork(fields(), fields({ title: 'Other' }))).toBe(false);
		expect(sameWork(fields(), fields({ subjectId: 121 }))).toBe(false);
		expect(sameWork(fields(), fields({ content: { type: 'doc', blocks: [] } }))).toBe(false);
	});

	it('counts a form with no title and no text, image or video as blank', () => {
		expect(isBlank(fields({ title: ' ', content: { type: 'doc', blocks: [{ type: 'paragraph', children: [{ text: '  ' }] }] } }))).toBe(true);
		expect(isBlank(fields({ title: '', content: { type: 'doc', blocks: [{ type: 'youtube', videoId: 'dQw4w9WgXcQ' }] } }))).toBe(false);
		expect(isBlank(fields({ content: { type: 'doc', blocks: [] } }))).toBe(false);
	});
});

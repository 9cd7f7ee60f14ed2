/**
 * The @ suggestions' pure parts (src/islands/mentions/): the @ the caret is typing, the text once a
 * member is picked, the local narrowing of an answer, and the source's cache (one request per
 * query, none for a longer query a shorter one already answered in full), and the menu's keys.
 */
import { describe, expect, it, vi } from 'vitest';
import { mentionAt, withMention } from '@/islands/mentions/candidate';
import { filterMembers, mentionSource } from '@/islands/mentions/suggestions';
import { menuKey } from '@/islands/mentions/use-mention-menu';
import { mentionCandidates } from '@/lib/mentions';

/** `text` with `|` as the caret: the candidate's query there. */
const queryAt = (marked: string) => {
	const caret = marked.indexOf('|');
	return mentionAt(marked.replace('|', ''), caret)?.query ?? null;
};

describe('mentionAt', () => {
	it('finds the @ the caret is typing, with the text up to the caret', () => {
		expect(mentionAt('hi @Ni', 6)).toEqual({ start: 3, end: 6, query: 'Ni' });
		expect(queryAt('@N|')).toBe('N');
		expect(queryAt('thanks @Night|')).toBe('Night');
		expect(queryAt('line one\n@Ni|')).toBe('Ni');
		expect(queryAt('(@Ni|')).toBe('Ni');
		expect(queryAt('「@별헤|')).toBe('별헤');
		expect(queryAt('@星見の|艦長')).toBe('星見の');
		expect(queryAt('@Nia @Ni|')).toBe('Ni');
	});

	it('finds nothing without a character after the @, after a space, or away from the @', () => {
		expect(queryAt('@|')).toBeNull();
		expect(queryAt('hello @|')).toBeNull();
		expect(queryAt('@Nia |')).toBeNull();
		expect(queryAt('@Nia hello|')).toBeNull();
		expect(queryAt('|@Nia')).toBeNull();
		expect(queryAt('')).toBeNull();
		expect(mentionAt('@Nia', 9)).toBeNull();
	});

	it('finds no mention where src/lib/mentions.ts sees none: an email address, @@, brackets, more than 30 characters', () => {
		expect(queryAt('me@example|')).toBeNull();
		expect(queryAt('a_@Ni|')).toBeNull();
		expect(queryAt('v1.@Ni|')).toBeNull();
		expect(queryAt('@@Ni|')).toBeNull();
		expect(queryAt('@[Ni|')).toBeNull();
		expect(queryAt('@Ni]|')).toBeNull();
		expect(queryAt('@Ｎｉ［|')).toBeNull();
		expect(queryAt(`@${'a'.repeat(30)}|`)).toBe('a'.repeat(30));
		expect(queryAt(`@${'a'.repeat(31)}|`)).toBeNull();
		expect(queryAt(`@${'별'.repeat(30)}|`)).toBe('별'.repeat(30));
		// Code points, not UTF-16 units: 30 characters outside the BMP are one mention too.
		expect(queryAt(`@${'𝒜'.repeat(30)}|`)).toBe('𝒜'.repeat(30));
	});

	it('agrees with mentionCandidates on where a mention starts and what it runs over', () => {
		for (const text of ['hi @NightWarden', 'mail me@host.com', '@a', 'x@y @Zed', '(@Nia)', '@@double', '@별헤는함장', `@${'q'.repeat(30)}`]) {
			const atEnd = mentionAt(text, text.length)?.query ?? null;
			const last = mentionCandidates(text).at(-1)?.[0] ?? null;
			// mentionCandidates drops one-character names (no nickname is that short); a query may be one character.
			if (atEnd !== null && [...atEnd].length >= 2 && text.endsWith(atEnd)) expect(last).toBe(atEnd);
			if (last !== null && text.endsWith(last)) expect(atEnd).toBe(last);
		}
	});
});

describe('withMention', () => {
	it('replaces the typed @ with "@Nickname " and puts the caret after the space', () => {
		const text = 'hi @ni';
		const candidate = mentionAt(text, text.length)!;
		expect(withMention(text, candidate, 'NightWarden')).toEqual({ text: 'hi @NightWarden ', caret: 16 });
	});

	it('keeps the text after the caret, and uses a space already there', () => {
		const text = 'hi @ni and more';
		const candidate = mentionAt(text, 6)!;
		expect(withMention(text, candidate, 'NightWarden')).toEqual({ text: 'hi @NightWarden and more', caret: 16 });
		const glued = 'hi @ni!';
		expect(withMention(glued, mentionAt(glued, 6)!, 'Nia')).toEqual({ text: 'hi @Nia !', caret: 8 });
		const line = '@ni\nnext';
		expect(withMention(line, mentionAt(line, 3)!, '별헤는함장')).toEqual({ text: '@별헤는함장 \nnext', caret: 7 });
	});
});

describe('filterMembers', () => {
	const members = [
		{ userId: 1, nickname: 'NightWarden' },
		{ userId: 2, nickname: 'nia' },
		{ userId: 3, nickname: 'Ｎｉｃｏ' },
		{ userId: 4, nickname: '별헤는함장' },
	];
	it('keeps the nicknames that start with the query by nickname key (case and full-width folded)', () => {
		expect(filterMembers(members, 'ni').map((member) => member.userId)).toEqual([1, 2, 3]);
		expect(filterMembers(members, 'NIG').map((member) => member.userId)).toEqual([1]);
		expect(filterMembers(members, 'ｎｉｃ').map((member) => member.userId)).toEqual([3]);
		expect(filterMembers(members, '별헤').map((member) => member.userId)).toEqual([4]);
		expect(filterMembers(members, 'x')).toEqual([]);
	});
});

describe('mentionSource', () => {
	const answer = (members: { userId: number; nickname: string }[]) =>
		new Response(JSON.stringify({ header: { isSuccessful: true, resultCode: 0, resultMessage: 'OK' }, content: { members } }), {
			headers: { 'Content-Type': 'application/json' },
		});
	const eight = Array.from({ length: 8 }, (_, index) => ({ userId: index + 1, nickname: `Nova${index}` }));

	it('asks with q and the user-id header, and remembers the answer by query', async () => {
		const fetch = vi.fn(async () => answer([{ userId: 7, nickname: 'NightWarden' }]));
		const source = mentionSource({ domain: 'starfall', slug: 'global' }, () => '1007', fetch);
		expect(source.known('Ni')).toBeNull();
		expect(await source.ask('Ni', new AbortController().signal)).toEqual([{ userId: 7, nickname: 'NightWarden' }]);
		const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
		expect(url).toBe('/v1/starfall/global/members/suggest?q=Ni');
		expect(new Headers(init.headers).get('X-User-Id')).toBe('1007');
		expect(source.known('Ni')).toEqual([{ userId: 7, nickname: 'NightWarden' }]);
		// Case folds as the API folds it: the same question.
		expect(source.known('ni')).toEqual([{ userId: 7, nickname: 'NightWarden' }]);
	});

	it('narrows a shorter query’s answer of fewer than 8 members instead of asking again', async () => {
		const fetch = vi.fn(async () =>
			answer([
				{ userId: 7, nickname: 'NightWarden' },
				{ userId: 8, nickname: 'Nia' },
			]),
		);
		const source = mentionSource({ domain: 'd', slug: 's' }, () => '1', fetch);
		await source.ask('N', new AbortController().signal);
		expect(source.known('Nig')).toEqual([{ userId: 7, nickname: 'NightWarden' }]);
		expect(source.known('Nx')).toEqual([]);
		expect(fetch).toHaveBeenCalledTimes(1);
	});

	it('asks again for a longer query when the shorter one filled all 8 places', async () => {
		const fetch = vi.fn(async () => answer(eight));
		const source = mentionSource({ domain: 'd', slug: 's' }, () => '1', fetch);
		await source.ask('N', new AbortController().signal);
		expect(source.known('No')).toBeNull();
	});

	it('answers a query that folds to nothing without asking', () => {
		const source = mentionSource({ domain: 'd', slug: 's' }, () => '1', vi.fn());
		expect(source.known('\u200b')).toEqual([]);
	});

	it('passes the abort signal on', async () => {
		const controller = new AbortController();
		const fetch = vi.fn(async (_url: string, init?: RequestInit) => {
			expect(init?.signal).toBe(controller.signal);
			controller.abort();
			throw new DOMException('aborted', 'AbortError');
		});
		const source = mentionSource({ domain: 'd', slug: 's' }, () => '1', fetch as unknown as typeof globalThis.fetch);
		await expect(source.ask('Ni', controller.signal)).rejects.toThrow('aborted');
		expect(source.known('Ni')).toBeNull();
	});
});

describe('menuKey', () => {
	const key = (name: string, extra: Partial<Record<'shiftKey' | 'altKey' | 'ctrlKey' | 'metaKey', boolean>> = {}) =>
		menuKey({ key: name, shiftKey: false, altKey: false, ctrlKey: false, metaKey: false, ...extra });
	it('moves with the arrows, picks with Enter or Tab, closes with Escape, and leaves the rest to the field', () => {
		expect(key('ArrowDown')).toBe('next');
		expect(key('ArrowUp')).toBe('previous');
		expect(key('Enter')).toBe('pick');
		expect(key('Tab')).toBe('pick');
		expect(key('Escape')).toBe('close');
		expect(key('Tab', { shiftKey: true })).toBeNull();
		expect(key('Enter', { ctrlKey: true })).toBeNull();
		expect(key('a')).toBeNull();
	});
});

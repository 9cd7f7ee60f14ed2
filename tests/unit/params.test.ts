import { describe, expect, it } from 'vitest';
import { IdSchema, PathSegmentSchema, lenientPage } from '@/schemas/params';
import { seqRange } from '@/server/posts/lists';

describe('ids', () => {
	it('accepts positive whole numbers up to 2^53 - 1', () => {
		expect(IdSchema.parse('12')).toBe(12);
		expect(IdSchema.parse(String(Number.MAX_SAFE_INTEGER))).toBe(Number.MAX_SAFE_INTEGER);
	});

	it('refuses zero, negatives, decimals, words and ids beyond 2^53', () => {
		for (const raw of ['0', '-1', '1.5', 'abc', '', '9007199254740993', '1e3', ' 1', '01']) {
			expect(IdSchema.safeParse(raw).success, raw).toBe(false);
		}
	});
});

describe('pages', () => {
	it('reads a missing, zero, negative or non-numeric page as page 1', () => {
		for (const raw of [null, '', '0', '-3', 'abc', '2.5']) expect(lenientPage(raw)).toBe(1);
		expect(lenientPage('7')).toBe(7);
	});

	it('maps a page to the sequence range it shows, newest first', () => {
		expect(seqRange(45, 1, 20)).toEqual({ from: 26, to: 45 });
		expect(seqRange(45, 3, 20)).toEqual({ from: 1, to: 5 });
		expect(seqRange(100_000, 2000, 20)).toEqual({ from: 60_001, to: 60_020 });
	});
});

describe('channel path segments', () => {
	it('accepts lower-case slugs and refuses anything else', () => {
		expect(PathSegmentSchema.safeParse('starfall').success).toBe(true);
		for (const raw of ['Starfall', 'a/b', '', '..', 'x'.repeat(64), '-a']) expect(PathSegmentSchema.safeParse(raw).success, raw).toBe(false);
	});
});

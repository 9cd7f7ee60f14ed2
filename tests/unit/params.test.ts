import { describe, expect, it } from 'vitest';
import { IdSchema, PathSegmentSchema, lenientPage, parseId } from '@/schemas/params';
import { newestRankOf } from '@/server/posts/lists';

describe('ids', () => {
	it('accepts positive whole numbers up to 2^53 - 1', () => {
		expect(IdSchema.parse('12')).toBe(12);
		expect(IdSchema.parse(String(Number.MAX_SAFE_INTEGER))).toBe(Number.MAX_SAFE_INTEGER);
		expect(parseId('12')).toBe(12);
		expect(parseId(String(Number.MAX_SAFE_INTEGER))).toBe(Number.MAX_SAFE_INTEGER);
	});

	it('refuses zero, negatives, decimals, words and ids beyond 2^53', () => {
		for (const raw of ['0', '-1', '1.5', 'abc', '', '9007199254740993', '1e3', ' 1', '01']) {
			expect(IdSchema.safeParse(raw).success, raw).toBe(false);
			expect(parseId(raw), raw).toBeNull();
		}
		expect(parseId(null)).toBeNull();
		expect(parseId(undefined)).toBeNull();
	});
});

describe('pages', () => {
	it('reads a missing, zero, negative or non-numeric page as page 1', () => {
		for (const raw of [null, '', '0', '-3', 'abc', '2.5']) expect(lenientPage(raw)).toBe(1);
		expect(lenientPage('7')).toBe(7);
	});

	it('maps a page to the rank of its newest post (1 = the oldest), 0 past the end', () => {
		expect(newestRankOf(45, 1, 20)).toBe(45);
		expect(newestRankOf(45, 3, 20)).toBe(5);
		expect(newestRankOf(45, 4, 20)).toBe(0);
		expect(newestRankOf(100_000, 2000, 20)).toBe(60_020);
	});
});

describe('channel path segments', () => {
	it('accepts lower-case slugs and refuses anything else', () => {
		expect(PathSegmentSchema.safeParse('starfall').success).toBe(true);
		for (const raw of ['Starfall', 'a/b', '', '..', 'x'.repeat(64), '-a']) expect(PathSegmentSchema.safeParse(raw).success, raw).toBe(false);
	});
});

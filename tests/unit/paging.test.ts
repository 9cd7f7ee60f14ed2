import { describe, expect, it } from 'vitest';
import { pageCount, shownPage } from '@/server/platform/paging';

describe('page counts', () => {
	it('counts the pages a list fills, a partial last page included', () => {
		expect(pageCount(1, 20)).toBe(1);
		expect(pageCount(20, 20)).toBe(1);
		expect(pageCount(21, 20)).toBe(2);
		expect(pageCount(45, 20)).toBe(3);
		expect(pageCount(100_000, 20)).toBe(5000);
	});

	it('gives an empty list one page', () => {
		expect(pageCount(0, 20)).toBe(1);
	});

	it('shows the page asked for, or the last page when it is past the end', () => {
		expect(shownPage(2, 45, 20)).toBe(2);
		expect(shownPage(3, 45, 20)).toBe(3);
		expect(shownPage(4, 45, 20)).toBe(3);
		expect(shownPage(999_999, 0, 20)).toBe(1);
	});
});

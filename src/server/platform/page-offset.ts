/** Paged lists read in one statement: the OFFSET of a page, the last page for one past the end. */
import { PAGE_SIZE } from '@/schemas/params';
import { pageCount } from '@/server/platform/paging';

/**
 * SQL for the OFFSET of page `pageParam` (bound to the page's number, from 1) of a list PAGE_SIZE a
 * page. With `countSql` (the list's count: a scalar query over the statement's own parameters) a
 * page past the end reads the last page instead, as the pages show it (shownPage, src/server/platform/paging.ts),
 * in the same statement rather than a second read once the count is known.
 */
export function pageOffsetSql(pageParam: `?${number}`, countSql?: string): string {
	const page = countSql === undefined ? pageParam : `min(${pageParam}, max(1, ((${countSql}) + ${PAGE_SIZE - 1}) / ${PAGE_SIZE}))`;
	return `(${page} - 1) * ${PAGE_SIZE}`;
}

/** The count a `SELECT count(*) AS …` statement read (its first row's only column), 0 when it read none. */
export function countOf(result: D1Result | undefined): number {
	const row = result?.results[0] as Record<string, unknown> | undefined;
	return Number((row && Object.values(row)[0]) ?? 0);
}

/** A page's `items` with its place in a list of `totalCount`: page `asked`, or with `lastPage` the last page when it is past the end. */
export function pageOf<T extends object>(
	items: T,
	totalCount: number,
	asked: number,
	lastPage: boolean,
): T & { page: number; totalCount: number; totalPages: number } {
	const totalPages = pageCount(totalCount, PAGE_SIZE);
	return { ...items, page: lastPage ? Math.min(asked, totalPages) : asked, totalCount, totalPages };
}

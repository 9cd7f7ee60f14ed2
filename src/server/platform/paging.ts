/** Paged lists: how many pages a list has, and which page a reader who asks for one is shown. */

/** The pages a list of `total` items fills, `size` a page: at least one, since an empty list still shows its (empty) first page. */
export function pageCount(total: number, size: number): number {
	return Math.max(1, Math.ceil(total / size));
}

/** The page shown for `asked`: the last page when it is past the end (an old link, a hand-typed number), as every list does. */
export function shownPage(asked: number, total: number, size: number): number {
	return Math.min(asked, pageCount(total, size));
}

/**
 * The reference of the search recall tests and bench: every listed post of a channel whose
 * searched fields contain the query, found by a plain scan of the rows (normalised as the index
 * normalises them, then String.includes, which is instr), newest first.
 */
import { normalizeSearchText } from '@/server/search-index/search-text';
import type { SearchType } from './search';

export interface ScannedPost {
	id: number;
	title: string;
	content_text: string;
	nickname: string | null;
	withdrawn_at: number | null;
}

/** Posts read per query of listedPostsForScan: a page of answers, not one of a whole community's texts. */
const SCAN_PAGE = 10_000;

/**
 * The listed posts of a channel with their author, newest first: what scanPosts looks through; with
 * `limit`, only the newest so many (a million posts do not fit in the bench's memory). Read by keyset
 * in pages of SCAN_PAGE.
 */
export async function listedPostsForScan(db: Db, channelId: number, limit = Number.POSITIVE_INFINITY): Promise<ScannedPost[]> {
	const posts: ScannedPost[] = [];
	for (let before = Number.MAX_SAFE_INTEGER; posts.length < limit; ) {
		const take = Math.min(SCAN_PAGE, limit - posts.length);
		const { results } = await db
			.prepare(
				`SELECT p.id, p.title, p.content_text, m.nickname, m.withdrawn_at FROM posts p JOIN members m ON m.id = p.member_id
				 WHERE p.channel_id = ?1 AND p.channel_seq IS NOT NULL AND p.id < ?2 ORDER BY p.id DESC LIMIT ?3`,
			)
			.bind(channelId, before, take)
			.all<ScannedPost>();
		posts.push(...results);
		if (results.length < take) break;
		before = results[results.length - 1]!.id;
	}
	return posts;
}

/** The ids of `posts` containing `query` in the type's fields. */
export function scanPosts(posts: ScannedPost[], query: string, type: SearchType): number[] {
	const needle = normalizeSearchText(query);
	return posts
		.filter((row) => {
			const title = normalizeSearchText(row.title).includes(needle);
			if (type === 'TITLE') return title;
			const body = normalizeSearchText(row.content_text).includes(needle);
			if (type === 'CONTENT') return body;
			if (type === 'TITLE_AND_CONTENT') return title || body;
			return title || body || (row.withdrawn_at === null && row.nickname !== null && normalizeSearchText(row.nickname).includes(needle));
		})
		.map((row) => row.id);
}

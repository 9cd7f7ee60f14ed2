/**
 * What crawlers and feed readers are given of a channel (docs/reference/seo.md): the sitemaps and the Atom
 * feeds. Everything here is what a guest can read: a post is in them while it is listed in All Posts
 * (visible, not private, in a board everyone reads: src/server/list-positions/), and a board while
 * everyone may read it. Every read is bounded whatever the size of the community:
 * - the sitemap index reads one row (the highest All Posts position);
 * - a posts sitemap reads the posts of one range of SITEMAP_POSTS_PER_FILE positions, through the
 *   All Posts index (keyset: never an OFFSET);
 * - a feed reads its FEED_ENTRIES newest posts through its list's index, with their authors.
 */
import { all } from '@/server/platform/db';
import { read, run, type Read } from '@/server/platform/reads';
import type { LayoutData } from '@/server/channels/layout';
import { canReadBoard, GUEST } from '@/server/visibility/visibility';
import { storedFirstImage, storedText } from '@/server/platform/excerpt';

/** Posts per sitemap file: a tenth of the 50,000 a sitemap may hold, so that building one reads at most this many rows. */
export const SITEMAP_POSTS_PER_FILE = 5000;
/** Entries of a feed. */
export const FEED_ENTRIES = 20;

/** The boards everyone may read, in the layout's order. */
export function publicBoards(layout: LayoutData) {
	return layout.boards.filter((board) => canReadBoard(board, GUEST));
}

/** How many posts sitemaps the channel has: one per range of SITEMAP_POSTS_PER_FILE All Posts positions up to the highest listed. */
export function postsSitemapCountRead(db: Db, channelId: number): Read<number> {
	return read(db.prepare('SELECT max(channel_seq) AS top FROM posts WHERE channel_id = ?1 AND channel_seq IS NOT NULL').bind(channelId), (result) => {
		const top = (result.results[0] as { top: number | null } | undefined)?.top ?? 0;
		return Math.ceil(top / SITEMAP_POSTS_PER_FILE);
	});
}

/** How many posts sitemaps the channel has (postsSitemapCountRead). */
export async function postsSitemapCount(db: Db, channelId: number): Promise<number> {
	return run(db, postsSitemapCountRead(db, channelId));
}

export interface SitemapPost {
	id: number;
	/** The post's last visible change: its edit, else its publication (ms). */
	changedAt: number;
}

/** The listed posts of sitemap `part` (1-based): those at All Posts positions of its range. */
export function sitemapPostsRead(db: Db, channelId: number, part: number): Read<SitemapPost[]> {
	const first = (part - 1) * SITEMAP_POSTS_PER_FILE + 1;
	const statement = db
		.prepare(
			`SELECT id, coalesce(edited_at, created_at) AS changedAt FROM posts
			 WHERE channel_id = ?1 AND channel_seq BETWEEN ?2 AND ?3 ORDER BY channel_seq`,
		)
		.bind(channelId, first, first + SITEMAP_POSTS_PER_FILE - 1);
	return read(statement, (result) => result.results as SitemapPost[]);
}

/** The listed posts of sitemap `part` (sitemapPostsRead). */
export async function sitemapPosts(db: Db, channelId: number, part: number): Promise<SitemapPost[]> {
	return run(db, sitemapPostsRead(db, channelId, part));
}

export interface FeedEntry {
	id: number;
	title: string;
	/** Plain text of the body, without its images' alt text (storedText). */
	text: string;
	/** The first image of the body (a path on this site), or null. */
	image: string | null;
	authorName: string | null;
	createdAt: number;
	changedAt: number;
}

interface FeedRow {
	id: number;
	title: string;
	content: string;
	nickname: string | null;
	withdrawn_at: number | null;
	created_at: number;
	changed_at: number;
}

const FEED_COLUMNS = `p.id, p.title, p.content, m.nickname, m.withdrawn_at, p.created_at, coalesce(p.edited_at, p.created_at) AS changed_at
	FROM posts p JOIN members m ON m.id = p.member_id`;

/**
 * The newest listed posts of All Posts, or of one board everyone may read (`boardId`; the caller
 * checks that it is one).
 */
export async function feedEntries(db: Db, channelId: number, boardId: number | null): Promise<FeedEntry[]> {
	const statement =
		boardId === null
			? db
					.prepare(`SELECT ${FEED_COLUMNS} WHERE p.channel_id = ?1 AND p.channel_seq IS NOT NULL ORDER BY p.channel_seq DESC LIMIT ?2`)
					.bind(channelId, FEED_ENTRIES)
			: db
					.prepare(
						`SELECT ${FEED_COLUMNS} WHERE p.board_id = ?1 AND p.board_seq IS NOT NULL AND p.channel_id = ?2 AND p.channel_seq IS NOT NULL ORDER BY p.board_seq DESC LIMIT ?3`,
					)
					.bind(boardId, channelId, FEED_ENTRIES);
	const rows = await all<FeedRow>(statement);
	return rows.map((row) => ({
		id: row.id,
		title: row.title,
		text: storedText(row.content),
		image: storedFirstImage(row.content),
		authorName: row.withdrawn_at === null ? row.nickname : null,
		createdAt: row.created_at,
		changedAt: row.changed_at,
	}));
}

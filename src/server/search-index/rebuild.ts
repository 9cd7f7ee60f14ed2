/**
 * Builds the search index (migrations/0010) again from the posts and members as they are, with the
 * services' own statements (search-index.ts): `npm run search -- reindex` for a database that had posts
 * before the migration or to repair one, and a restore (src/server/backup/restore.ts), which loads a
 * backup without its full-text tables. Each post's entry is removed and, while the post is listed,
 * written again.
 */
import { memberSearchStatements, postSearchStatements } from './search-index';

/**
 * Posts (or members) a batch: each post's index entry is several FTS5 statements. Through the local
 * platform proxy (`npm run restore`, `npm run search -- reindex` on local state), workerd dropped the
 * connection on a batch of 200, and on the demo database's first batch of 50 (under load: a restore
 * of the demo's 1,260 posts failed there every time); batches of 10 went through.
 */
const PAGE = 10;

export interface Reindexed {
	posts: number;
	listed: number;
	members: number;
}

export async function rebuildSearchIndex(db: Db): Promise<Reindexed> {
	let posts = 0;
	for (let after = 0; ; ) {
		const { results } = await db
			.prepare('SELECT id, channel_id, title, content_text FROM posts WHERE id > ?1 ORDER BY id LIMIT ?2')
			.bind(after, PAGE)
			.all<{ id: number; channel_id: number; title: string; content_text: string }>();
		if (results.length === 0) break;
		await db.batch(results.flatMap((row) => postSearchStatements(db, row.channel_id, row.id, { title: row.title, body: row.content_text })));
		posts += results.length;
		after = results.at(-1)!.id;
	}
	let members = 0;
	for (let after = 0; ; ) {
		const { results } = await db
			.prepare('SELECT id, channel_id, nickname, withdrawn_at FROM members WHERE id > ?1 ORDER BY id LIMIT ?2')
			.bind(after, PAGE)
			.all<{ id: number; channel_id: number; nickname: string | null; withdrawn_at: number | null }>();
		if (results.length === 0) break;
		await db.batch(results.flatMap((row) => memberSearchStatements(db, row.channel_id, row.id, row.withdrawn_at === null ? row.nickname : null)));
		members += results.length;
		after = results.at(-1)!.id;
	}
	const listed = (await db.prepare('SELECT count(*) AS n FROM post_search_docsize').first<number>('n')) ?? 0;
	return { posts, listed, members };
}

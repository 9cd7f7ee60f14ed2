/**
 * The size of a local state folder's databases, table by table (SQLite's dbstat, read from the file
 * with Node's own SQLite, read-only: D1 does not let a query read dbstat), grouped as the scale plan
 * counts them (docs/reference/scale-plan.md): posts with their indexes, comments, likes, the search
 * index, the rest. Run it on a folder no server has open. Prints one JSON line per database file.
 *
 *   node scripts/bench-size.mjs --persist-to /tmp/bench-1m
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DatabaseSync } from 'node:sqlite';

const { values } = parseArgs({ options: { 'persist-to': { type: 'string', default: '.wrangler/state' } } });
const dir = path.join(path.resolve(values['persist-to']), 'v3', 'd1', 'miniflare-D1DatabaseObject');

/** The group of a table or index by its name. */
function groupOf(name) {
	if (name.startsWith('post_search')) return 'searchIndex';
	if (name === 'posts' || name.startsWith('posts_')) return 'posts';
	if (name === 'comments' || name.startsWith('comments_')) return 'comments';
	if (name === 'post_likes' || name.startsWith('post_likes') || name === 'sqlite_autoindex_post_likes_1') return 'likes';
	return 'other';
}

for (const file of readdirSync(dir).filter((name) => name.endsWith('.sqlite') && name !== 'metadata.sqlite')) {
	const db = new DatabaseSync(path.join(dir, file), { readOnly: true });
	const pageSize = Number(db.prepare('PRAGMA page_size').get().page_size);
	const pages = Number(db.prepare('PRAGMA page_count').get().page_count);
	const groups = {};
	for (const { name, bytes } of db.prepare('SELECT name, sum(pgsize) AS bytes FROM dbstat GROUP BY name').all())
		groups[groupOf(String(name))] = (groups[groupOf(String(name))] ?? 0) + Number(bytes);
	const counts = db
		.prepare('SELECT (SELECT count(*) FROM posts) AS posts, (SELECT count(*) FROM comments) AS comments, (SELECT count(*) FROM post_likes) AS likes')
		.get();
	db.close();
	console.log(JSON.stringify({ file, bytes: pageSize * pages, groups, rows: { ...counts } }));
}

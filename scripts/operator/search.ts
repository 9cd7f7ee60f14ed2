/**
 * `npm run search -- reindex`: builds the search index (migrations/0010) again from the posts and
 * members as they are, with the services' own statements (src/server/search-index/search-index.ts). The
 * services keep it current on every change; this is for a database that had posts before the
 * migration, or to repair one. Options: --persist-to DIR (another local state folder), --remote
 * (the deployed database; needs `wrangler login`).
 */
import { parseArgs } from 'node:util';
import { memberSearchStatements, postSearchStatements } from '@/server/search-index/search-index';
import { openDatabase } from './database';

/**
 * Posts (or members) a batch: each post's index entry is several FTS5 statements, and a batch of 200
 * through the local platform proxy could run long enough on a loaded machine for workerd to drop it.
 */
const PAGE = 50;

export async function main(argv: string[]): Promise<number> {
	const { values, positionals } = parseArgs({
		args: argv,
		allowPositionals: true,
		options: { 'persist-to': { type: 'string' }, remote: { type: 'boolean', default: false } },
	});
	if (positionals[0] !== 'reindex') {
		console.error('Usage: npm run search -- reindex [--persist-to DIR] [--remote]');
		return 2;
	}
	const { databases, close } = await openDatabase({ remote: values.remote, persistTo: values['persist-to'] });
	try {
		// Each database's index holds its own communities' posts and members (docs/reference/databases.md).
		for (const name of databases.names) await reindex(name, databases.open(name));
		return 0;
	} finally {
		await close();
	}
}

/** Builds `db`'s index again from its posts and members. */
async function reindex(name: string, db: Db): Promise<void> {
	let posts = 0;
	for (let after = 0; ; ) {
		const { results } = await db
			.prepare('SELECT id, channel_id, title, content_text FROM posts WHERE id > ?1 ORDER BY id LIMIT ?2')
			.bind(after, PAGE)
			.all<{ id: number; channel_id: number; title: string; content_text: string }>();
		if (results.length === 0) break;
		// Each post's entry is removed and, while it is listed, written again: the services' rule.
		await db.batch(results.flatMap((row) => postSearchStatements(db, row.channel_id, row.id, { title: row.title, body: row.content_text })));
		posts += results.length;
		after = results.at(-1)!.id;
	}
	const { results: members } = await db
		.prepare('SELECT id, channel_id, nickname, withdrawn_at FROM members')
		.all<{ id: number; channel_id: number; nickname: string | null; withdrawn_at: number | null }>();
	for (let start = 0; start < members.length; start += PAGE) {
		const page = members.slice(start, start + PAGE);
		await db.batch(page.flatMap((row) => memberSearchStatements(db, row.channel_id, row.id, row.withdrawn_at === null ? row.nickname : null)));
	}
	const listed = await db.prepare('SELECT count(*) AS n FROM post_search_docsize').first<number>('n');
	console.log(`${name}: indexed ${listed} listed posts of ${posts}, and ${members.length} members' nicknames.`);
}

/**
 * `npm run search -- reindex`: builds the search index (migrations/0010) again from the posts and
 * members as they are, with the services' own statements (src/server/search-index/rebuild.ts). The
 * services keep it current on every change; this is for a database that had posts before the
 * migration, or to repair one. Options: --persist-to DIR (another local state folder), --remote
 * (the deployed database; needs `wrangler login`).
 */
import { parseArgs } from 'node:util';
import { rebuildSearchIndex } from '@/server/search-index/rebuild';
import { openDatabase } from './database';

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
		for (const name of databases.names) {
			const { posts, listed, members } = await rebuildSearchIndex(databases.open(name));
			console.log(`${name}: indexed ${listed} listed posts of ${posts}, and ${members} members' nicknames.`);
		}
		return 0;
	} finally {
		await close();
	}
}

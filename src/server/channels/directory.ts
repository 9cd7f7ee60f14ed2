/**
 * The directory of the communities a deployment serves, shown at the site root. An isolate keeps
 * the list for DIRECTORY_TTL_MS, so the root costs one D1 query per isolate and half minute, and a
 * new community appears within that time.
 */
import { all } from '@/server/platform/db';
import { createMemo } from '@/server/platform/memo';
import { LanguageSchema, type Language } from '@/schemas/channel';
import { channelPath } from '@/lib/urls';

export interface CommunityListing {
	title: string;
	language: Language;
	path: string;
}

const DIRECTORY_TTL_MS = 30_000;
const memo = createMemo<CommunityListing[]>(1);

async function readDirectory(db: Db): Promise<CommunityListing[]> {
	const rows = await all<{ domain: string; slug: string; title: string; language: string }>(
		db.prepare('SELECT domain, slug, title, language FROM channels ORDER BY domain, id'),
	);
	return rows.map((row) => {
		const language = LanguageSchema.safeParse(row.language);
		return { title: row.title, language: language.success ? language.data : 'en', path: channelPath(row) };
	});
}

/** Every community, grouped by domain in the order they were created. */
export function listCommunities(db: Db, now = Date.now()): Promise<CommunityListing[]> {
	return memo.read(
		'all',
		now,
		(at) => now - at < DIRECTORY_TTL_MS,
		() => readDirectory(db),
	);
}

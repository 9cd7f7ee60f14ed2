/**
 * The search part of `npm run bench`, on the bench's local D1 with the 100,000-post
 * channel: recall of 200 sampled queries (50 of each language, or --samples per language: ko, ja, zh, en; 2, 3 and 4 to 12 characters; from titles
 * and bodies; every search type) against a plain scan of the same visible posts, then for each
 * kind of query the time of a results page's reads (p50/p95 over the runs, through the local
 * runtime) and the rows D1 says they read, and the index's size. Prints one JSON line.
 * With --scan-limit N (a community too large to scan in memory), the scan reads the newest N posts
 * only, and a sampled query is compared only when those hold more than the count cap of its matches
 * (so the newest matches the search returns are all among them); the others are counted as skipped.
 * Usage: main(['--persist-to', dir, '--runs', '20', '--samples', '50', '--scan-limit', '50000']).
 */
import { parseArgs } from 'node:util';
import { matchingPostIds, searchPosts, SEARCH_COUNT_CAP, SEARCH_MAX_PAGE, type SearchType } from '@/server/search/search';
import { listedPostsForScan, scanPosts } from '@/server/search/scan';
import { openDatabase } from './database';
import { metered, percentile } from './metered';

const CHANNEL = 9;
const TYPES: SearchType[] = ['TITLE_AND_CONTENT', 'TITLE', 'CONTENT', 'ALL'];

/** A deterministic generator (mulberry32), so every run samples the same queries. */
function generator(seed: number) {
	let state = seed;
	const next = () => {
		state = (state + 0x6d2b79f5) | 0;
		let t = Math.imul(state ^ (state >>> 15), 1 | state);
		t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
	return { int: (low: number, high: number) => low + Math.floor(next() * (high - low + 1)) };
}

const SCRIPTS: Record<string, RegExp> = {
	ko: /\p{Script=Hangul}/u,
	ja: /[\p{Script=Hiragana}\p{Script=Katakana}]/u,
	zh: /\p{Script=Han}/u,
	en: /^[\x20-\x7e]+$/,
};

function languageOf(text: string): string {
	if (SCRIPTS['ko']!.test(text)) return 'ko';
	if (SCRIPTS['ja']!.test(text)) return 'ja';
	if (SCRIPTS['zh']!.test(text)) return 'zh';
	return 'en';
}

export async function main(argv: string[]): Promise<number> {
	const { values } = parseArgs({
		args: argv,
		options: {
			'persist-to': { type: 'string' },
			runs: { type: 'string', default: '20' },
			samples: { type: 'string', default: '50' },
			'scan-limit': { type: 'string' },
		},
	});
	const runs = Math.max(3, Number(values.runs));
	const perLanguage = Math.max(1, Number(values.samples));
	const scanLimit = values['scan-limit'] === undefined ? 0 : Number(values['scan-limit']);
	const { db, close } = await openDatabase({ remote: false, persistTo: values['persist-to'] });
	try {
		const posts = await listedPostsForScan(db, CHANNEL, scanLimit > 0 ? scanLimit : undefined);
		if (posts.length === 0) throw new Error('The bench channel is empty: run the bench seed first');

		// Recall: `perLanguage` queries per language, cut from the posts of that language.
		const rng = generator(20261123);
		const byLanguage = new Map<string, typeof posts>();
		for (const post of posts) {
			const language = languageOf(post.title + post.content_text);
			byLanguage.set(language, [...(byLanguage.get(language) ?? []), post]);
		}
		const samples: { query: string; type: SearchType; language: string }[] = [];
		for (const language of ['ko', 'ja', 'zh', 'en']) {
			const pool = byLanguage.get(language) ?? [];
			const seen = new Set<string>();
			while (seen.size < perLanguage && pool.length > 0) {
				const post = pool[rng.int(0, pool.length - 1)]!;
				const text = Array.from((rng.int(0, 2) === 0 ? post.title : post.content_text).replace(/\s+/g, ' ').trim());
				const length = [2, 3, rng.int(4, 12)][seen.size % 3]!;
				if (text.length < length) continue;
				const start = rng.int(0, text.length - length);
				const query = text
					.slice(start, start + length)
					.join('')
					.trim();
				if (Array.from(query).length < 2 || seen.has(query)) continue;
				seen.add(query);
				samples.push({ query, type: TYPES[samples.length % TYPES.length]!, language });
			}
		}
		let exact = 0;
		let capped = 0;
		let skipped = 0;
		const misses: string[] = [];
		for (const { query, type, language } of samples) {
			const expected = scanPosts(posts, query, type);
			if (scanLimit > 0 && expected.length <= SEARCH_COUNT_CAP) {
				skipped += 1;
				continue;
			}
			const found = await matchingPostIds(db, CHANNEL, query, type, SEARCH_COUNT_CAP + 1);
			// Beyond the cap, the newest SEARCH_COUNT_CAP + 1 must be the scan's newest.
			if (expected.length > SEARCH_COUNT_CAP) capped += 1;
			const same = JSON.stringify(found) === JSON.stringify(expected.slice(0, SEARCH_COUNT_CAP + 1));
			if (same) exact += 1;
			else misses.push(`${language} ${type} "${query}": ${found.length} found, ${expected.length} by scan`);
		}

		// Speed and rows read, per kind of query.
		const common = (language: string, length: number) => {
			// The most frequent n-gram of the language's titles: a "very common" query.
			const counts = new Map<string, number>();
			for (const post of (byLanguage.get(language) ?? []).slice(0, 2000)) {
				const chars = Array.from(post.title.toLowerCase());
				for (let i = 0; i + length <= chars.length; i += 1) {
					const gram = chars.slice(i, i + length).join('');
					if (!gram.includes(' ')) counts.set(gram, (counts.get(gram) ?? 0) + 1);
				}
			}
			return [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 'ab';
		};
		const kinds: Record<string, { query: string; type?: SearchType; page?: number }> = {
			'ko 2 chars, common': { query: common('ko', 2) },
			'ja 2 chars, common': { query: common('ja', 2) },
			'zh 2 chars, common': { query: common('zh', 2) },
			'en 3 chars, common': { query: common('en', 3) },
			'en 3 chars, common, page 50': { query: common('en', 3), page: SEARCH_MAX_PAGE },
			'ko 2 chars, common, ALL': { query: common('ko', 2), type: 'ALL' },
			'nickname, ALL': {
				query: Array.from(posts[0]?.nickname ?? 'ab')
					.slice(0, 5)
					.join(''),
				type: 'ALL',
			},
			'en word, rare': { query: 'zyxwv' },
			'ko 4 chars, rare': { query: '없는검색어' },
			'en 12 chars, phrase': {
				query: samples.find((sample) => sample.language === 'en' && Array.from(sample.query).length >= 8)?.query ?? 'the second',
			},
		};
		// Two times per search: the database's own (D1's meta.duration of the page's two reads) and
		// the whole call through wrangler's platform proxy (a local HTTP round trip, about 25 ms, is
		// part of it: the rare queries, which read 2 rows, show that floor).
		const speed: Record<
			string,
			{ query: string; found: number; capped: boolean; sqlP50Ms: number; sqlP95Ms: number; callP50Ms: number; callP95Ms: number; rowsRead: number }
		> = {};
		for (const [name, { query, type = 'TITLE_AND_CONTENT', page = 1 }] of Object.entries(kinds)) {
			const calls: number[] = [];
			const sql: number[] = [];
			let rowsRead = 0;
			let result;
			for (let run = 0; run < runs; run += 1) {
				const cost = { rowsRead: 0, rowsWritten: 0, sqlMs: 0 };
				const started = performance.now();
				result = await searchPosts(metered(db, cost), CHANNEL, query, type, page);
				calls.push(performance.now() - started);
				sql.push(cost.sqlMs);
				rowsRead = cost.rowsRead;
			}
			speed[name] = {
				query,
				found: result!.totalCount,
				capped: result!.capped,
				sqlP50Ms: percentile(sql, 50),
				sqlP95Ms: percentile(sql, 95),
				callP50Ms: percentile(calls, 50),
				callP95Ms: percentile(calls, 95),
				rowsRead,
			};
		}

		const size = await db
			.prepare(
				`SELECT (SELECT coalesce(sum(length(block)), 0) FROM post_search_data) + (SELECT coalesce(sum(length(sz)), 0) FROM post_search_docsize)
					+ (SELECT count(*) * 24 FROM post_search_idx) AS bytes, (SELECT count(*) FROM post_search_docsize) AS entries`,
			)
			.first<{ bytes: number; entries: number }>();
		console.log(JSON.stringify({ recall: { samples: samples.length, exact, capped, skipped, misses: misses.slice(0, 10) }, speed, index: size }));
		return misses.length === 0 ? 0 : 1;
	} finally {
		await close();
	}
}

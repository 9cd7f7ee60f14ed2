/**
 * The benchmark profile: one channel (/bench/large) with many posts, for `npm run bench`, made in
 * the database by SQL in batches (INSERT … SELECT over a recursive CTE), not row by row from here:
 * a million posts would be about 2 GB of SQL text. Deterministic (a row's every value is a function
 * of its number n), so any batch can be made again and a seed that stops can go on where it stopped.
 *
 * - Posts take turns in English, Korean, Japanese and Chinese (the demo's texts); 60% go to one
 *   board (91) so that deep pages exist, 20% to each of the two others; a title and two paragraphs
 *   each, from the language's pool for the board (staging tables bench_seed_*, made from
 *   scripts/seed/content/*.mjs with their search documents computed here by searchDocument, so the
 *   search index holds exactly what the Worker would write).
 * - Each post has 0 to 4 comments (2 on average) and 0 to 5 likes (2.5 on average) as rows, by
 *   members of the channel's 200, with the counters and the hot score to match.
 * - Each batch (BATCH posts) writes its posts, their comments, likes and search entries in one
 *   transaction (one D1 batch); the channel's, boards' and categories' counts are set at the end.
 *   The channel's listed_count is the seed's total only once every batch is in: `npm run bench`
 *   takes a database with another count for one to seed again.
 */
import { nicknameKey } from '../../src/lib/nickname-key.ts';
import { nicknameBareSkeleton, nicknameSkeleton } from '../../src/server/accounts/nickname-skeleton.ts';
import { searchDocument } from '../../src/server/search-index/search-text.ts';
import en from './content/en.mjs';
import ko from './content/ko.mjs';
import ja from './content/ja.mjs';
import zh from './content/zh.mjs';
import { CHANNEL_SPAN, COLUMNS, SEED_NOW, deleteChannelsSql, hotScoreSql, insertRows, listTopsOnlySql, searchIndexSql } from './demo.mjs';
// Board names, descriptions, categories and the footer's company come from the English demo community's file.
import starfallGlobal from '../../channels/starfall-global.json' with { type: 'json' };

export const BENCH_CHANNEL = { id: 9, domain: 'bench', slug: 'large' };
const BOARDS = [91, 92, 93];
const KEYS = ['general', 'guides', 'bugs'];
const MEMBERS = 200;
const LANGUAGES = [en, ko, ja, zh];
/** Posts per transaction: about 2 s each on a busy two-core machine. */
const BATCH = 5_000;
/** The most posts the channel's id ranges hold (posts 9,000,001 on; comments 5 ids a post). */
const MAX_POSTS = 2_000_000;
const CREATED = SEED_NOW - 800 * 86_400_000;
const SPREAD_MS = 790 * 86_400_000;
/** The staging tables the batches read; dropped when the seed is complete. */
const STAGING = ['bench_seed_state', 'bench_seed_groups', 'bench_seed_titles', 'bench_seed_paragraphs', 'bench_seed_comments', 'bench_seed_pattern'];

const channelId = BENCH_CHANNEL.id;
const memberBase = channelId * 100_000;
const postBase = channelId * 1_000_000;
const commentBase = channelId * 10_000_000;

/** Board index (0..2) of post n: 60%, 20%, 20% in a period of 10. */
const boardIndexOf = (n) => (n % 10 < 6 ? 0 : n % 10 < 8 ? 1 : 2);
/** The period of a post's board and category (n % 3): 30. */
const PERIOD = 30;

/** The English demo community's board of `key`: its name, description and categories. */
function demoBoard(key) {
	const board = starfallGlobal.boards.find((candidate) => candidate.key === key);
	if (!board) throw new Error(`channels/starfall-global.json has no board ${key}`);
	return board;
}

/**
 * A number from 0 to 2^31 − 2 that looks random, of the SQL expression `n` and a salt: two steps of
 * the Park–Miller generator (64-bit integers all along: n below 10^9).
 */
const hash = (n, salt) => `((((${n}) + ${salt}) * 48271 % 2147483647) * 48271 % 2147483647)`;
const commentsOf = (n) => `(${hash(n, 3)} % 5)`;
const likesOf = (n) => `(${hash(n, 5)} % 6)`;

/** Per position in the period of 30: the board, the category, and the list positions it adds to. */
function patternRows() {
	const rows = [];
	const boardSeen = [0, 0, 0];
	const subjectSeen = {};
	for (let r = 0; r < PERIOD; r += 1) {
		const board = boardIndexOf(r);
		const subject = BOARDS[board] * 10 + (r % 3) + 1;
		boardSeen[board] += 1;
		subjectSeen[subject] = (subjectSeen[subject] ?? 0) + 1;
		rows.push({ r, board, subject, boardIn: boardSeen[board], subjectIn: subjectSeen[subject] });
	}
	return rows.map((row) => [
		row.r,
		row.board,
		BOARDS[row.board],
		row.subject,
		row.boardIn,
		boardSeen[row.board],
		row.subjectIn,
		subjectSeen[row.subject],
	]);
}

/** How many of the first `total` posts each board and category lists. */
function listCounts(total) {
	const boards = {};
	const subjects = {};
	const full = Math.floor(total / PERIOD);
	for (const [r, , boardId, subjectId] of patternRows()) {
		const times = full + (r < total % PERIOD ? 1 : 0);
		boards[boardId] = (boards[boardId] ?? 0) + times;
		subjects[subjectId] = (subjects[subjectId] ?? 0) + times;
	}
	return { boards, subjects };
}

/**
 * A post's body is two paragraphs joined in SQL: its document, its text and its search document.
 * The search document of "a\nb" is a's terms, the two terms across the line break (a's last
 * character with the space, the space with b's first), then b's; each paragraph keeps its part
 * (`doc`, `tail`, `head`), and every pair is checked here against searchDocument of the joined text.
 */
function paragraphRow(id, text) {
	const doc = searchDocument(text);
	const count = doc === '' ? 0 : doc.split(' ').length;
	return [
		id,
		JSON.stringify({ type: 'paragraph', children: [{ text }] }),
		text,
		doc,
		searchDocument(`${text}\nzz`).split(' ')[count],
		searchDocument(`zz\n${text}`).split(' ')[2],
	];
}

/** The body's search document in SQL, of paragraph rows `a` and `b` (paragraphRow's columns). */
const bodyDocSql = (a, b) => `${a}.doc || ' ' || ${a}.tail || ' ' || ${b}.head || ' ' || ${b}.doc`;

/** The staging tables' rows: per language and board, its titles and paragraphs; per language, its comments. */
function poolRows() {
	const groups = [];
	const titles = [];
	const paragraphs = [];
	const comments = [];
	LANGUAGES.forEach((content, language) => {
		const commentBaseId = comments.length;
		for (const text of content.comments) comments.push([comments.length, text]);
		KEYS.forEach((key, board) => {
			const titleBase = titles.length;
			for (const title of content.titles[key]) titles.push([titles.length, title, searchDocument(title)]);
			const paragraphBase = paragraphs.length;
			for (const text of content.paragraphs[key]) paragraphs.push(paragraphRow(paragraphs.length, text));
			for (const a of paragraphs.slice(paragraphBase))
				for (const b of paragraphs.slice(paragraphBase)) {
					const joined = `${a[3]} ${a[4]} ${b[5]} ${b[3]}`;
					if (joined !== searchDocument(`${a[2]}\n${b[2]}`))
						throw new Error(`the bench's search document of paragraphs ${a[0]} and ${b[0]} is not the Worker's`);
				}
			groups.push([
				language,
				board,
				titleBase,
				titles.length - titleBase,
				paragraphBase,
				paragraphs.length - paragraphBase,
				commentBaseId,
				content.comments.length,
			]);
		});
	});
	return { groups, titles, paragraphs, comments };
}

/** The channel, its boards, categories, menu, members and their search entries, and the staging tables. */
function setupSql(total) {
	const footer = {
		channels: [{ key: 'Bench', value: 'large' }],
		company: starfallGlobal.footer.company,
		companyCiIcons: [],
		copyright: '© 2026 Bench',
		policyItems: [],
		snsLinks: [],
	};
	const header = { gameBiIcon: '/demo/starfall-icon.svg', topPinnedHome: 'Y', topPinnedBoard: 'Y', topPinnedTargetBoards: BOARDS, externalLinks: [] };
	const identities = [];
	const members = [];
	const claims = [];
	for (let i = 1; i <= MEMBERS; i += 1) {
		const id = memberBase + i;
		const nickname = `${en.nicknames[i % en.nicknames.length].slice(0, 24)}${i}`;
		identities.push([id, 'GOOGLE', `bench-${i}`, CREATED]);
		members.push([id, channelId, id, nickname, i === 1 ? 'ADMIN' : 'MEMBER', 'GOOGLE', 'GOOGLE', CREATED, CREATED, CREATED, null]);
		claims.push([channelId, nicknameKey(nickname), nicknameSkeleton(nickname), nicknameBareSkeleton(nickname), nickname, id, CREATED, null]);
	}
	const pool = poolRows();
	// A channel row as the apply service writes it; listed_count 0 until the last batch is in.
	const channel = [channelId, BENCH_CHANNEL.domain, BENCH_CHANNEL.slug, 'Benchmark Community', 'en', 'LIGHT', '#4f46e5', '#f5f6fb', '#ffffff'];
	channel.push(null, 'ALL', null, JSON.stringify(header), JSON.stringify(footer), null, null, null, null, 0, 1, CREATED);
	return [
		...STAGING.map((table) => `DROP TABLE IF EXISTS ${table};`),
		'CREATE TABLE bench_seed_state (total INTEGER NOT NULL);',
		`INSERT INTO bench_seed_state (total) VALUES (${total});`,
		'CREATE TABLE bench_seed_groups (language INTEGER, board INTEGER, title_base INTEGER, title_count INTEGER, paragraph_base INTEGER, paragraph_count INTEGER, comment_base INTEGER, comment_count INTEGER, PRIMARY KEY (language, board));',
		'CREATE TABLE bench_seed_titles (id INTEGER PRIMARY KEY, title TEXT, doc TEXT);',
		'CREATE TABLE bench_seed_paragraphs (id INTEGER PRIMARY KEY, block TEXT, text TEXT, doc TEXT, tail TEXT, head TEXT);',
		'CREATE TABLE bench_seed_comments (id INTEGER PRIMARY KEY, text TEXT);',
		'CREATE TABLE bench_seed_pattern (r INTEGER PRIMARY KEY, board INTEGER, board_id INTEGER, subject_id INTEGER, board_in INTEGER, board_per INTEGER, subject_in INTEGER, subject_per INTEGER);',
		...insertRows(
			'bench_seed_groups',
			['language', 'board', 'title_base', 'title_count', 'paragraph_base', 'paragraph_count', 'comment_base', 'comment_count'],
			pool.groups,
		),
		...insertRows('bench_seed_titles', ['id', 'title', 'doc'], pool.titles),
		...insertRows('bench_seed_paragraphs', ['id', 'block', 'text', 'doc', 'tail', 'head'], pool.paragraphs),
		...insertRows('bench_seed_comments', ['id', 'text'], pool.comments),
		...insertRows(
			'bench_seed_pattern',
			['r', 'board', 'board_id', 'subject_id', 'board_in', 'board_per', 'subject_in', 'subject_per'],
			patternRows(),
		),
		...insertRows('channels', COLUMNS.channels, [channel]),
		...insertRows(
			'boards',
			COLUMNS.boards,
			BOARDS.map((id, i) => [id, channelId, KEYS[i], demoBoard(KEYS[i]).name, demoBoard(KEYS[i]).description, 1, 0, 1, 0, CREATED, null, 0]),
		),
		...insertRows(
			'board_subjects',
			COLUMNS.board_subjects,
			BOARDS.flatMap((id, i) =>
				demoBoard(KEYS[i])
					.categories.slice(0, 3)
					.map((category, s) => [id * 10 + s + 1, channelId, id, category.name, s + 1, 1, 0]),
			),
		),
		...insertRows(
			'board_tree_nodes',
			['channel_id', ...COLUMNS.board_tree_nodes],
			[
				[channelId, 901, null, 1, 'All Posts', 'ALL', null, 1, 0, null, 1],
				...BOARDS.map((id, i) => [channelId, 902 + i, null, 2 + i, demoBoard(KEYS[i]).name, 'BOARD', id, 1, 0, null, 1]),
			],
		),
		...insertRows('identities', COLUMNS.identities, identities),
		...insertRows('members', COLUMNS.members, members),
		...insertRows('nickname_claims', COLUMNS.nickname_claims, claims),
		...searchIndexSql([], members),
	];
}

/** The posts n of [from, to) with their generated columns: the FROM part every batch statement shares. */
function postsOf(from, to, total) {
	return `WITH RECURSIVE seq(n) AS (SELECT ${from} UNION ALL SELECT n + 1 FROM seq WHERE n + 1 < ${to})
		SELECT seq.n, pt.*, t.title, t.doc AS title_doc, g.comment_base, g.comment_count,
			'{"type":"doc","blocks":[' || a.block || ',' || b.block || ']}' AS content, a.text || char(10) || b.text AS text, ${bodyDocSql('a', 'b')} AS body_doc,
			${CREATED} + seq.n * ${SPREAD_MS} / ${total} AS at
		FROM seq JOIN bench_seed_pattern pt ON pt.r = seq.n % ${PERIOD}
		JOIN bench_seed_groups g ON g.language = seq.n % ${LANGUAGES.length} AND g.board = pt.board
		JOIN bench_seed_titles t ON t.id = g.title_base + ${hash('seq.n', 1)} % g.title_count
		JOIN bench_seed_paragraphs a ON a.id = g.paragraph_base + ${hash('seq.n', 2)} % g.paragraph_count
		JOIN bench_seed_paragraphs b ON b.id = g.paragraph_base + ${hash('seq.n', 10)} % g.paragraph_count`;
}

/** The statements of posts [from, to): the posts, their comments and likes, their search entries. */
function batchSql(from, to, total) {
	const boardSeq = `(n / ${PERIOD}) * board_per + board_in`;
	const subjectSeq = `(n / ${PERIOD}) * subject_per + subject_in`;
	const comments = commentsOf('n');
	const likes = likesOf('n');
	// Up to 5 of each per post: a join with 0..4 (comments) or 0..5 (likes) kept below the post's count.
	const upTo = (count) => `(WITH RECURSIVE k(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM k WHERE i < ${count - 1}) SELECT i FROM k)`;
	return [
		`INSERT INTO posts (id, channel_id, board_id, subject_id, member_id, title, content, content_text, template, is_notice, like_count, view_count,
			comment_count, has_image, has_video, created_at, board_seq, subject_seq, channel_seq, board_pos, subject_pos, channel_pos, hot)
		SELECT ${postBase} + n + 1, ${channelId}, board_id, subject_id, ${memberBase} + 1 + ${hash('n', 7)} % ${MEMBERS}, title, content, text, 'DEFAULT', 0,
			${likes}, 10 + ${hash('n', 9)} % 8991, ${comments}, 0, 0, at, ${boardSeq}, ${subjectSeq}, n + 1, ${boardSeq}, ${subjectSeq}, n + 1,
			${hotScoreSql('at', likes, comments)}
		FROM (${postsOf(from, to, total)})`,
		`INSERT INTO comments (id, channel_id, post_id, member_id, content, created_at)
		SELECT ${commentBase} + n * 5 + k.i + 1, ${channelId}, ${postBase} + n + 1, ${memberBase} + 1 + (${hash('n', 8)} + k.i * 53) % ${MEMBERS},
			c.text, at + (k.i + 1) * 600000
		FROM (${postsOf(from, to, total)}) JOIN ${upTo(5)} k ON k.i < ${comments}
		JOIN bench_seed_comments c ON c.id = comment_base + (${hash('n', 4)} + k.i) % comment_count`,
		`INSERT INTO post_likes (post_id, member_id, channel_id, created_at)
		SELECT ${postBase} + n + 1, ${memberBase} + 1 + (${hash('n', 6)} + k.i * 37) % ${MEMBERS}, ${channelId}, at + (k.i + 1) * 120000
		FROM (WITH RECURSIVE seq(n) AS (SELECT ${from} UNION ALL SELECT n + 1 FROM seq WHERE n + 1 < ${to})
			SELECT n, ${CREATED} + n * ${SPREAD_MS} / ${total} AS at FROM seq) JOIN ${upTo(6)} k ON k.i < ${likes}`,
		`INSERT INTO post_search (rowid, title, body)
		SELECT ${channelId * CHANNEL_SPAN} + ${postBase} + n + 1, title_doc, body_doc FROM (${postsOf(from, to, total)})`,
	];
}

/** The statements that end a seed of `total` posts: the lists' counts and tops, and no staging tables. */
function finishSql(total) {
	const { boards, subjects } = listCounts(total);
	return [
		`UPDATE channels SET listed_count = ${total} WHERE id = ${channelId};`,
		...Object.entries(boards).map(([id, count]) => `UPDATE boards SET listed_count = ${count} WHERE id = ${id};`),
		...Object.entries(subjects).map(([id, count]) => `UPDATE board_subjects SET listed_count = ${count} WHERE id = ${id};`),
		...listTopsOnlySql([channelId]),
		...STAGING.map((table) => `DROP TABLE IF EXISTS ${table};`),
	];
}

/**
 * Seeds /bench/large with `total` posts on `db` (a D1 binding: the local one through wrangler's
 * platform proxy, or a test's). With `resume`, a seed of the same total that stopped part-way goes
 * on from its last complete batch; otherwise, or when there is none, the channel is cleared first.
 * `log` hears of the progress.
 *
 * @param {Pick<D1Database, 'prepare' | 'batch'>} db
 * @param {number} total
 * @param {{ log?: (line: string) => void; batch?: number; resume?: boolean }} [options]
 * @returns {Promise<{ resumedFrom: number }>}
 */
export async function seedBench(db, total, { log = () => {}, batch = BATCH, resume = false } = {}) {
	if (!Number.isSafeInteger(total) || total < 1 || total > MAX_POSTS) throw new Error(`--posts takes a whole number from 1 to ${MAX_POSTS}`);
	const run = (statements) => db.batch(statements.map((statement) => db.prepare(statement)));
	// No such table (a seed that finished, or none): null.
	const state = resume
		? await db
				.prepare('SELECT total FROM bench_seed_state')
				.first()
				.catch(() => null)
		: null;
	let from = 0;
	if (state?.total === total) {
		const last = await db.prepare(`SELECT max(id) AS id FROM posts WHERE id > ${postBase} AND id <= ${postBase + MAX_POSTS}`).first();
		from = typeof last?.id === 'number' ? last.id - postBase : 0;
		log(`Going on from post ${from} of ${total}.`);
	} else {
		await run(['PRAGMA defer_foreign_keys = true;', ...deleteChannelsSql([channelId], 'bench-%')]);
		await run(setupSql(total));
	}
	const resumedFrom = from;
	const started = Date.now();
	for (; from < total; from = Math.min(total, from + batch)) {
		await run(batchSql(from, Math.min(total, from + batch), total));
		const done = Math.min(total, from + batch);
		if (done % (batch * 20) === 0 || done === total)
			log(
				`${done} of ${total} posts (${Math.round((Date.now() - started) / 1000)} s, ${Math.round(((done - resumedFrom) / Math.max(1, Date.now() - started)) * 1000)} a second)`,
			);
	}
	await run(finishSql(total));
	return { resumedFrom };
}

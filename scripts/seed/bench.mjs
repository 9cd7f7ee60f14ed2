/**
 * The benchmark profile: one channel (/bench/large) with many posts, for `npm run bench`.
 * Deterministic like the demo; 60% of the posts go to one board so that deep pages exist. Posts
 * take turns in English, Korean, Japanese and Chinese (the demo's texts), for the search bench.
 */
import { nicknameKey } from '../../src/lib/nickname-key.ts';
import { nicknameBareSkeleton, nicknameSkeleton } from '../../src/server/accounts/nickname-skeleton.ts';
import en from './content/en.mjs';
import ko from './content/ko.mjs';
import ja from './content/ja.mjs';
import zh from './content/zh.mjs';
import { COLUMNS, SEED_NOW, deleteChannelsSql, insertRows, listTopsSql, random, searchIndexSql } from './demo.mjs';
// Board names, descriptions, categories and the footer's company come from the English demo community's file.
import starfallGlobal from '../../channels/starfall-global.json' with { type: 'json' };

export const BENCH_CHANNEL = { id: 9, domain: 'bench', slug: 'large' };
const BOARDS = [91, 92, 93];
const MEMBERS = 200;
const LANGUAGES = [en, ko, ja, zh];

/** The English demo community's board of `key`: its name, description and categories. */
function demoBoard(key) {
	const board = starfallGlobal.boards.find((candidate) => candidate.key === key);
	if (!board) throw new Error(`channels/starfall-global.json has no board ${key}`);
	return board;
}

export function benchSql(postCount) {
	const rng = random(424242);
	const channelId = BENCH_CHANNEL.id;
	const statements = ['PRAGMA defer_foreign_keys = true;', ...deleteChannelsSql([channelId], 'bench-%')];
	const created = SEED_NOW - 800 * 86_400_000;
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
		const id = channelId * 100_000 + i;
		const nickname = `${en.nicknames[i % en.nicknames.length].slice(0, 24)}${i}`;
		identities.push([id, 'GOOGLE', `bench-${i}`, created]);
		members.push([id, channelId, id, nickname, i === 1 ? 'ADMIN' : 'MEMBER', 'GOOGLE', 'GOOGLE', created, created, created, null]);
		claims.push([channelId, nicknameKey(nickname), nicknameSkeleton(nickname), nicknameBareSkeleton(nickname), nickname, id, created, null]);
	}
	const seq = { board: {}, subject: {}, channel: 0 };
	const posts = [];
	const keys = ['general', 'guides', 'bugs'];
	for (let n = 0; n < postCount; n += 1) {
		const boardIndex = n % 10 < 6 ? 0 : n % 10 < 8 ? 1 : 2;
		const boardId = BOARDS[boardIndex];
		const key = keys[boardIndex];
		const subjectId = boardId * 10 + (n % 3) + 1;
		const content = LANGUAGES[n % LANGUAGES.length];
		const paragraphs = [rng.pick(content.paragraphs[key]), rng.pick(content.paragraphs[key])];
		const doc = { type: 'doc', blocks: paragraphs.map((text) => ({ type: 'paragraph', children: [{ text }] })) };
		const boardSeq = (seq.board[boardId] = (seq.board[boardId] ?? 0) + 1);
		const subjectSeq = (seq.subject[subjectId] = (seq.subject[subjectId] ?? 0) + 1);
		const channelSeq = ++seq.channel;
		const at = created + Math.floor((n / postCount) * 790 * 86_400_000);
		posts.push([
			channelId * 1_000_000 + n + 1,
			channelId,
			boardId,
			subjectId,
			channelId * 100_000 + rng.int(1, MEMBERS),
			rng.pick(content.titles[key]),
			JSON.stringify(doc),
			paragraphs.join('\n'),
			'DEFAULT',
			0,
			rng.int(0, 40),
			rng.int(10, 9000),
			0,
			0,
			0,
			at,
			null,
			null,
			0,
			0,
			boardSeq,
			subjectSeq,
			channelSeq,
			null,
		]);
	}
	statements.push(
		...insertRows('channels', COLUMNS.channels, [
			[
				channelId,
				BENCH_CHANNEL.domain,
				BENCH_CHANNEL.slug,
				'Benchmark Community',
				'en',
				'LIGHT',
				'#4f46e5',
				'#f5f6fb',
				'#ffffff',
				null,
				'ALL',
				null,
				JSON.stringify(header),
				JSON.stringify(footer),
				null,
				null,
				null, // moderation_contact
				null,
				seq.channel,
				1,
				created,
			],
		]),
		...insertRows(
			'boards',
			COLUMNS.boards,
			BOARDS.map((id, i) => [
				id,
				channelId,
				keys[i],
				demoBoard(keys[i]).name,
				demoBoard(keys[i]).description,
				1,
				0,
				1,
				seq.board[id] ?? 0,
				created,
				null,
				0,
			]),
		),
		...insertRows(
			'board_subjects',
			COLUMNS.board_subjects,
			BOARDS.flatMap((id, i) =>
				demoBoard(keys[i])
					.categories.slice(0, 3)
					.map((category, s) => [id * 10 + s + 1, channelId, id, category.name, s + 1, 1, seq.subject[id * 10 + s + 1] ?? 0]),
			),
		),
		...insertRows(
			'board_tree_nodes',
			['channel_id', ...COLUMNS.board_tree_nodes],
			[
				[channelId, 901, null, 1, 'All Posts', 'ALL', null, 1, 0, null, 1],
				...BOARDS.map((id, i) => [channelId, 902 + i, null, 2 + i, demoBoard(keys[i]).name, 'BOARD', id, 1, 0, null, 1]),
			],
		),
		...insertRows('identities', COLUMNS.identities, identities),
		...insertRows('members', COLUMNS.members, members),
		...insertRows('nickname_claims', COLUMNS.nickname_claims, claims),
		...insertRows('posts', COLUMNS.posts, posts),
	);
	statements.push(...listTopsSql([channelId]), ...searchIndexSql(posts, members));
	return statements;
}

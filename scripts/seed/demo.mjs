/**
 * Builds the demo data as SQL: the same statements on every run (a seeded random generator and a
 * fixed clock), so a re-run leaves the database exactly as the first run did.
 */
import { nicknameKey } from '../../src/lib/nickname-key.ts';
import { nicknameBareSkeleton, nicknameSkeleton } from '../../src/server/accounts/nickname-skeleton.ts';
import { searchDocument } from '../../src/server/search-index/search-text.ts';
import { postThumbnailOf } from '../../src/lib/thumbnails.ts';
import en from './content/en.mjs';
import ko from './content/ko.mjs';
import ja from './content/ja.mjs';
import zh from './content/zh.mjs';
import pixelfarm from './content/pixelfarm-en.mjs';
import { CHANNEL_COLUMNS, configRows } from '../../src/server/channels/channel-rows.ts';
import starfallGlobal from '../../channels/starfall-global.json' with { type: 'json' };
import starfallKr from '../../channels/starfall-kr.json' with { type: 'json' };
import starfallJp from '../../channels/starfall-jp.json' with { type: 'json' };
import starfallTw from '../../channels/starfall-tw.json' with { type: 'json' };
import pixelfarmMain from '../../channels/pixelfarm-main.json' with { type: 'json' };

/** The demo's clock: every date in the demo data is before this instant. */
export const SEED_NOW = Date.UTC(2026, 10, 21, 9, 0, 0);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** mulberry32: small, fast and the same on every machine. */
export function random(seed) {
	let state = seed >>> 0;
	const next = () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
	return {
		next,
		int: (min, max) => min + Math.floor(next() * (max - min + 1)),
		pick: (list) => list[Math.floor(next() * list.length)],
		chance: (p) => next() < p,
	};
}

function sql(value) {
	if (value === null || value === undefined) return 'NULL';
	if (typeof value === 'number') return String(value);
	if (typeof value === 'boolean') return value ? '1' : '0';
	return `'${String(value).replace(/'/g, "''")}'`;
}

/** D1 refuses a statement over 100 KB; multi-row INSERTs stay below this. */
const STATEMENT_BYTES = 90_000;
const encoder = new TextEncoder();

/** Multi-row INSERTs, each as many rows as fit under D1's statement size limit. */
export function insertRows(table, columns, rows) {
	const statements = [];
	const head = `INSERT INTO ${table} (${columns.join(',')}) VALUES\n`;
	let values = [];
	let size = head.length;
	for (const row of rows) {
		const value = `(${row.map(sql).join(',')})`;
		const bytes = encoder.encode(value).length + 2;
		if (values.length > 0 && size + bytes > STATEMENT_BYTES) {
			statements.push(`${head}${values.join(',\n')};`);
			values = [];
			size = head.length;
		}
		values.push(value);
		size += bytes;
	}
	if (values.length > 0) statements.push(`${head}${values.join(',\n')};`);
	return statements;
}

const YOUTUBE_IDS = ['dQw4w9WgXcQ', 'M7lc1UVf-VE', 'aqz-KE-bpKQ', 'ScMzIvxBSi4', 'jNQXAC9IVRw', 'LXb3EKWsInQ', 'kJQP7kiw5Fk', 'YE7VzlLtp-4'];
/**
 * The picture of each fan-art post (public/demo/shot-NN.svg), by the post's place in its board: each
 * post's title and opening are written for its picture (the four Starfall content files in the same
 * order), and its alt text is what the picture shows (`shotAlts`).
 */
const STARFALL_FANART_SHOTS = [3, 5, 2, 6, 4, 1, 7, 1, 2, 1, 8, 4, 7, 7, 6, 8, 4, 6, 6, 3, 5, 4, 5, 8, 1, 3, 7, 8, 2, 6, 7, 1, 4, 3, 2, 5];
const FARM_FANART_SHOTS = Array.from({ length: 36 }, (_, index) => 9 + (index % 4));
/**
 * The category of each fan-art post, by its place in the board's categories: 0 a screenshot (Pixel
 * Farm: a farm layout), 1 a drawing or painting, -1 none (a screenshot of the village is no farm
 * layout). No demo picture is a craft or a cosplay, so no post is in that category.
 */
const STARFALL_FANART_CATEGORIES = [0, 1, 0, 1, 1, 0, 1, 1, 1, 0, 1, 0, 1, 0, 1, 0, 1, 1, 0, 0, 0, 1, 1, 0, 1, 1, 1, 0, 1, 0, 1, 0, 0, 1, 1, 0];
const FARM_FANART_CATEGORIES = [0, 0, 0, -1, 0, 1, 0, -1, 0, 0, 1, -1, 1, 1, 0, -1, 0, 1, 0, -1, 1, 0, 0, 1, 0, 0, 1, -1, 0, 0, 1, -1, 0, 0, 0, 1];

/**
 * Which comments and replies of a community's pools suit a post of each board, by their place in the
 * pool (the four Starfall pools are one list in four languages): a fan-art post is never told that a
 * bug happens on mobile too, nor praised for a painting it is not.
 */
const STARFALL_COMMENTS = {
	notice: [6, 14, 16, 20, 30, 39, 47, 48, 61, 63, 67, 68, 73],
	general: [1, 3, 5, 7, 8, 10, 17, 19, 21, 27, 31, 33, 37, 43, 49, 52, 53, 56, 66, 69, 71, 72],
	guides: [0, 1, 4, 12, 13, 15, 22, 24, 28, 34, 36, 40, 44, 46, 54, 64, 65],
	fanart: [1, 10, 11, 23, 33, 38, 40, 65, 72],
	videos: [10, 19, 29, 33, 40, 49, 55, 60, 69, 72],
	bugs: [2, 7, 9, 18, 25, 26, 28, 42, 44, 51, 57, 59, 70],
	staff: [0, 27, 28],
};
const STARFALL_REPLIES = {
	notice: [0, 1, 3, 17, 23, 26, 27, 37, 38, 40, 41],
	general: [0, 1, 4, 5, 9, 12, 14, 15, 16, 29, 30, 33, 36, 38, 41],
	guides: [2, 3, 5, 6, 7, 11, 22, 23, 24, 25, 31, 33, 35, 39],
	fanart: [0, 1, 14, 29],
	videos: [0, 1, 4, 14, 15, 19, 29, 32, 36],
	bugs: [1, 3, 6, 8, 13, 16, 17, 21, 31],
	staff: [0, 5, 24, 33, 39],
};
const FARM_COMMENTS = {
	notice: [4, 5, 14, 21, 48, 49, 50, 58, 71],
	general: [3, 9, 11, 12, 17, 18, 21, 23, 30, 31, 36, 37, 39, 42, 45, 50, 54, 59, 61, 66, 68, 72],
	guides: [0, 4, 7, 10, 16, 17, 23, 26, 29, 32, 35, 51, 53, 56, 59, 63, 72],
	fanart: [8, 14, 27, 38, 47, 50, 61, 62, 68],
	videos: [14, 33, 38, 65, 67, 68],
	bugs: [2, 13, 19, 22, 26, 28, 40, 41, 52, 60, 64, 69],
	staff: [0, 26, 45],
};
const FARM_REPLIES = {
	notice: [1, 2, 4, 9, 14, 17, 35, 41],
	general: [0, 1, 2, 3, 9, 12, 13, 16, 21, 22, 29, 32, 33, 37, 40],
	guides: [0, 4, 5, 8, 9, 15, 18, 20, 24, 27, 29, 30, 34, 38],
	fanart: [1, 2, 26, 37],
	videos: [0, 1, 2, 26, 37],
	bugs: [1, 4, 6, 10, 11, 14, 17, 28, 31, 39],
	staff: [2, 12, 16, 27, 30],
};

/**
 * A demo community: its configuration is its channel file (channels/*.json, what `npm run channel
 * -- apply` takes; the seed inserts the same rows, src/server/channels/channel-rows.ts), and the
 * seed writes its members, posts and comments from the content file in its language.
 */
function demo(file, content, extra) {
	const pick = (pool, byBoard) => Object.fromEntries(Object.entries(byBoard).map(([key, places]) => [key, places.map((place) => pool[place])]));
	const { header } = file;
	return {
		index: file.id,
		domain: file.domain,
		slug: file.slug,
		language: header.language,
		providers: file.providers,
		themeType: header.themeType,
		keyColor: header.keyColor,
		backgroundColor: header.backgroundColor,
		pcHeaderColor: header.pcHeaderColor,
		banner: file.banner,
		content,
		file,
		...extra,
		comments: pick(content.comments, extra.comments),
		replies: pick(content.replies, extra.replies),
	};
}

const STARFALL = {
	fanartShots: STARFALL_FANART_SHOTS,
	fanartCategories: STARFALL_FANART_CATEGORIES,
	comments: STARFALL_COMMENTS,
	replies: STARFALL_REPLIES,
};
const FARM = { fanartShots: FARM_FANART_SHOTS, fanartCategories: FARM_FANART_CATEGORIES, comments: FARM_COMMENTS, replies: FARM_REPLIES };

/** The demo communities. Board keys follow the content files; ids are fixed (in the files) so links stay stable. */
export const DEMO_CHANNELS = [
	demo(starfallGlobal, en, { ...STARFALL, site: 'https://starfall.example' }),
	demo(starfallKr, ko, { ...STARFALL, site: 'https://starfall.example/kr' }),
	demo(starfallJp, ja, { ...STARFALL, site: 'https://starfall.example/jp' }),
	demo(starfallTw, zh, { ...STARFALL, site: 'https://starfall.example/tw' }),
	demo(pixelfarmMain, pixelfarm, { ...FARM, site: 'https://pixelfarm.example', earlierFanartDraws: 'pool' }),
];

const BOARD_KEYS = ['notice', 'general', 'guides', 'fanart', 'videos', 'bugs', 'staff'];
/** Only administrators write in each community's announcements. */
export const NOTICE_ONLY_BOARDS = ['notice'];
/** Boards with a write template (in the channel files): a bug-report form and a guide outline. */
export const TEMPLATE_BOARDS = ['bugs', 'guides'];
const POSTS_PER_BOARD = 36;

export const boardId = (channel, key) => channel.index * 10 + BOARD_KEYS.indexOf(key) + 1;

function inline(text) {
	return [{ text }];
}

/**
 * A post body: the opening written for the post's title (else paragraphs of the board's pool), with
 * headings, lists, images or videos by board.
 */
function postDocument(rng, channel, key, index) {
	const c = channel.content;
	const blocks = [];
	const paragraph = () => ({ type: 'paragraph', children: inline(rng.pick(c.paragraphs[key])) });
	if (key === 'fanart') return fanartDocument(rng, channel, index);
	const opener = c.openers?.[key]?.[index];
	blocks.push(opener ? { type: 'paragraph', children: inline(opener) } : paragraph());
	if (key === 'videos') blocks.push({ type: 'youtube', videoId: rng.pick(YOUTUBE_IDS) });
	if (key === 'guides' || key === 'notice') {
		blocks.push({ type: 'heading', level: 2, children: inline(rng.pick(c.headings)) });
		const items = [];
		const count = rng.int(3, 5);
		while (items.length < count) {
			const item = rng.pick(c.listItems);
			if (!items.includes(item)) items.push(item);
		}
		blocks.push({ type: 'list', ordered: key === 'guides', items: items.map(inline) });
	}
	// A pool paragraph can describe another bug, video or topic than the post's title, so a post with a
	// written opening takes none: the draw of how many, and of each, is made still and dropped, so
	// every later draw (and so every post, comment and like after) stays as it was.
	const extra = opener ? (key === 'bugs' || key === 'general' ? 0 : rng.int(0, 1)) : rng.int(1, 3);
	for (let i = 0; i < extra; i += 1) {
		const pooled = paragraph();
		if (!opener) blocks.push(pooled);
	}
	if (key === 'general' && rng.chance(0.15)) {
		blocks.push({ type: 'paragraph', children: [{ text: channel.site, link: channel.site }] });
	}
	return { type: 'doc', blocks };
}

/**
 * A fan-art post: the opening written for its picture, then the picture, with the alt text of what
 * it shows. No paragraph of the board's pool follows: it would describe another picture.
 */
function fanartDocument(rng, channel, index) {
	const c = channel.content;
	// The draws a fan-art post made when its picture, alt text and paragraphs were drawn from pools
	// (a pool opening too in Pixel Farm, which had none written) are made still and dropped, so every
	// later draw, and so every post, comment and like after it, stays as it was.
	const poolOpening = channel.earlierFanartDraws === 'pool';
	for (let i = 0; i < (poolOpening ? 3 : 2); i += 1) rng.next();
	const paragraphs = poolOpening ? rng.int(1, 3) : rng.int(0, 1);
	for (let i = 0; i < paragraphs; i += 1) rng.next();
	const shot = channel.fanartShots[index];
	return {
		type: 'doc',
		blocks: [
			{ type: 'paragraph', children: inline(c.openers.fanart[index]) },
			{ type: 'image', src: `/demo/shot-${String(shot).padStart(2, '0')}.svg`, alt: c.shotAlts[shot], width: 1280, height: 720 },
		],
	};
}

function documentText(doc) {
	return doc.blocks
		.map((block) => {
			if (block.children) return block.children.map((i) => i.text).join('');
			if (block.items) return block.items.map((item) => item.map((i) => i.text).join('')).join('\n');
			if (block.type === 'image') return block.alt;
			return '';
		})
		.filter(Boolean)
		.join('\n');
}

/**
 * Generates one channel's rows. `ids` holds the running ids shared across channels so that every
 * id is fixed by the channel order alone.
 */
function channelRows(channel, ids) {
	const rng = random(channel.index * 7919);
	const c = channel.content;
	const rows = {
		channels: [],
		channel_providers: [],
		boards: [],
		board_subjects: [],
		board_tree_nodes: [],
		identities: [],
		members: [],
		nickname_claims: [],
		bans: [],
		posts: [],
		comments: [],
		post_likes: [],
		reports: [],
		drafts: [],
	};
	const created = SEED_NOW - 400 * DAY;
	// The configuration: the rows of the channel file, with the ids it fixes.
	const config = configRows(channel.file, {
		channel: channel.file.id,
		board: (board) => board.id,
		subject: (board, _boardId, index) => board.categories[index].id,
		node: (node) => node.id,
	});

	config.providers.forEach((provider, i) => rows.channel_providers.push([channel.index, provider, i + 1]));

	// Members: the first is the administrator; three have special states for the demo.
	const members = [];
	const providers = channel.providers.length ? channel.providers : ['GOOGLE'];
	c.nicknames.slice(0, 40).forEach((nickname, i) => {
		const id = channel.index * 1000 + i + 1;
		const identityId = id;
		const provider = providers[i % providers.length];
		const joined = created + i * 5 * DAY + rng.int(0, DAY);
		rows.identities.push([identityId, provider, `demo-${channel.domain}-${channel.slug}-${i + 1}`, joined]);
		const withdrawn = i === 39 ? SEED_NOW - 20 * DAY : null;
		rows.members.push([
			id,
			channel.index,
			withdrawn ? null : identityId,
			withdrawn ? null : nickname,
			i === 0 ? 'ADMIN' : 'MEMBER',
			provider,
			providers[(i + 1) % providers.length],
			joined,
			joined,
			joined,
			withdrawn,
		]);
		rows.nickname_claims.push([
			channel.index,
			nicknameKey(nickname),
			nicknameSkeleton(nickname),
			nicknameBareSkeleton(nickname),
			nickname,
			id,
			joined,
			withdrawn,
		]);
		members.push({ id, joined });
	});
	// A changed nickname: member 2's first nickname stays retired.
	rows.nickname_claims.push([
		channel.index,
		nicknameKey(c.nicknames[40]),
		nicknameSkeleton(c.nicknames[40]),
		nicknameBareSkeleton(c.nicknames[40]),
		c.nicknames[40],
		members[1].id,
		members[1].joined - DAY,
		members[1].joined,
	]);
	rows.bans.push([
		channel.index * 100 + 1,
		channel.index,
		members[37].id,
		'TEMPORARY',
		Date.UTC(2027, 5, 30, 15, 0),
		c.banStaffNote,
		SEED_NOW - 3 * DAY,
		null,
	]);
	rows.bans.push([channel.index * 100 + 2, channel.index, members[38].id, 'PERMANENT', null, c.banStaffNote, SEED_NOW - 30 * DAY, null]);

	// Boards, categories and the board tree (every node type).
	const subjectsByBoard = {};
	for (const board of config.boards) {
		rows.boards.push([
			board.id,
			channel.index,
			board.key,
			board.name,
			board.description,
			board.is_public,
			0,
			board.use_subjects,
			0,
			created,
			board.write_template,
			board.notice_only,
		]);
		subjectsByBoard[board.key] = config.subjects
			.filter((subject) => subject.board_id === board.id)
			.map((subject) => {
				rows.board_subjects.push([subject.id, channel.index, subject.board_id, subject.name, subject.sort_order, subject.enabled, 0, subject.key]);
				return subject.id;
			});
	}
	for (const node of config.nodes) {
		rows.board_tree_nodes.push([
			node.id,
			node.parent_id,
			node.sort_order,
			node.text,
			node.type,
			node.board_id,
			node.public_flag,
			0,
			node.url,
			node.use_collapsed,
		]);
	}

	// Posts, in creation order across boards, so that ids grow with time.
	const plan = [];
	for (const key of BOARD_KEYS) {
		for (let i = 0; i < POSTS_PER_BOARD; i += 1) plan.push({ key, i, at: SEED_NOW - rng.int(2 * HOUR, 120 * DAY) });
	}
	plan.sort((a, b) => a.at - b.at);
	// The newest few posts are from today, to show the same-day time format.
	plan.slice(-4).forEach((entry, i) => (entry.at = SEED_NOW - (4 - i) * 47 * 60_000));
	const counters = { board: {}, subject: {}, channel: 0 };
	const posts = [];
	for (const entry of plan) {
		const { key, i } = entry;
		const id = ids.post++;
		const doc = postDocument(rng, channel, key, i);
		const subjects = subjectsByBoard[key];
		const drawn = subjects.length && rng.chance(0.85) ? rng.pick(subjects) : null;
		// A fan-art post that has a category has the one its picture and text are (the draw is kept).
		const subjectId = key === 'fanart' && drawn !== null ? (subjects[channel.fanartCategories[i]] ?? null) : drawn;
		const isNotice = (key === 'notice' && i % 9 === 0) || (key === 'general' && i === 3) ? 1 : 0;
		// Notices and the staff board are written by the three staff accounts at the top of the list.
		const authorIndex = isNotice || key === 'notice' || key === 'staff' ? rng.int(0, 2) : rng.int(1, 38);
		const author = members[authorIndex];
		const at = Math.max(entry.at, author.joined + HOUR);
		const hidden = key === 'general' && i === 7 ? 1 : 0;
		const deleted = key === 'general' && i === 11 ? at + DAY : null;
		const isPrivate = key === 'bugs' && i === 5 ? 1 : 0;
		const edited = rng.chance(0.12) ? at + rng.int(1, 48) * HOUR : null;
		const listed = !hidden && !deleted && !isPrivate;
		let boardSeq = null;
		let subjectSeq = null;
		let channelSeq = null;
		if (listed && !isNotice) {
			boardSeq = counters.board[key] = (counters.board[key] ?? 0) + 1;
			if (subjectId) subjectSeq = counters.subject[subjectId] = (counters.subject[subjectId] ?? 0) + 1;
		}
		if (listed && key !== 'staff') channelSeq = ++counters.channel;
		const post = {
			id,
			key,
			at,
			author,
			listed,
			row: [
				id,
				channel.index,
				boardId(channel, key),
				subjectId,
				author.id,
				c.titles[key][i],
				JSON.stringify(doc),
				documentText(doc),
				'DEFAULT',
				isNotice,
				0,
				rng.int(12, 4800),
				0,
				key === 'fanart' ? 1 : 0,
				key === 'videos' ? 1 : 0,
				at,
				edited,
				deleted,
				hidden,
				isPrivate,
				boardSeq,
				subjectSeq,
				channelSeq,
				// The demo's images are small SVGs, their own thumbnails; videos show their posters.
				postThumbnailOf(doc.blocks, (src) => (src.startsWith('/demo/') ? src : null)),
			],
		};
		posts.push(post);
	}

	// Comments with one level of replies, likes and a few reports.
	let deletedShown = false;
	let hiddenShown = false;
	for (const post of posts) {
		const commentTotal = post.key === 'staff' ? rng.int(0, 2) : rng.int(0, 6);
		let count = 0;
		// Times run forward in the order the comments are shown (by id: each comment, then its
		// replies): each one a few minutes to a few hours after the one before, the first after the post.
		let last = post.at;
		// Each comment and reply of a post says something its others have not (one draw each, as before).
		const said = new Set();
		const say = (pool) => {
			const fresh = pool.filter((text) => !said.has(text));
			const text = rng.pick(fresh.length > 0 ? fresh : pool);
			said.add(text);
			return text;
		};
		for (let n = 0; n < commentTotal; n += 1) {
			const id = ids.comment++;
			const author = members[rng.int(0, 38)];
			const at = (last += rng.int(5, 600) * 15_000);
			let deleted = null;
			let hidden = 0;
			if (post.listed && !deletedShown && n === 1) {
				deleted = at + HOUR;
				deletedShown = true;
			} else if (post.listed && !hiddenShown && n === 2) {
				hidden = 1;
				hiddenShown = true;
			}
			rows.comments.push([
				id,
				channel.index,
				post.id,
				null,
				author.id,
				say(channel.comments[post.key]),
				at,
				rng.chance(0.08) ? at + HOUR : null,
				deleted,
				hidden,
			]);
			if (!deleted && !hidden) count += 1;
			const drawn = rng.chance(0.45) ? rng.int(1, 3) : 0;
			// The deleted comment keeps a reply, so the demo shows its 'This comment has been deleted.' place.
			const replies = deleted ? Math.max(1, drawn) : drawn;
			for (let r = 0; r < replies; r += 1) {
				const replyAt = (last += rng.int(2, 300) * 15_000);
				rows.comments.push([
					ids.comment++,
					channel.index,
					post.id,
					id,
					members[rng.int(0, 38)].id,
					say(channel.replies[post.key]),
					replyAt,
					null,
					null,
					0,
				]);
				count += 1;
			}
		}
		const likers = new Set();
		const likeTotal = post.listed ? rng.int(0, 24) : 0;
		while (likers.size < likeTotal) likers.add(members[rng.int(0, 38)].id);
		for (const memberId of likers) rows.post_likes.push([post.id, memberId, channel.index, post.at + rng.int(1, 72) * HOUR]);
		post.row[10] = likers.size;
		post.row[12] = count;
		rows.posts.push(post.row);
	}
	const reported = posts.filter((post) => post.key === 'general').slice(0, 3);
	reported.forEach((post, i) =>
		rows.reports.push([
			channel.index * 100 + i + 1,
			channel.index,
			'POST',
			post.id,
			members[10 + i].id,
			i === 0 ? 'SPAM' : 'ABUSE',
			'',
			post.at + DAY,
		]),
	);
	rows.drafts.push([
		channel.index * 100 + 1,
		channel.index,
		members[1].id,
		boardId(channel, 'general'),
		null,
		c.titles.general[39],
		JSON.stringify({ type: 'doc', blocks: [{ type: 'paragraph', children: inline(c.paragraphs.general[0]) }] }),
		'DEFAULT',
		SEED_NOW - 2 * DAY,
		SEED_NOW - DAY,
	]);

	// List counters.
	for (const key of BOARD_KEYS) {
		const row = rows.boards.find((b) => b[0] === boardId(channel, key));
		row[8] = counters.board[key] ?? 0;
	}
	for (const subject of rows.board_subjects) subject[6] = counters.subject[subject[0]] ?? 0;

	const row = config.channel;
	rows.channels.push([row.id, ...CHANNEL_COLUMNS.map((column) => row[column]), counters.channel, 1, created]);
	return rows;
}

export const COLUMNS = {
	// The channel's row as its file sets it (the apply service's columns), then the seed's counters.
	channels: ['id', ...CHANNEL_COLUMNS, 'listed_count', 'content_version', 'created_at'],
	channel_providers: ['channel_id', 'provider', 'sort_order'],
	boards: [
		'id',
		'channel_id',
		'key',
		'name',
		'description',
		'is_public',
		'use_shared',
		'use_subjects',
		'listed_count',
		'created_at',
		'write_template',
		'notice_only',
	],
	board_subjects: ['id', 'channel_id', 'board_id', 'name', 'sort_order', 'enabled', 'listed_count'],
	board_tree_nodes: ['id', 'parent_id', 'sort_order', 'text', 'type', 'board_id', 'public_flag', 'use_shared', 'url', 'use_collapsed'],
	identities: ['id', 'provider', 'subject', 'created_at'],
	members: [
		'id',
		'channel_id',
		'identity_id',
		'nickname',
		'role',
		'provider',
		'recent_provider',
		'joined_at',
		'terms_agreed_at',
		'privacy_agreed_at',
		'withdrawn_at',
	],
	nickname_claims: [
		'channel_id',
		'nickname_key',
		'nickname_skeleton',
		'nickname_bare_skeleton',
		'nickname',
		'member_id',
		'claimed_at',
		'released_at',
	],
	bans: ['id', 'channel_id', 'member_id', 'kind', 'ends_at', 'reason', 'created_at', 'lifted_at'],
	posts: [
		'id',
		'channel_id',
		'board_id',
		'subject_id',
		'member_id',
		'title',
		'content',
		'content_text',
		'template',
		'is_notice',
		'like_count',
		'view_count',
		'comment_count',
		'has_image',
		'has_video',
		'created_at',
		'edited_at',
		'deleted_at',
		'hidden_by_admin',
		'is_private',
		'board_seq',
		'subject_seq',
		'channel_seq',
		'thumbnail',
	],
	comments: ['id', 'channel_id', 'post_id', 'parent_id', 'member_id', 'content', 'created_at', 'edited_at', 'deleted_at', 'hidden_by_admin'],
	post_likes: ['post_id', 'member_id', 'channel_id', 'created_at'],
	reports: ['id', 'channel_id', 'target_type', 'target_id', 'reporter_id', 'reason_code', 'reason_text', 'created_at'],
	drafts: ['id', 'channel_id', 'member_id', 'board_id', 'subject_id', 'title', 'content', 'template', 'created_at', 'updated_at'],
};

/** Tables in the order rows can be inserted; deletes run in the reverse order. */
const TABLE_ORDER = Object.keys(COLUMNS);

/** Statements that remove every row of the given channels (and their demo identities). */
export function deleteChannelsSql(channelIds, identityPattern) {
	const list = channelIds.join(',');
	const statements = [
		// The search index's entries of a channel are its rowid range (migrations/0010).
		...channelIds.flatMap((id) =>
			['post_search', 'member_search'].map(
				(table) => `DELETE FROM ${table} WHERE rowid BETWEEN ${id * CHANNEL_SPAN} AND ${(id + 1) * CHANNEL_SPAN - 1};`,
			),
		),
		`DELETE FROM moderation_log WHERE channel_id IN (${list});`,
		`DELETE FROM sessions WHERE channel_id IN (${list});`,
		`DELETE FROM oauth_transactions WHERE channel_id IN (${list});`,
		`DELETE FROM signups WHERE channel_id IN (${list});`,
		`DELETE FROM uploads WHERE channel_id IN (${list});`,
		// Members' saved posts (migration 0036) refer to the posts and members deleted below.
		`DELETE FROM saved_posts WHERE channel_id IN (${list});`,
	];
	for (const table of [...TABLE_ORDER].reverse()) {
		if (table === 'identities') continue;
		if (table === 'channels') statements.push(`DELETE FROM channels WHERE id IN (${list});`);
		else if (table === 'board_tree_nodes') statements.push(`DELETE FROM board_tree_nodes WHERE channel_id IN (${list});`);
		else statements.push(`DELETE FROM ${table} WHERE channel_id IN (${list});`);
		if (table === 'members') statements.push(`DELETE FROM identities WHERE subject LIKE ${sql(identityPattern)};`);
	}
	return statements;
}

/**
 * Where `npm start` and the browser tests' server keep each demo community (docs/reference/databases.md):
 * two content databases, the directory (DB) apart. Starfall's English community and the dark Pixel Farm
 * are in different ones, so every run serves communities from both.
 */
export const DEMO_DATABASES = { 1: 'DB_1', 2: 'DB_1', 3: 'DB_2', 4: 'DB_2', 5: 'DB_2' };

/** Every demo community's rows, by community (DEMO_CHANNELS' order) and table. */
function demoRows() {
	const ids = { post: 1, comment: 1 };
	return DEMO_CHANNELS.map((channel) => ({ channel, rows: channelRows(channel, ids) }));
}

/** The INSERTs of rows by table (TABLE_ORDER's tables), the channels' rows naming `database` when given. */
function insertsSql(all, database) {
	const statements = [];
	for (const table of TABLE_ORDER) {
		if (table === 'board_tree_nodes') {
			// board_tree_nodes carries channel_id too; add it in front of the generated columns.
			const withChannel = all[table].map((row) => [Math.floor(row[0] / 100), ...row]);
			statements.push(...insertRows(table, ['channel_id', ...COLUMNS[table]], withChannel));
		} else if (table === 'board_subjects') {
			// The demo's categories carry their file's key (migration 0021); the bench's rows have none.
			statements.push(...insertRows(table, [...COLUMNS[table], 'key'], all[table]));
		} else if (table === 'channels' && database) {
			statements.push(
				...insertRows(
					table,
					[...COLUMNS[table], 'database'],
					all[table].map((row) => [...row, database(row[0])]),
				),
			);
		} else {
			statements.push(...insertRows(table, COLUMNS[table], all[table]));
		}
	}
	return statements;
}

/** The rows of `communities` merged by table. */
function mergedRows(communities) {
	const all = Object.fromEntries(TABLE_ORDER.map((table) => [table, []]));
	for (const { rows } of communities) for (const table of TABLE_ORDER) all[table].push(...rows[table]);
	return all;
}

/** What a database that held the demo before loses first: every demo community's rows and identities. */
const clearDemoSql = () => [
	'PRAGMA defer_foreign_keys = true;',
	...deleteChannelsSql(
		DEMO_CHANNELS.map((c) => c.index),
		'demo-%',
	),
];

/** The whole demo as SQL statements, every community in one database. */
export function demoSql() {
	const all = mergedRows(demoRows());
	return [...clearDemoSql(), ...insertsSql(all), ...listTopsSql(DEMO_CHANNELS.map((c) => c.index)), ...searchIndexSql(all.posts, all.members)];
}

/**
 * The demo spread over databases as `placement` says (a community's id → its binding; DB when it
 * names none), as SQL statements by binding. Each community's rows go whole into its database, its
 * channel's row naming that database and a copy of its members' identities with it; the directory
 * (DB) gets every community's channel row, naming where the community lives, and every identity
 * (docs/reference/databases.md). Every database first loses what an earlier seed put there.
 *
 * @param {Record<number, string>} placement
 * @returns {Record<string, string[]>}
 */
export function demoSqlByDatabase(placement = DEMO_DATABASES) {
	const communities = demoRows();
	const databaseOf = (channelId) => placement[channelId] ?? 'DB';
	const bindings = [...new Set(['DB', ...communities.map(({ channel }) => databaseOf(channel.index))])];
	return Object.fromEntries(
		bindings.map((binding) => {
			const held = communities.filter(({ channel }) => databaseOf(channel.index) === binding);
			const all = mergedRows(held);
			if (binding === 'DB') {
				const directory = mergedRows(communities);
				all.channels = directory.channels;
				all.identities = directory.identities;
			}
			const heldIds = held.map(({ channel }) => channel.index);
			const statements = [...clearDemoSql(), ...insertsSql(all, databaseOf)];
			// The directory hands out the range of ids the seeded rows have (src/server/databases/ids.ts): it keeps clear of them.
			if (binding === 'DB' && heldIds.length < communities.length) statements.push(...seededFloorsSql(mergedRows(communities)));
			// The directory's copies of other databases' channel rows get the same list tops as their own.
			if (binding === 'DB') statements.push(...listTopsOnlySql(communities.map(({ channel }) => channel.index)).slice(0, 1));
			if (heldIds.length > 0) statements.push(...listTopsSql(heldIds), ...searchIndexSql(all.posts, all.members));
			return [binding, statements];
		}),
	);
}

/**
 * The floors (migrations/0045) that keep a database from handing out the ids of `all`'s rows, for a
 * database that does not hold them: the seeded ids are in range 0, the directory's.
 */
function seededFloorsSql(all) {
	return TABLE_ORDER.filter((table) => table !== 'channels' && table !== 'identities' && COLUMNS[table][0] === 'id' && all[table].length > 0).map(
		(table) =>
			`INSERT INTO id_floors (name, floor) VALUES ('${table}', ${Math.max(...all[table].map((row) => row[0]))}) ON CONFLICT (name) DO UPDATE SET floor = max(floor, excluded.floor);`,
	);
}

/** A channel's range of search index rowids (migrations/0010). */
export const CHANNEL_SPAN = 2 ** 32;

/**
 * The search index's entries of seeded rows, as src/server/search-index/search-index.ts writes them: a
 * post while "All Posts" lists it (channel_seq set), a member's nickname until withdrawal.
 */
export function searchIndexSql(posts, members) {
	const post = Object.fromEntries(COLUMNS.posts.map((name, index) => [name, index]));
	const member = Object.fromEntries(COLUMNS.members.map((name, index) => [name, index]));
	return [
		...insertRows(
			'post_search',
			['rowid', 'title', 'body'],
			posts
				.filter((row) => row[post.channel_seq] !== null)
				.map((row) => [row[post.channel_id] * CHANNEL_SPAN + row[post.id], searchDocument(row[post.title]), searchDocument(row[post.content_text])]),
		),
		...insertRows(
			'member_search',
			['rowid', 'nickname'],
			members
				.filter((row) => row[member.withdrawn_at] === null && row[member.nickname] !== null)
				.map((row) => [row[member.channel_id] * CHANNEL_SPAN + row[member.id], searchDocument(row[member.nickname])]),
		),
	];
}

/**
 * The seed lists every listed post densely (positions 1..n, no gaps): each post's kept positions
 * are its list positions, and each list's top is its count (migrations/0004). Each post gets its hot
 * score (migrations/0039).
 */
function listTopsSql(channelIds) {
	const list = channelIds.join(',');
	return [
		`UPDATE posts SET board_pos = board_seq, subject_pos = subject_seq, channel_pos = channel_seq WHERE channel_id IN (${list});`,
		`UPDATE posts SET hot = ${HOT_SCORE} WHERE channel_id IN (${list});`,
		...listTopsOnlySql(channelIds),
	];
}

/** The Popular order's hot score in SQL, as src/server/posts/hot.ts computes it (integer division as there). */
export const hotScoreSql = (createdAt, likes, comments) =>
	`${createdAt} / 1000 + 172800 * (${likes} + 2 * ${comments}) / (${likes} + 2 * ${comments} + 10)`;
const HOT_SCORE = hotScoreSql('created_at', 'like_count', 'comment_count');

/** The lists' tops of channels whose posts were inserted with their positions and hot scores. */
export function listTopsOnlySql(channelIds) {
	const list = channelIds.join(',');
	return [
		`UPDATE channels SET list_top = listed_count WHERE id IN (${list});`,
		`UPDATE boards SET list_top = listed_count WHERE channel_id IN (${list});`,
		`UPDATE board_subjects SET list_top = listed_count WHERE channel_id IN (${list});`,
		`DELETE FROM list_gaps WHERE (kind = 3 AND list_id IN (${list})) OR (kind = 1 AND list_id IN (SELECT id FROM boards WHERE channel_id IN (${list})))
		   OR (kind = 2 AND list_id IN (SELECT id FROM board_subjects WHERE channel_id IN (${list})));`,
	];
}

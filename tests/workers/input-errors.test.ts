/**
 * Errors in the right order and words, on every route that writes, taken from
 * the app's own routes so that a new one is covered (or this test fails until it is listed here):
 * - a guest's request, however malformed, is answered with the caller's error (LoginRequired; the
 *   sign-up steps SignupExpired) before any input is read; a banned member's with the ban; a
 *   member's on an administrator's route with Forbidden;
 * - a member's bad input of every kind (empty, huge, wrong JSON types, arrays for objects,
 *   malformed, negative, fractional and huge ids, other members' and other communities' ids,
 *   unknown fields) is a 4xx with a catalogue code, never a 500, never the validator's words, and
 *   changes no row;
 * - a failure that has its own catalogue code answers it, with the catalogue's text.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { env } from 'cloudflare:workers';
import { api } from '@functions/api/app';
import { methodNotAllowed, routeNotFound } from '@functions/api/middleware/errors';
import { RESULT_MESSAGES, type ResultCodeName } from '@/lib/result-codes';
import { ResultCodes } from '@/server/platform/errors';
import type { Role } from '@/lib/roles';
import { signInIdentity } from '@/server/accounts/signup';
import { cookieName } from '@/server/sign-in/cookies';
import { call, KOREAN, ORIGIN, postWhere, signInSubject, type Answer } from './harness';

/** How a route takes its input, and who calls it. */
interface RouteSample {
	caller: 'member' | 'admin' | 'signup' | 'anyone';
	/** A well-formed body (its fields are spoiled one by one), 'none' for a route that reads none, 'bytes' for an upload. */
	body: Record<string, unknown> | 'none' | 'bytes';
	/** Well-formed bodies that name ids of other members or communities: each must be refused. */
	foreign?: Record<string, unknown>[];
}

const doc = (text: string) => ({ type: 'doc', blocks: [{ type: 'paragraph', children: [{ text }] }] });
const post = { boardId: 12, subjectId: null, title: 'Title', content: doc('Body'), isPrivate: false, isNotice: false };
const draft = { boardId: null, subjectId: null, title: '', content: doc('') };

/** Ids that exist elsewhere: the Korean community's, and other members' in this one (set in beforeAll). */
const other = {
	koreanPost: 0,
	koreanComment: 0,
	koreanBoard: 22,
	koreanMember: 2001,
	draftOfAnother: 0,
	postOfAnother: 0,
	commentOfAnother: 0,
	commentElsewhere: 0,
};

/** Every write route of the API by method and path under /{domain}/{slug}: a new route must be added here. */
function samples(): Record<string, RouteSample> {
	return {
		'POST /public/v1/oauth/login': { caller: 'anyone', body: { provider: 'GOOGLE' } },
		'POST /public/v1/posts/:postId/views': { caller: 'anyone', body: 'none' },
		'POST /v1/auth/logout': { caller: 'anyone', body: 'none' },
		'PUT /v1/me/nickname': { caller: 'member', body: { nickname: 'x' } },
		'POST /v1/me/withdrawal': { caller: 'member', body: { agree: false } },
		'POST /v1/me/export': { caller: 'member', body: 'none' },
		'POST /v1/signup/terms': { caller: 'signup', body: { terms: true, privacy: true } },
		'POST /v1/signup': { caller: 'signup', body: { nickname: 'x' } },
		'POST /v1/uploads': { caller: 'member', body: 'bytes' },
		'POST /v1/uploads/:key/thumbnail': { caller: 'member', body: 'bytes' },
		'PUT /v1/me/avatar': { caller: 'member', body: 'bytes' },
		'DELETE /v1/me/avatar': { caller: 'member', body: 'none' },
		'POST /v1/drafts': { caller: 'member', body: draft, foreign: [{ ...draft, boardId: other.koreanBoard }] },
		'PUT /v1/drafts/:draftId': { caller: 'member', body: draft },
		'DELETE /v1/drafts/:draftId': { caller: 'member', body: 'none' },
		'PUT /v1/posts/:postId/like': { caller: 'member', body: 'none' },
		'DELETE /v1/posts/:postId/like': { caller: 'member', body: 'none' },
		'PUT /v1/posts/:postId/comments/:commentId/like': { caller: 'member', body: 'none' },
		'DELETE /v1/posts/:postId/comments/:commentId/like': { caller: 'member', body: 'none' },
		'PUT /v1/posts/:postId/save': { caller: 'member', body: 'none' },
		'DELETE /v1/posts/:postId/save': { caller: 'member', body: 'none' },
		'POST /v1/posts/:postId/comments': {
			caller: 'member',
			body: { content: 'gg' },
			foreign: [
				{ content: 'gg', parentId: other.commentElsewhere },
				{ content: 'gg', parentId: other.koreanComment },
			],
		},
		'PATCH /v1/posts/:postId/comments/:commentId': { caller: 'member', body: { content: 'gg' } },
		'DELETE /v1/posts/:postId/comments/:commentId': { caller: 'member', body: 'none' },
		'POST /v1/posts': {
			caller: 'member',
			body: { ...post, requestId: crypto.randomUUID() },
			foreign: [
				{ ...post, boardId: other.koreanBoard, requestId: crypto.randomUUID() },
				{ ...post, draftId: other.draftOfAnother, requestId: crypto.randomUUID() },
			],
		},
		'PUT /v1/posts/:postId': { caller: 'member', body: { ...post, version: 1 } },
		'DELETE /v1/posts/:postId': { caller: 'member', body: 'none' },
		'POST /v1/reports': {
			caller: 'member',
			body: { targetType: 'POST', targetId: 1, reason: 'SPAM', detail: '' },
			foreign: [
				{ targetType: 'POST', targetId: other.koreanPost, reason: 'SPAM', detail: '' },
				{ targetType: 'COMMENT', targetId: other.koreanComment, reason: 'SPAM', detail: '' },
			],
		},
		'POST /admin/v1/posts/:postId/hide': { caller: 'admin', body: { reason: '' } },
		'POST /admin/v1/posts/:postId/unhide': { caller: 'admin', body: { reason: '' } },
		'POST /admin/v1/comments/:commentId/hide': { caller: 'admin', body: { reason: '' } },
		'POST /admin/v1/comments/:commentId/unhide': { caller: 'admin', body: { reason: '' } },
		'POST /admin/v1/members/:userId/ban': { caller: 'admin', body: { kind: 'PERMANENT', reason: '' } },
		'POST /admin/v1/members/:userId/unban': { caller: 'admin', body: { reason: '' } },
		'POST /admin/v1/members/:userId/avatar/remove': { caller: 'admin', body: { reason: '' } },
		'PUT /admin/v1/settings': { caller: 'admin', body: { autoHideReports: 5 } },
		'POST /v1/notifications/read-all': { caller: 'member', body: 'none' },
		'PUT /v1/notifications/email': { caller: 'member', body: { address: 'reader@example.com' } },
		'DELETE /v1/notifications/email': { caller: 'member', body: 'none' },
		'POST /v1/push/subscriptions': {
			caller: 'member',
			body: { endpoint: 'https://fcm.googleapis.com/fcm/send/1', keys: { p256dh: 'a', auth: 'b' } },
		},
		'DELETE /v1/push/subscriptions': { caller: 'member', body: { endpoint: 'https://fcm.googleapis.com/fcm/send/1' } },
		'POST /v1/notifications/:notificationId/read': { caller: 'member', body: 'none' },
		'PUT /v1/notifications/settings': { caller: 'member', body: { settings: { LIKE: false } } },
		'PUT /v1/watches/posts/:postId': { caller: 'member', body: 'none' },
		'DELETE /v1/watches/posts/:postId': { caller: 'member', body: 'none' },
		'PUT /v1/watches/boards/:boardId': { caller: 'member', body: 'none' },
		'DELETE /v1/watches/boards/:boardId': { caller: 'member', body: 'none' },
		'PUT /v1/me/blocks/:userId': { caller: 'member', body: 'none' },
		'DELETE /v1/me/blocks/:userId': { caller: 'member', body: 'none' },
		'POST /admin/v1/reports/:targetType/:targetId/dismiss': { caller: 'admin', body: { reason: '' } },
		'POST /admin/v1/content/:targetType/:targetId': { caller: 'admin', body: 'none' },
	};
}

/** The app's write routes (not GET, not the 404 and 405 answers), as 'METHOD /prefix/rest'. */
function writeRoutes(): string[] {
	const routes = api.routes.filter(
		(route) =>
			!['GET', 'ALL'].includes(route.method) && route.handler !== methodNotAllowed && route.handler !== routeNotFound && !route.path.endsWith('*'),
	);
	return [...new Set(routes.map((route) => `${route.method} ${route.path.replace('/:domain/:slug', '')}`))].sort();
}

/** Ill-formed path ids: not a number, zero, negative, fractional, exponent, beyond 2^53, padded. */
const BAD_IDS = ['abc', '0', '-1', '1.5', '1e3', '99999999999999999', '9007199254740993', '007', '%20'];
/** A value no field of any body takes: negative, fractional, beyond 2^53, objects and arrays. */
const BAD_VALUES: unknown[] = [-1, 0.5, 1e300, 2 ** 53 + 2, { x: 1 }, [[]], null];
/** Words of a validator that must never reach a client. */
const INTERNALS = [
	'regex',
	'Expected',
	'expected',
	'Invalid input',
	'/^',
	'received',
	'Received',
	'invalid_type',
	'too_big',
	'unrecognized',
	'zod',
	'Zod',
	'blocks.',
	'[A-Za-z',
	'must be a positive',
	'path',
];

/** The tables' row counts: a refused request changes none. */
async function rowCounts(): Promise<Record<string, number>> {
	const tables = await env.DB.prepare(
		"SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name NOT LIKE 'd1_%' AND name NOT LIKE '%_data' AND name NOT LIKE '%_idx' AND name NOT LIKE '%_content' AND name NOT LIKE '%_docsize' AND name NOT LIKE '%_config' ORDER BY name",
	).all<{ name: string }>();
	const counts: Record<string, number> = {};
	for (const { name } of tables.results) counts[name] = (await env.DB.prepare(`SELECT count(*) AS n FROM "${name}"`).first<number>('n')) ?? 0;
	return counts;
}

let made = 0;
/** A new member of the global community (an old one: joined long ago), signed in; a fresh one per few requests keeps each under the rate limits. */
async function newMember(role: Role = 'MEMBER'): Promise<{ cookie: string; userId: number }> {
	made += 1;
	const subject = `input-errors-${made}-${crypto.randomUUID()}`;
	const identity = await env.DB.prepare("INSERT INTO identities (provider, subject, created_at) VALUES ('GOOGLE', ?1, 0) RETURNING id")
		.bind(subject)
		.first<number>('id');
	const userId = await env.DB.prepare(
		"INSERT INTO members (channel_id, identity_id, nickname, role, provider, recent_provider, joined_at, terms_agreed_at, privacy_agreed_at) VALUES (1, ?1, ?2, ?3, 'GOOGLE', 'GOOGLE', 0, 0, 0) RETURNING id",
	)
		.bind(identity, `InputErr${made}`, role)
		.first<number>('id');
	return { cookie: await signInSubject(subject), userId: userId ?? 0 };
}

let requests = 0;
/** Sends as `cookie` from an address of its own, so that the rate limits count each request apart. */
function send(method: string, url: string, cookie: string | undefined, body: unknown): Promise<Answer> {
	requests += 1;
	const headers = { 'cf-connecting-ip': `203.0.113.${requests % 250}:${requests}` };
	if (body === undefined) return call(url, { method, headers, ...(cookie ? { cookie } : {}) });
	return call(url, { method, headers, body: typeof body === 'string' ? body : JSON.stringify(body), ...(cookie ? { cookie } : {}) });
}

/** The URL of a route with its path parameters filled in. */
function urlOf(route: string, ids: Record<string, string>): string {
	const path = route.slice(route.indexOf(' ') + 1);
	const [, prefix, rest] = /^(\/(?:public\/|admin\/)?v1)(.*)$/.exec(path) ?? [];
	return `${ORIGIN}${prefix}/starfall/global${(rest ?? '').replace(/:(\w+)/g, (_, name: string) => ids[name] ?? '1')}`;
}

/** Checks that an answer is a refusal in the catalogue's words. */
function expectRefusal(answer: Answer, what: string): void {
	expect(answer.status, `${what}: ${JSON.stringify(answer.body)}`).toBeGreaterThanOrEqual(400);
	expect(answer.status, what).toBeLessThan(500);
	const name = (Object.keys(ResultCodes) as ResultCodeName[]).find((candidate) => ResultCodes[candidate].code === answer.code);
	expect(name, `${what}: ${answer.code}`).toBeDefined();
	expect(ResultCodes[name!].status, what).toBe(answer.status);
	const text = JSON.stringify(answer.body);
	for (const word of INTERNALS) expect(text.includes(word), `${what} says "${word}": ${text}`).toBe(false);
}

let good: Record<string, string>;

beforeAll(async () => {
	const postId = await postWhere('board_id = 12 AND deleted_at IS NULL AND hidden_by_admin = 0 AND is_private = 0');
	other.koreanPost = await postWhere('deleted_at IS NULL', KOREAN.id);
	other.koreanComment = (await env.DB.prepare('SELECT id FROM comments WHERE channel_id = 2 ORDER BY id LIMIT 1').first<number>('id')) ?? 0;
	other.commentElsewhere =
		(await env.DB.prepare('SELECT id FROM comments WHERE channel_id = 1 AND post_id <> ?1 AND deleted_at IS NULL ORDER BY id LIMIT 1')
			.bind(postId)
			.first<number>('id')) ?? 0;
	other.draftOfAnother = (await env.DB.prepare('SELECT id FROM drafts WHERE channel_id = 1 ORDER BY id LIMIT 1').first<number>('id')) ?? 0;
	other.postOfAnother = postId;
	other.commentOfAnother =
		(await env.DB.prepare('SELECT id FROM comments WHERE channel_id = 1 AND post_id = ?1 AND deleted_at IS NULL ORDER BY id LIMIT 1')
			.bind(postId)
			.first<number>('id')) ?? 0;
	expect(
		Object.values(other).every((id) => id > 0),
		JSON.stringify(other),
	).toBe(true);
	good = {
		postId: String(postId),
		commentId: String(other.commentOfAnother),
		draftId: String(other.draftOfAnother),
		userId: '1007',
		targetType: 'posts',
		targetId: String(postId),
	};
});

describe('the list of write routes', () => {
	it('names every route of the API that writes', () => {
		expect(writeRoutes()).toEqual(Object.keys(samples()).sort());
	});
});

describe('the caller is checked before the input', () => {
	it("answers a guest's malformed request on every member and admin route with the caller's error, before reading it", async () => {
		const before = await rowCounts();
		for (const [route, sample] of Object.entries(samples())) {
			if (sample.caller === 'anyone') continue;
			const expected = sample.caller === 'signup' ? 'SignupExpired' : 'LoginRequired';
			const method = route.slice(0, route.indexOf(' '));
			for (const ids of [good, { postId: 'abc', commentId: '-1', draftId: '1.5', userId: '1e3', targetType: 'users', targetId: '0' }]) {
				for (const body of ['{"title":', '[1,2]', { unknown: 'field', title: 5 }, 'x'.repeat(600 * 1024)]) {
					const answer = await send(method, `${urlOf(route, ids)}?unexpected=1`, undefined, body);
					expect([route, answer.status, answer.code], JSON.stringify(answer.body)).toEqual([route, 401, ResultCodes[expected].code]);
				}
			}
		}
		expect(await rowCounts()).toEqual(before);
	});

	it("answers a banned member's malformed request with the ban, and a member's on an administrator's route with Forbidden", async () => {
		const banned = await newMember();
		await env.DB.prepare("INSERT INTO bans (channel_id, member_id, kind, ends_at, created_at) VALUES (1, ?1, 'PERMANENT', NULL, 0)")
			.bind(banned.userId)
			.run();
		const member = await newMember();
		const before = await rowCounts();
		for (const [route, sample] of Object.entries(samples())) {
			if (sample.caller !== 'member' && sample.caller !== 'admin') continue;
			const method = route.slice(0, route.indexOf(' '));
			const asBanned = await send(
				method,
				urlOf(route, { postId: 'abc', commentId: 'x', draftId: 'x', userId: 'x', targetId: 'x' }),
				banned.cookie,
				'{"broken":',
			);
			expect([route, asBanned.status, asBanned.code]).toEqual([route, 403, ResultCodes.Banned.code]);
			if (sample.caller === 'admin') {
				const asMember = await send(method, urlOf(route, { postId: 'abc', commentId: 'x', userId: 'x', targetId: 'x' }), member.cookie, '{"broken":');
				expect([route, asMember.status, asMember.code]).toEqual([route, 403, ResultCodes.Forbidden.code]);
			}
		}
		expect(await rowCounts()).toEqual(before);
	});
});

describe("a member's bad input", () => {
	it('is refused on every write route with a catalogue code in its own words, and changes nothing', async () => {
		const list = samples();
		// Callers for the routes, made before counting: a fresh one for every few requests.
		const pool: Record<'member' | 'admin' | 'signup' | 'anyone', string[]> = { member: [], admin: [], signup: [], anyone: [''] };
		for (let i = 0; i < 60; i += 1) pool.member.push((await newMember()).cookie);
		for (let i = 0; i < 40; i += 1) pool.admin.push((await newMember('ADMIN')).cookie);
		for (let i = 0; i < 12; i += 1) {
			const outcome = await signInIdentity(
				env.DB,
				1,
				{ provider: 'GOOGLE', subject: `input-errors-signup-${i}-${crypto.randomUUID()}` },
				'/starfall/global',
				env.SESSION_SECRET,
			);
			if (outcome.kind === 'signup') pool.signup.push(`${cookieName('signup', 'starfall', 'global')}=${outcome.signupToken}`);
		}
		let turn = 0;
		const callerFor = (caller: RouteSample['caller']) => {
			turn += 1;
			const cookies = pool[caller];
			return cookies[Math.floor(turn / 4) % cookies.length] || undefined;
		};
		const before = await rowCounts();
		let cases = 0;
		for (const [route, sample] of Object.entries(list)) {
			const method = route.slice(0, route.indexOf(' '));
			const tries: { what: string; ids: Record<string, string>; body: unknown }[] = [];
			const params = [...route.matchAll(/:(\w+)/g)].map((match) => match[1]!);
			// Ill-formed ids in the path, one parameter at a time (with a well-formed body).
			const wellFormed = sample.body === 'none' ? undefined : sample.body === 'bytes' ? 'not an image' : sample.body;
			for (const param of params) for (const id of BAD_IDS) tries.push({ what: `${param}=${id}`, ids: { ...good, [param]: id }, body: wellFormed });
			// Ids of other communities and other members in the path.
			if (params.length > 0 && route !== 'POST /public/v1/posts/:postId/views') {
				const foreign: Record<string, string> = {
					postId: String(other.koreanPost),
					commentId: String(other.koreanComment),
					draftId: '999999',
					userId: String(other.koreanMember),
					targetId: String(other.koreanPost),
					boardId: String(other.koreanBoard),
					notificationId: '999999',
				};
				for (const param of params.filter((name) => name in foreign))
					tries.push({ what: `foreign ${param}`, ids: { ...good, [param]: foreign[param]! }, body: wellFormed });
				// Watching another member's post is what watching is for.
				if (/posts\/:postId$/.test(route) && !route.includes('/watches/') && method !== 'POST')
					tries.push({ what: "another member's post", ids: good, body: wellFormed });
				// Liking another member's comment is what a comment's like is for.
				if (route.includes(':commentId') && !route.startsWith('POST /admin') && !route.endsWith('/like'))
					tries.push({ what: "another member's comment", ids: good, body: wellFormed });
			}
			// Unknown query keys (the view beacon, which reads nothing but its path, ignores them).
			if (route !== 'POST /public/v1/posts/:postId/views') tries.push({ what: 'a query', ids: { ...good, '?': '' }, body: wellFormed });
			if (sample.body === 'bytes') {
				for (const body of ['', 'GIF89a', 'x'.repeat(11 * 1024 * 1024)]) tries.push({ what: `upload of ${body.length} bytes`, ids: good, body });
			} else if (sample.body !== 'none') {
				// Bodies of every bad kind: empty, not JSON, other JSON types, arrays for objects, huge, unknown fields, and each field spoiled.
				for (const body of [
					'',
					'{',
					'null',
					'true',
					'42',
					'"text"',
					'[]',
					JSON.stringify([sample.body]),
					JSON.stringify({ ...sample.body, unknownField: 1 }),
					JSON.stringify({ ...sample.body, padding: 'x'.repeat(600 * 1024) }),
				]) {
					tries.push({ what: `body ${body.slice(0, 40)}`, ids: good, body });
				}
				for (const field of Object.keys(sample.body)) {
					for (const value of BAD_VALUES) {
						if (value === null && (field === 'subjectId' || field === 'boardId' || field === 'autoHideReports')) continue;
						tries.push({ what: `${field}=${JSON.stringify(value)}`, ids: good, body: JSON.stringify({ ...sample.body, [field]: value }) });
					}
				}
				for (const body of sample.foreign ?? [])
					tries.push({ what: `foreign body ${JSON.stringify(body).slice(0, 80)}`, ids: good, body: JSON.stringify(body) });
			}
			for (const { what, ids, body } of tries) {
				const query = '?' in ids ? '?unexpected=1' : '';
				const answer = await send(method, `${urlOf(route, ids)}${query}`, callerFor(sample.caller), body);
				expectRefusal(answer, `${route} ${what}`);
				cases += 1;
			}
		}
		expect(cases).toBeGreaterThan(500);
		expect(await rowCounts()).toEqual(before);
	}, 180_000);

	it('answers each field failure that has its own code with that code and its text', async () => {
		const { cookie } = await newMember();
		const admin = (await newMember('ADMIN')).cookie;
		const image = (src: unknown, extra: object = {}) => ({
			...post,
			requestId: crypto.randomUUID(),
			content: { type: 'doc', blocks: [{ type: 'image', src, alt: '', ...extra }] },
		});
		const video = (videoId: unknown) => ({
			...post,
			requestId: crypto.randomUUID(),
			content: { type: 'doc', blocks: [{ type: 'youtube', videoId }] },
		});
		const v1 = `${ORIGIN}/v1/starfall/global`;
		const adminApi = `${ORIGIN}/admin/v1/starfall/global`;
		const cases: [string, string, string, string, unknown, ResultCodeName][] = [
			['an outside image', 'POST', `${v1}/posts`, cookie, image('https://evil.example/cat.png'), 'ImageNotUploaded'],
			[
				'an image path elsewhere on the site',
				'POST',
				`${v1}/drafts`,
				cookie,
				{ ...draft, content: image('/v1/starfall/global/me').content },
				'ImageNotUploaded',
			],
			['an image without a source', 'POST', `${v1}/posts`, cookie, image(undefined), 'InvalidImage'],
			['an image with a negative width', 'POST', `${v1}/posts`, cookie, image('/demo/cat.png', { width: -5 }), 'InvalidImage'],
			['a bad YouTube id', 'POST', `${v1}/posts`, cookie, video('not-a-video-id-at-all'), 'InvalidVideoUrl'],
			[
				'a YouTube URL for an id',
				'PUT',
				`${v1}/drafts/${good.draftId}`,
				cookie,
				{ ...draft, content: video('https://youtu.be/dQw4w9WgXcQ').content },
				'InvalidVideoUrl',
			],
			['no title', 'POST', `${v1}/posts`, cookie, { ...post, title: undefined, requestId: crypto.randomUUID() }, 'TitleRequired'],
			[
				'a title of 5,000 characters',
				'POST',
				`${v1}/posts`,
				cookie,
				{ ...post, title: 'x'.repeat(5000), requestId: crypto.randomUUID() },
				'TitleTooLong',
			],
			['no content', 'POST', `${v1}/drafts`, cookie, { ...draft, content: undefined }, 'ContentRequired'],
			[
				'1,001 blocks',
				'POST',
				`${v1}/posts`,
				cookie,
				{ ...post, requestId: crypto.randomUUID(), content: { type: 'doc', blocks: Array(1001).fill({ type: 'paragraph', children: [] }) } },
				'ContentTooLarge',
			],
			[
				'a text of 10,001 characters',
				'POST',
				`${v1}/posts`,
				cookie,
				{ ...post, requestId: crypto.randomUUID(), content: doc('y'.repeat(10_001)) },
				'ContentTooLarge',
			],
			['a comment without content', 'POST', `${v1}/posts/${good.postId}/comments`, cookie, {}, 'CommentRequired'],
			['no nickname', 'PUT', `${v1}/me/nickname`, cookie, {}, 'NicknameRequired'],
			['a nickname of 401 characters', 'PUT', `${v1}/me/nickname`, cookie, { nickname: 'n'.repeat(401) }, 'NicknameLength'],
			['no agreement to withdraw', 'POST', `${v1}/me/withdrawal`, cookie, {}, 'WithdrawalUnconfirmed'],
			[
				'an unknown report reason',
				'POST',
				`${v1}/reports`,
				cookie,
				{ targetType: 'POST', targetId: 1, reason: 'RUDE', detail: '' },
				'ReportReasonRequired',
			],
			['no report reason', 'POST', `${v1}/reports`, cookie, { targetType: 'POST', targetId: 1, detail: '' }, 'ReportReasonRequired'],
			[
				'OTHER without a detail',
				'POST',
				`${v1}/reports`,
				cookie,
				{ targetType: 'POST', targetId: 1, reason: 'OTHER', detail: ' ' },
				'ReportDetailRequired',
			],
			[
				'a detail of 501 characters',
				'POST',
				`${v1}/reports`,
				cookie,
				{ targetType: 'POST', targetId: 1, reason: 'SPAM', detail: 'd'.repeat(501) },
				'ReportDetailTooLong',
			],
			['a ban that ended', 'POST', `${adminApi}/members/1007/ban`, admin, { kind: 'TEMPORARY', endsAt: 1000, reason: '' }, 'BanEndInvalid'],
			['a ban with a negative end', 'POST', `${adminApi}/members/1007/ban`, admin, { kind: 'TEMPORARY', endsAt: -1, reason: '' }, 'BanEndInvalid'],
			['a temporary ban without an end', 'POST', `${adminApi}/members/1007/ban`, admin, { kind: 'TEMPORARY', reason: '' }, 'BanEndInvalid'],
			['a threshold of 0', 'PUT', `${adminApi}/settings`, admin, { autoHideReports: 0 }, 'AutoHideThresholdInvalid'],
			['a threshold of 2.5', 'PUT', `${adminApi}/settings`, admin, { autoHideReports: 2.5 }, 'AutoHideThresholdInvalid'],
			['a threshold as text', 'PUT', `${adminApi}/settings`, admin, { autoHideReports: '3' }, 'AutoHideThresholdInvalid'],
			['a provider nobody offers', 'POST', `${ORIGIN}/public/v1/starfall/global/oauth/login`, '', { provider: 'FACEBOOK' }, 'ProviderNotOffered'],
		];
		const before = await rowCounts();
		for (const [name, method, url, caller, body, expected] of cases) {
			const answer = await send(method, url, caller || undefined, body);
			expect([name, answer.code, answer.body.header.resultMessage]).toEqual([name, ResultCodes[expected].code, RESULT_MESSAGES[expected]]);
			expectRefusal(answer, name);
		}
		expect(await rowCounts()).toEqual(before);
	});

	it('names at most the top-level field of a failure that has no code of its own', async () => {
		const { cookie } = await newMember();
		const answer = await send('POST', `${ORIGIN}/v1/starfall/global/posts`, cookie, {
			...post,
			requestId: crypto.randomUUID(),
			content: { type: 'doc', blocks: [{ type: 'paragraph', children: [{ text: 'x', bold: 'yes' }] }] },
		});
		expect([answer.code, answer.body.header.resultMessage]).toEqual([
			ResultCodes.InvalidParameter.code,
			'The request has an invalid parameter: content.',
		]);
		const unknown = await send('POST', `${ORIGIN}/v1/starfall/global/posts`, cookie, { ...post, requestId: crypto.randomUUID(), '<script>': 1 });
		expect([unknown.code, unknown.body.header.resultMessage]).toEqual([
			ResultCodes.InvalidParameter.code,
			'The request has an invalid parameter: an unknown field.',
		]);
	});
});

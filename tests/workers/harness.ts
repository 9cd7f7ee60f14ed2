/**
 * The harness of the workers tests: API calls in the envelope, members signed in the way the
 * providers' return signs them in, and a D1 that records the SQL a service really runs with what
 * D1 says it cost.
 */
import { expect } from 'vitest';
import { env } from 'cloudflare:workers';
import { api } from '@functions/api/app';
import { countRoundTrips, type RoundTrips } from '@/server/platform/database';
import { writeBudget } from '../round-trip-budget';
import { signInIdentity } from '@/server/accounts/signup';
import { cookieName } from '@/server/sign-in/cookies';
import { forgetChannel } from '@/server/channels/channels';
import type { Provider } from '@/schemas/channel';
import { LIMITERS } from '@/server/platform/rate-limit';
import { createExecutionContext, createMessageBatch, getQueueResult, type QueueResult } from 'cloudflare:test';
import { consumeNotifications } from '@/server/notifications/consumer';
import { pushSetupFromEnv } from '@/server/notifications/push';
import { emailSetupFromEnv } from '@/server/notifications/email';
import type { SessionMember } from '@/server/sign-in/sessions';

export const ORIGIN = 'http://localhost';

/** The longest window a rate limiter counts in (ms). */
const RATE_WINDOW_MS = Math.max(...Object.values(LIMITERS).map(({ periodSeconds }) => periodSeconds)) * 1000;
/** The time a test's counting up to a limit and past it may take. */
const COUNTING_MS = 10_000;

/**
 * Waits for the next window of the rate limiters when the current one ends within 10 seconds. The
 * limiters (miniflare's, like Cloudflare's) count in windows aligned to the clock, so a count that
 * went on across the turn of a window would start again from zero mid-way: a test that counts up to
 * a limit and past it calls this first, and is done counting within 10 seconds.
 */
export async function startOfRateWindow(): Promise<void> {
	const left = RATE_WINDOW_MS - (Date.now() % RATE_WINDOW_MS);
	if (left < COUNTING_MS) await new Promise((resolve) => setTimeout(resolve, left + 100));
}

/** The SESSION_SECRET the workers tests run with (vitest.config.ts). */
export const TEST_SECRET = env.SESSION_SECRET;

export interface ChannelRef {
	id: number;
	domain: string;
	slug: string;
}

export const GLOBAL: ChannelRef = { id: 1, domain: 'starfall', slug: 'global' };
export const KOREAN: ChannelRef = { id: 2, domain: 'starfall', slug: 'kr' };

/** The public API prefix of a channel. */
export const publicApi = (channel: ChannelRef = GLOBAL) => `${ORIGIN}/public/v1/${channel.domain}/${channel.slug}`;
/** The member API prefix of a channel. */
export const memberApi = (channel: ChannelRef = GLOBAL) => `${ORIGIN}/v1/${channel.domain}/${channel.slug}`;

export interface Answer {
	status: number;
	/** header.resultCode of the envelope (0 for a success). */
	code: number;
	body: Record<string, unknown> & { header: { isSuccessful: boolean; resultCode: number; resultMessage: string } };
	cookies: string[];
	headers: Headers;
	/** The database round trips the request took (src/server/platform/database.ts). */
	trips: RoundTrips;
}

export interface CallInit {
	method?: string;
	cookie?: string;
	/** A plain value is sent as JSON; a string as it is. */
	body?: unknown;
	headers?: Record<string, string>;
}

/**
 * Each test's own client address, so that one test's requests never use another's rate-limit
 * budget: a short hash of the test's name (the limiters keep at most 64 characters of an address,
 * and tests of one it.each share a long prefix).
 */
function testAddress(name: string): string {
	let hash = 0x811c9dc5;
	for (let i = 0; i < name.length; i += 1) hash = Math.imul(hash ^ name.charCodeAt(i), 0x01000193) >>> 0;
	return `test:${hash.toString(16)}:${name.slice(0, 40)}`;
}

/**
 * Asks the API as a browser on this site would (same-origin Origin header unless overridden). Each
 * test is its own client address (CF-Connecting-IP), so that rate limits count per test as they
 * count per reader.
 */
export async function call(url: string, init: CallInit = {}): Promise<Answer> {
	const headers: Record<string, string> = {
		origin: ORIGIN,
		'cf-connecting-ip': testAddress(expect.getState().currentTestName ?? 'setup'),
		...init.headers,
	};
	if (init.cookie) headers['cookie'] = init.cookie;
	let body: string | undefined;
	if (init.body !== undefined) {
		body = typeof init.body === 'string' ? init.body : JSON.stringify(init.body);
		headers['content-type'] ??= 'application/json';
	}
	const { response, trips } = await countRoundTrips(async (trips) => {
		const answered = await api.request(url, { method: init.method ?? 'GET', headers, ...(body === undefined ? {} : { body }) });
		trips.answered = true;
		return { response: answered, trips };
	});
	// Every write any test sends keeps to its round-trip budget, refused or not.
	if ((init.method ?? 'GET') !== 'GET') {
		const { route, budget } = writeBudget(init.method ?? 'GET', new URL(url).pathname, response.ok);
		expect(trips.depth, `${route} → ${response.status}: round trips in sequence (tests/round-trip-budget.ts)`).toBeLessThanOrEqual(budget);
	}
	const text = await response.text();
	const parsed = (text ? JSON.parse(text) : { header: { isSuccessful: response.ok, resultCode: 0, resultMessage: '' } }) as Answer['body'];
	// A download (the member's export) is a JSON file, not an envelope: it carries no result code.
	return {
		status: response.status,
		code: (parsed.header as Answer['body']['header'] | undefined)?.resultCode ?? 0,
		body: parsed,
		cookies: response.headers.getSetCookie(),
		headers: response.headers,
		trips,
	};
}

/** The channel's session cookie name (`__Host-`, as on https and loopback). */
export const sessionCookie = (channel: ChannelRef = GLOBAL) => cookieName('session', channel.domain, channel.slug);

/**
 * The database that holds the community's rows, as the directory (DB) names it: DB itself unless
 * a test placed the community elsewhere (seed.ts `placeDemo`, docs/reference/databases.md).
 */
export async function communityDatabase(channelId: number): Promise<D1Database> {
	const name = await env.DB.prepare('SELECT database FROM channels WHERE id = ?1').bind(channelId).first<string>('database');
	return name && name !== 'DB' ? (Reflect.get(env, name) as D1Database) : env.DB;
}

/** What the sign-in services take for the community: the directory, and the community's own database when it is not that. */
export async function signInDatabases(channelId: number): Promise<D1Database | { directory: D1Database; community: D1Database }> {
	const community = await communityDatabase(channelId);
	return community === env.DB ? env.DB : { directory: env.DB, community };
}

/** Signs a demo member in as the providers' return does; returns the `name=value` session cookie. */
export async function signIn(memberId: number, channel: ChannelRef = GLOBAL): Promise<string> {
	const identity = await (await communityDatabase(channel.id))
		.prepare('SELECT i.provider, i.subject FROM members m JOIN identities i ON i.id = m.identity_id WHERE m.id = ?1')
		.bind(memberId)
		.first<{ provider: Provider; subject: string }>();
	if (!identity) throw new Error(`member ${memberId} has no identity`);
	return signInSubject(identity.subject, identity.provider, channel);
}

/** Signs an identity in by its subject; it must be a member of the channel. */
export async function signInSubject(subject: string, provider: Provider = 'GOOGLE', channel: ChannelRef = GLOBAL): Promise<string> {
	const outcome = await signInIdentity(
		await signInDatabases(channel.id),
		channel.id,
		{ provider, subject },
		`/${channel.domain}/${channel.slug}`,
		TEST_SECRET,
	);
	if (outcome.kind !== 'member') throw new Error(`${subject} is not a member of ${channel.domain}/${channel.slug}`);
	return `${sessionCookie(channel)}=${outcome.sessionToken}`;
}

/** Starts a first sign-in of a new identity; returns the sign-up cookie. */
export async function startSignup(subject: string, channel: ChannelRef = GLOBAL): Promise<string> {
	const outcome = await signInIdentity(
		await signInDatabases(channel.id),
		channel.id,
		{ provider: 'GOOGLE', subject },
		`/${channel.domain}/${channel.slug}/boards/12`,
		TEST_SECRET,
	);
	if (outcome.kind !== 'signup') throw new Error(`${subject} is already a member`);
	return `${cookieName('signup', channel.domain, channel.slug)}=${outcome.signupToken}`;
}

/** Signs up a new member with `nickname`; returns their session cookie and id. */
export async function signUp(subject: string, nickname: string, channel: ChannelRef = GLOBAL): Promise<{ cookie: string; userId: number }> {
	const signup = await startSignup(subject, channel);
	await call(`${memberApi(channel)}/signup/terms`, { method: 'POST', cookie: signup, body: { terms: true, privacy: true } });
	const done = await call(`${memberApi(channel)}/signup`, { method: 'POST', cookie: signup, body: { nickname } });
	expect(done.code).toBe(0);
	const cookie = done.cookies.find((value) => value.startsWith(`${sessionCookie(channel)}=`))?.split(';')[0];
	if (!cookie) throw new Error('no session cookie');
	return { cookie, userId: (done.body['content'] as { user: { userId: number } }).user.userId };
}

/**
 * What a new post does to the channel's row, and this isolate's copy of it dropped: its "all" list
 * moves, so the layout's remembered counts are stale on the next request.
 */
export async function moveAllList(channel: ChannelRef = GLOBAL): Promise<void> {
	await env.DB.prepare(
		`UPDATE channels SET list_versions = json_set(list_versions, '$.all', coalesce(json_extract(list_versions, '$.all'), 0) + 1) WHERE id = ?1`,
	)
		.bind(channel.id)
		.run();
	forgetChannel(channel.domain, channel.slug);
}

/** One demo row's id by a condition on posts, oldest first. */
export async function postWhere(where: string, channelId = 1): Promise<number> {
	const row = await (await communityDatabase(channelId))
		.prepare(`SELECT id FROM posts WHERE channel_id = ?1 AND ${where} ORDER BY id LIMIT 1`)
		.bind(channelId)
		.first<{ id: number }>();
	if (!row) throw new Error(`no post where ${where}`);
	return row.id;
}

export interface RecordedStatement {
	sql: string;
	params: unknown[];
	rowsRead: number;
	rowsWritten: number;
}

/**
 * A Db that runs everything on `db` and records each statement with its parameters and
 * the rows D1 read and wrote for it: the services' real SQL, for query plans and cost bounds.
 */
export function recordingDb(db: Db = env.DB): { db: Db; statements: RecordedStatement[] } {
	const statements: RecordedStatement[] = [];
	const record = (sql: string, params: unknown[], meta: D1Meta) =>
		statements.push({ sql, params, rowsRead: meta.rows_read, rowsWritten: meta.rows_written });
	const wrap = (sql: string, params: unknown[], inner: D1PreparedStatement): D1PreparedStatement => {
		const statement = {
			inner,
			sql,
			params,
			bind: (...values: unknown[]) => wrap(sql, values, inner.bind(...values)),
			async all<T>() {
				const result = await inner.all<T>();
				record(sql, params, result.meta);
				return result;
			},
			async run<T>() {
				const result = await inner.run<T>();
				record(sql, params, result.meta);
				return result;
			},
			async first<T>(column?: string) {
				const result = await inner.all<Record<string, unknown>>();
				record(sql, params, result.meta);
				const row = result.results[0] ?? null;
				return (column === undefined ? row : (row?.[column] ?? null)) as T;
			},
			raw: () => {
				throw new Error('recordingDb does not record raw()');
			},
		};
		return statement as unknown as D1PreparedStatement;
	};
	const recording = {
		prepare: (sql: string) => wrap(sql, [], db.prepare(sql)),
		async batch(list: D1PreparedStatement[]) {
			const wrapped = list as unknown as { inner: D1PreparedStatement; sql: string; params: unknown[] }[];
			const results = await db.batch(wrapped.map((statement) => statement.inner));
			results.forEach((result, i) => record(wrapped[i]?.sql ?? '', wrapped[i]?.params ?? [], result.meta));
			return results;
		},
	};
	return { db: recording as unknown as Db, statements };
}

/** The query plan of a recorded statement: its detail lines. */
export async function queryPlan(statement: RecordedStatement, db: Db = env.DB): Promise<string[]> {
	const plan = await db
		.prepare(`EXPLAIN QUERY PLAN ${statement.sql}`)
		.bind(...statement.params)
		.all<{ detail: string }>();
	return plan.results.map((row) => row.detail);
}

/** A demo member as the notification tests use them. */
export interface DemoMember {
	id: number;
	nickname: string;
}

/** The channel's plain members (a nickname, not withdrawn, never banned), oldest first, at most `limit`. */
export async function plainMembers(channelId: number, limit: number): Promise<DemoMember[]> {
	const { results } = await (
		await communityDatabase(channelId)
	)
		.prepare(
			`SELECT m.id, m.nickname FROM members m WHERE m.channel_id = ?1 AND m.role = 'MEMBER' AND m.withdrawn_at IS NULL AND m.nickname IS NOT NULL
		 AND NOT EXISTS (SELECT 1 FROM bans b WHERE b.member_id = m.id AND b.lifted_at IS NULL) ORDER BY m.id LIMIT ?2`,
		)
		.bind(channelId, limit)
		.all<DemoMember>();
	return results;
}

/** The session a service takes for `member` (a member of long standing: no new-member limits). */
export const sessionOf = ({ id, nickname }: DemoMember, role: SessionMember['role'] = 'MEMBER'): SessionMember => ({
	userId: id,
	nickname,
	role,
	provider: 'GOOGLE',
	recentProvider: 'GOOGLE',
	joinedAt: 0,
});

/** The session a service takes for member `userId`, named `member {userId}` (no new-member limits). */
export const memberOf = (userId: number, role: SessionMember['role'] = 'MEMBER'): SessionMember =>
	sessionOf({ id: userId, nickname: `member ${userId}` }, role);

/** What the product sent to the notifications queue since the last call (setup.ts keeps it). */
export function takeSentNotifications(): unknown[] {
	const store = globalThis as { sentNotifications?: unknown[] };
	const sent = store.sentNotifications ?? [];
	store.sentNotifications = [];
	return sent;
}

/**
 * Delivers messages to the product's notifications consumer as the queue would (a batch, each
 * message with its attempts), and answers what the consumer acknowledged or asked to retry.
 * Without `messages`, what the product sent since the last call, until nothing more is sent (a
 * fan-out's next page is a message of its own). `now`: the consumer's clock (the bounds' windows).
 */
export async function deliverNotifications(
	messages?: { body: unknown; id?: string; attempts?: number }[],
	{ now }: { now?: number } = {},
): Promise<{ results: QueueResult[]; delivered: number }> {
	const results: QueueResult[] = [];
	let delivered = 0;
	let next: { body: unknown; id?: string; attempts?: number }[] = messages ?? takeSentNotifications().map((body) => ({ body }));
	while (next.length > 0) {
		const batch = createMessageBatch(
			'community-board-notifications',
			next.map((message, index) => ({
				id: message.id ?? `message-${delivered + index}`,
				timestamp: Date.now(),
				attempts: message.attempts ?? 1,
				body: message.body,
			})),
		);
		const ctx = createExecutionContext();
		await consumeNotifications(batch, env.DB, pushSetupFromEnv(env), emailSetupFromEnv(env), now === undefined ? Date.now : () => now);
		results.push(await getQueueResult(batch, ctx));
		delivered += next.length;
		next = messages ? [] : takeSentNotifications().map((body) => ({ body }));
	}
	return { results, delivered };
}

/** A post's states a test may need that the API cannot make (hidden, deleted, on another board or channel). */
export interface FreshPostState {
	isPrivate?: boolean;
	boardId?: number;
	hidden?: boolean;
	deleted?: boolean;
	channelId?: number;
}

/** A new post with no comments, written directly: of the free board (12) of /starfall/global by `authorId` unless `state` says otherwise. */
export async function freshPost(authorId = 1007, state: FreshPostState = {}, title = 'A test post'): Promise<number> {
	return (await (
		await communityDatabase(state.channelId ?? 1)
	)
		.prepare(
			`INSERT INTO posts (channel_id, board_id, member_id, title, content, content_text, is_private, hidden_by_admin, deleted_at, created_at)
		 VALUES (?1, ?2, ?3, ?4, '{"type":"doc","blocks":[]}', '', ?5, ?6, ?7, ?8) RETURNING id`,
		)
		.bind(
			state.channelId ?? 1,
			state.boardId ?? 12,
			authorId,
			title,
			state.isPrivate ? 1 : 0,
			state.hidden ? 1 : 0,
			state.deleted ? Date.now() : null,
			Date.now(),
		)
		.first<number>('id'))!;
}

/** The D1 rows `action` read and wrote, summed over its statements, through a recording database (of `on`, DB unless given). */
export async function rowCost(action: (db: Db) => Promise<unknown>, on: Db = env.DB): Promise<{ read: number; written: number }> {
	const { db, statements } = recordingDb(on);
	await action(db);
	return { read: statements.reduce((sum, s) => sum + s.rowsRead, 0), written: statements.reduce((sum, s) => sum + s.rowsWritten, 0) };
}

/** Member `memberId`'s likes of the comments `commentIds` of post `postId` (channel 1), written directly. */
export function likeComments(memberId: number, postId: number, commentIds: number[]): Promise<D1Result[]> {
	return env.DB.batch(
		commentIds.map((id) =>
			env.DB.prepare('INSERT INTO comment_likes (comment_id, member_id, post_id, channel_id, created_at) VALUES (?1, ?2, ?3, 1, 0)').bind(
				id,
				memberId,
				postId,
			),
		),
	);
}

/** A database (`db`, DB unless given) whose every batch is preceded by the post's deletion: a deletion racing an action's one batch. */
export function deletingFirst(postId: number, db: D1Database = env.DB): Db {
	return {
		prepare: (sql: string) => db.prepare(sql),
		batch: async (statements: D1PreparedStatement[]) => {
			await db.prepare('UPDATE posts SET deleted_at = 1 WHERE id = ?1').bind(postId).run();
			return db.batch(statements);
		},
	} as unknown as Db;
}

/** A request of a bad-input case: its method, its path under the member API, and what it sends. */
export interface BadRequest {
	method: string;
	path: string;
	body?: unknown;
	headers?: Record<string, string>;
}

/**
 * The bad input a bodiless action on a post (`/posts/{postId}/{resource}`: a like, a save) refuses,
 * with its code: malformed and out-of-range ids, an unknown post, a query string, a body, another
 * method, another site. `query` is a parameter the action might be thought to take.
 */
export function postActionBadInput(resource: string, query: string): [string, (postId: number) => BadRequest, number][] {
	const at = (id: number | string) => `/posts/${id}/${resource}`;
	return [
		['a malformed post id', () => ({ method: 'PUT', path: at('abc') }), -4001400],
		['a zero post id', () => ({ method: 'PUT', path: at(0) }), -4001400],
		['a post id beyond 2^53', () => ({ method: 'DELETE', path: at('99999999999999999') }), -4001400],
		['an unknown post', () => ({ method: 'PUT', path: at(987654321) }), -4041403],
		['a query string', (id) => ({ method: 'PUT', path: `${at(id)}?${query}=true` }), -4001400],
		['a JSON body on PUT', (id) => ({ method: 'PUT', path: at(id), body: { [query]: true } }), -4001400],
		['a body on DELETE', (id) => ({ method: 'DELETE', path: at(id), body: 'x' }), -4001400],
		['a body over the limit', (id) => ({ method: 'PUT', path: at(id), body: 'x'.repeat(20_000) }), -4131401],
		[`POST on a ${resource}`, (id) => ({ method: 'POST', path: at(id) }), -4051401],
		[`PATCH on a ${resource}`, (id) => ({ method: 'PATCH', path: at(id), body: {} }), -4051401],
		['another site', (id) => ({ method: 'PUT', path: at(id), headers: { origin: 'https://evil.example' } }), -4031401],
	];
}

/** Asks `url` with each of `methods` as `cookie` (a guest without): every answer must be `code`, and `state()` must read the same after. */
export async function refusedEach(
	url: string,
	methods: readonly string[],
	cookie: string | undefined,
	code: number,
	state: () => Promise<unknown>,
): Promise<Answer[]> {
	const before = await state();
	const answers: Answer[] = [];
	for (const method of methods) {
		const answer = await call(url, { method, ...(cookie ? { cookie } : {}) });
		expect(answer.code, `${method} ${JSON.stringify(answer.body)}`).toBe(code);
		answers.push(answer);
	}
	expect(await state()).toEqual(before);
	return answers;
}

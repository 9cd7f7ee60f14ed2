/**
 * Saved posts (PUT/DELETE /v1/{domain}/{slug}/posts/{postId}/save, src/server/saved/saved.ts, My
 * Page's Saved tab): a save is idempotent and writes one row (with its index entry), a removal
 * deletes it, neither moves any content version; at most 1,000 saved posts a member, the 1,001st
 * refused with its own code and nothing written; who may save what, and bad input answered with
 * catalogue codes, nothing written; the list newest saved first by keyset, with each post's state;
 * the post page's state read in the session's batch; withdrawal deletes the rows.
 */
import { describe, expect, it } from 'vitest';
import { env } from 'cloudflare:workers';
import {
	call,
	deletingFirst,
	rowCost,
	freshPost,
	KOREAN,
	memberApi,
	memberOf,
	postActionBadInput,
	postWhere,
	recordingDb,
	refusedEach,
	signIn,
	startOfRateWindow,
	type Answer,
	type BadRequest,
} from './harness';
import { SAVED_PAGE_SIZE, SAVED_POSTS_KEPT, savedByTokenRead, savedPostsRead, savePost, unsavePost, type SavedPost } from '@/server/saved/saved';
import { run, together } from '@/server/platform/reads';
import { resolveChannel } from '@/server/channels/channels';
import { requestSession } from '@/server/sign-in/request-session';
import { withdrawMember } from '@/server/accounts/withdrawal';

const MEMBER = memberApi();
const ADMIN = 1001;
const TEMPORARILY_BANNED = 1038;

const save = (postId: number | string, cookie: string, method = 'PUT', base = MEMBER) => call(`${base}/posts/${postId}/save`, { method, cookie });
const content = (answer: Answer) => answer.body['content'];

/** Everything a save could change: the saved rows, and every content version of every channel. */
async function snapshot() {
	const [saved, channels] = await env.DB.batch([
		env.DB.prepare('SELECT member_id, post_id, saved_at FROM saved_posts ORDER BY member_id, post_id'),
		env.DB.prepare('SELECT * FROM channels ORDER BY id'),
	]);
	return { saved: saved!.results, channels: channels!.results };
}

const savedCount = async (memberId: number) =>
	(await env.DB.prepare('SELECT count(*) AS n FROM saved_posts WHERE member_id = ?1').bind(memberId).first<number>('n'))!;

let fillers: number[] = [];

/** `count` saved posts of `memberId`, written directly (saved 1, 2, … ms after `from`), on 1,000 posts made once for them. */
async function fillSaved(memberId: number, count: number, from = 1_600_000_000_000): Promise<void> {
	if (fillers.length === 0) {
		const { results } = await env.DB.prepare(
			`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?1)
			 INSERT INTO posts (channel_id, board_id, member_id, title, content, content_text, created_at)
			 SELECT 1, 12, 1007, 'Saved filler ' || i, '{"type":"doc","blocks":[]}', '', 1500000000000 + i FROM n WHERE true RETURNING id`,
		)
			.bind(SAVED_POSTS_KEPT)
			.all<{ id: number }>();
		fillers = results.map((row) => row.id);
	}
	await env.DB.prepare('INSERT INTO saved_posts (member_id, post_id, channel_id, saved_at) SELECT ?1, value, 1, ?2 + key FROM json_each(?3)')
		.bind(memberId, from, JSON.stringify(fillers.slice(0, count)))
		.run();
}

describe('saving a post', () => {
	it('saves and removes, each idempotent, answering the state; no content version moves', async () => {
		const postId = await freshPost();
		const cookie = await signIn(1016);
		const before = await snapshot();
		const saved = await save(postId, cookie);
		expect([saved.status, saved.code, content(saved)]).toEqual([200, 0, { saved: true }]);
		const row = await env.DB.prepare('SELECT saved_at FROM saved_posts WHERE member_id = 1016 AND post_id = ?1')
			.bind(postId)
			.first<number>('saved_at');
		expect(content(await save(postId, cookie))).toEqual({ saved: true });
		// Saved again: the first save's time stays.
		expect(
			await env.DB.prepare('SELECT saved_at FROM saved_posts WHERE member_id = 1016 AND post_id = ?1').bind(postId).first<number>('saved_at'),
		).toBe(row);
		const after = await snapshot();
		expect(after.channels).toEqual(before.channels);
		expect(after.saved.length).toBe(before.saved.length + 1);
		expect(content(await save(postId, cookie, 'DELETE'))).toEqual({ saved: false });
		expect(content(await save(postId, cookie, 'DELETE'))).toEqual({ saved: false });
		expect(await snapshot()).toEqual(before);
	});

	it('is one round trip when accepted, and writes one row with its index entry (nothing when repeated)', async () => {
		const postId = await freshPost();
		const cookie = await signIn(1017);
		expect((await save(postId, cookie)).trips.depth).toBe(1);
		expect((await save(postId, cookie, 'DELETE')).trips.depth).toBe(1);
		// The member has 999 saved posts already: the limit's count reads them, and writes no more.
		await fillSaved(1017, SAVED_POSTS_KEPT - 1);
		const member = memberOf(1017);
		const saved = await rowCost((db) => savePost(db, 1, member, postId, Date.now()));
		const savedAgain = await rowCost((db) => savePost(db, 1, member, postId, Date.now()));
		const removed = await rowCost((db) => unsavePost(db, 1, member, postId, Date.now()));
		const removedAgain = await rowCost((db) => unsavePost(db, 1, member, postId, Date.now()));
		// D1 counts a save as 2 rows written (the row of the WITHOUT ROWID table and its index entry), a removal as 2.
		expect(saved.written).toBeGreaterThan(0);
		expect(saved.written).toBeLessThanOrEqual(2);
		expect(removed.written).toBeGreaterThan(0);
		expect(removed.written).toBeLessThanOrEqual(2);
		expect([savedAgain.written, removedAgain.written]).toEqual([0, 0]);
		// Reads: a save counts the member's saved posts (at most SAVED_POSTS_KEPT index entries, here 999) and a few rows more; a removal a few.
		for (const { read } of [saved, savedAgain]) expect(read).toBeLessThanOrEqual(SAVED_POSTS_KEPT + 10);
		for (const { read } of [removed, removedAgain]) expect(read).toBeLessThanOrEqual(5);
	});

	it('refuses the 1,001st saved post with SavedPostLimitReached (409), nothing written; a saved one stays saved, a removal makes room', async () => {
		const cookie = await signIn(1018);
		await fillSaved(1018, SAVED_POSTS_KEPT);
		const postId = await freshPost();
		const before = await snapshot();
		const refused = await save(postId, cookie);
		expect([refused.status, refused.code]).toEqual([409, -4091485]);
		expect(refused.body.header.resultMessage).toBe(
			'You have saved 1,000 posts, as many as one member can. Remove some under My Page → Saved and try again.',
		);
		expect(refused.body['limit']).toBe(SAVED_POSTS_KEPT);
		expect(await snapshot()).toEqual(before);
		// Saving one already saved is no new row: still accepted at the limit.
		const kept = (await env.DB.prepare('SELECT post_id FROM saved_posts WHERE member_id = 1018 LIMIT 1').first<number>('post_id'))!;
		expect(content(await save(kept, cookie))).toEqual({ saved: true });
		expect(content(await save(kept, cookie, 'DELETE'))).toEqual({ saved: false });
		expect(content(await save(postId, cookie))).toEqual({ saved: true });
		expect(await savedCount(1018)).toBe(SAVED_POSTS_KEPT);
	});

	it('holds the limit under racing saves: twenty at once from 995 leave exactly 1,000', async () => {
		await fillSaved(1019, SAVED_POSTS_KEPT - 5);
		const posts = await Promise.all(Array.from({ length: 20 }, () => freshPost()));
		const member = memberOf(1019);
		const outcomes = await Promise.allSettled(posts.map((postId) => savePost(env.DB, 1, member, postId, Date.now())));
		expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(5);
		for (const outcome of outcomes.filter((one) => one.status === 'rejected'))
			expect(outcome.reason).toMatchObject({ codeName: 'SavedPostLimitReached' });
		expect(await savedCount(1019)).toBe(SAVED_POSTS_KEPT);
	});

	it('counts saves at the rate limit, apart from likes: the 31st in a minute is refused, nothing written', async () => {
		const cookie = await signIn(1020);
		const posts = await Promise.all(Array.from({ length: 31 }, () => freshPost()));
		await startOfRateWindow();
		const answers: Answer[] = [];
		for (const postId of posts) answers.push(await save(postId, cookie));
		expect(answers.slice(0, 30).map((answer) => answer.code)).toEqual(Array(30).fill(0));
		expect([answers[30]!.status, answers[30]!.code]).toEqual([429, -4291401]);
		expect(await savedCount(1020)).toBe(30);
		// Likes have their own budget.
		expect((await call(`${MEMBER}/posts/${posts[30]}/like`, { method: 'PUT', cookie })).code).toBe(0);
	});
});

describe('who may save what', () => {
	const SAVER = 1021;

	/** PUT and DELETE (or `methods`) as `cookie`: every answer must be `code`, and nothing changes. */
	const refused = (postId: number, cookie: string | undefined, code: number, methods = ['PUT', 'DELETE']): Promise<Answer[]> =>
		refusedEach(`${MEMBER}/posts/${postId}/save`, methods, cookie, code, snapshot);

	it('asks a guest to log in, and gives a banned member the ban', async () => {
		const postId = await freshPost();
		await refused(postId, undefined, -4011401);
		const answers = await refused(postId, await signIn(TEMPORARILY_BANNED), -4031452);
		expect(answers[0]!.body['ban']).toMatchObject({ kind: 'TEMPORARY' });
	});

	it("answers another community's post, and a post that does not exist, as not found", async () => {
		const korean = await freshPost(2007, { channelId: KOREAN.id, boardId: 22 });
		await refused(korean, await signIn(SAVER), -4041403);
		await refused(987654321, await signIn(SAVER), -4041403);
		// The same post in its own community, by one of its members, is fine.
		expect(content(await save(korean, await signIn(2007, KOREAN), 'PUT', memberApi(KOREAN)))).toEqual({ saved: true });
	});

	it("refuses to save a hidden, deleted, private-board or someone else's private post; an administrator may save a hidden one", async () => {
		const cookie = await signIn(SAVER);
		const hidden = await freshPost(1007, { hidden: true });
		const deleted = await freshPost(1007, { deleted: true });
		const privatePost = await freshPost(1007, { isPrivate: true });
		const privateBoard = await postWhere('deleted_at IS NULL AND hidden_by_admin = 0 AND board_id IN (SELECT id FROM boards WHERE is_public = 0)');
		for (const postId of [hidden, deleted, privatePost, privateBoard]) await refused(postId, cookie, -4041403, ['PUT']);
		expect(content(await save(hidden, await signIn(ADMIN)))).toEqual({ saved: true });
		expect(content(await save(privatePost, await signIn(1007)))).toEqual({ saved: true });
	});

	it('takes a saved post off the list whatever became of it; removing one never saved answers not saved', async () => {
		const cookie = await signIn(SAVER);
		const postId = await freshPost();
		expect(content(await save(postId, cookie))).toEqual({ saved: true });
		await env.DB.prepare('UPDATE posts SET hidden_by_admin = 1 WHERE id = ?1').bind(postId).run();
		// Saving it again is refused now; removing it is not.
		await refused(postId, cookie, -4041403, ['PUT']);
		expect(content(await save(postId, cookie, 'DELETE'))).toEqual({ saved: false });
		expect(await savedCount(SAVER)).toBe(0);
		expect(content(await save(postId, cookie, 'DELETE'))).toEqual({ saved: false });
	});

	it('refuses a save of a post deleted between the page and the write, in the same batch', async () => {
		const postId = await freshPost();
		const racing = deletingFirst(postId);
		await expect(savePost(racing, 1, memberOf(SAVER), postId, Date.now())).rejects.toMatchObject({ codeName: 'PostNotFound' });
		expect(await savedCount(SAVER)).toBe(0);
	});
});

describe('bad input changes nothing and is answered in the envelope', () => {
	const cases: [string, (postId: number) => BadRequest, number][] = [
		...postActionBadInput('save', 'saved'),
		['a negative post id', () => ({ method: 'DELETE', path: '/posts/-3/save' }), -4001400],
		['GET on a save', (id) => ({ method: 'GET', path: `/posts/${id}/save` }), -4051401],
	];
	it.each(cases)('%s', async (_name, make, code) => {
		const postId = await freshPost();
		const cookie = await signIn(1022);
		const before = await snapshot();
		const { method, path, body, headers } = make(postId);
		const answer = await call(`${MEMBER}${path}`, { method, cookie, ...(body !== undefined && { body }), ...(headers && { headers }) });
		expect(answer.code, JSON.stringify(answer.body)).toBe(code);
		expect(answer.body.header.isSuccessful).toBe(false);
		expect(answer.body.header.resultMessage).not.toBe('');
		expect(await snapshot()).toEqual(before);
	});
});

describe("the member's list and the post page's state", () => {
	const READER = 1023;

	it('lists newest saved first by keyset, each post as the member may read it now, deleted/hidden/unavailable without a title', async () => {
		const member = memberOf(READER);
		const visible = await freshPost(1007, {}, 'Still here');
		const toDelete = await freshPost(1007, {}, 'Deleted later');
		const toHide = await freshPost(1007, {}, 'Hidden later');
		const toPrivate = await freshPost(1007, {}, 'Private later');
		for (const [index, postId] of [visible, toDelete, toHide, toPrivate].entries())
			await savePost(env.DB, 1, member, postId, 1_700_000_000_000 + index);
		await env.DB.batch([
			env.DB.prepare('UPDATE posts SET deleted_at = 1 WHERE id = ?1').bind(toDelete),
			env.DB.prepare('UPDATE posts SET hidden_by_admin = 1 WHERE id = ?1').bind(toHide),
			env.DB.prepare('UPDATE posts SET is_private = 1 WHERE id = ?1').bind(toPrivate),
		]);
		const page = await run(env.DB, savedPostsRead(env.DB, 1, member, null));
		expect(page.items.map((item) => [item.postId, item.state])).toEqual([
			[toPrivate, 'UNAVAILABLE'],
			[toHide, 'HIDDEN'],
			[toDelete, 'DELETED'],
			[visible, 'VISIBLE'],
		]);
		expect(page.items[3]).toMatchObject({ title: 'Still here', boardId: 12, savedAt: 1_700_000_000_000 });
		for (const item of page.items.slice(0, 3)) expect(item).not.toHaveProperty('title');
		expect(JSON.stringify(page)).not.toMatch(/Deleted later|Hidden later|Private later/);
		expect(page.next).toBeNull();
		// An administrator reads a hidden post: saved, it is listed with its title.
		const admin = memberOf(ADMIN, 'ADMIN');
		await savePost(env.DB, 1, admin, toHide, Date.now());
		expect((await run(env.DB, savedPostsRead(env.DB, 1, admin, null))).items).toContainEqual(
			expect.objectContaining({ postId: toHide, state: 'VISIBLE', title: 'Hidden later' }),
		);
	});

	it('pages 1,000 saved posts by keyset, 20 a page, reading one page and one row more each time', async () => {
		await fillSaved(1024, SAVED_POSTS_KEPT);
		const member = memberOf(1024);
		const seen: SavedPost[] = [];
		let before: { at: number; id: number } | null = null;
		let pages = 0;
		for (;;) {
			const { db, statements } = recordingDb();
			const page = await run(db, savedPostsRead(db, 1, member, before));
			pages += 1;
			expect(page.items.length).toBeLessThanOrEqual(SAVED_PAGE_SIZE);
			// The page's index entries (one more than a page), their posts and boards: never the member's whole list.
			expect(statements[0]!.rowsRead).toBeLessThanOrEqual(3 * (SAVED_PAGE_SIZE + 1) + 1);
			seen.push(...page.items);
			if (!page.next) break;
			const [at, id] = page.next.split('.').map(Number) as [number, number];
			before = { at, id };
		}
		expect(pages).toBe(SAVED_POSTS_KEPT / SAVED_PAGE_SIZE);
		expect(seen).toHaveLength(SAVED_POSTS_KEPT);
		expect(new Set(seen.map((item) => item.postId)).size).toBe(SAVED_POSTS_KEPT);
		expect(seen.every((item, i) => i === 0 || item.savedAt < seen[i - 1]!.savedAt)).toBe(true);
	});

	it("reads the post page's state in the session's own batch, for the member of the session only", async () => {
		const postId = await freshPost();
		const cookie = await signIn(1025);
		const global = (await resolveChannel(env.DB, 'starfall', 'global'))!;
		const ask = async (asked = cookie) => {
			const { db, statements } = recordingDb();
			const request = new Request(`http://localhost/starfall/global/posts/${postId}`, { headers: { cookie: asked } });
			const { session, read } = await requestSession(db, global, request, (tokenHash) =>
				together({ ...(tokenHash !== null && { saved: savedByTokenRead(db, global.id, tokenHash, postId) }) }),
			);
			return { session: session.kind, saved: read?.saved ?? null, batches: statements.length };
		};
		expect(await ask()).toMatchObject({ session: 'member', saved: false, batches: 2 });
		await savePost(env.DB, 1, memberOf(1025), postId, Date.now());
		expect(await ask()).toMatchObject({ session: 'member', saved: true, batches: 2 });
		expect(await ask(await signIn(1026))).toMatchObject({ session: 'member', saved: false });
		expect(await ask('')).toMatchObject({ session: 'guest', saved: null, batches: 0 });
	});

	it("withdrawal deletes the member's saved posts and no one else's", async () => {
		const postId = await freshPost();
		await savePost(env.DB, 1, memberOf(1027), postId, Date.now());
		await savePost(env.DB, 1, memberOf(1028), postId, Date.now());
		await withdrawMember(env.DB, 1, 1027);
		expect([await savedCount(1027), await savedCount(1028)]).toEqual([0, 1]);
	});
});

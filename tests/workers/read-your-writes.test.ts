/**
 * Read-your-writes on a replica that lags (docs/reference/consistency.md): the API's answers run on
 * a D1 session started where src/server/platform/d1-session.ts says, here over the lagging replica of
 * tests/workers/lagging-replica.ts. A member's post, comment, like, draft and nickname change are
 * each in their next read, which carries the bookmark cookie the write set, while the replica has not
 * applied the write; with the policy switched off (every session `first-unconstrained`, the
 * bookmark ignored) the same check fails. A guest's read may be stale until the replica catches up;
 * a moderator's read never is.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { env } from 'cloudflare:workers';
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import * as policy from '@/server/platform/d1-session';
import { database, onD1Session } from '@/server/platform/database';
import { withEdgeCache } from '@functions/shell/edge-cache';
import { call, memberApi, ORIGIN, postWhere, publicApi, signIn, type Answer } from './harness';
import { bookmarkAt, installLaggingReplica, startReplica, type LaggingReplica } from './lagging-replica';

const MEMBER = memberApi();
const PUBLIC = publicApi();
const ADMIN_API = `${ORIGIN}/admin/v1/starfall/global`;
const ADMIN = 1001;
/** Three members: the policy's, the policy switched off's, and the writer a guest and an administrator read after (each changes their nickname once). */
const MEMBERS = { policy: 1007, policyOff: 1008, writer: 1002 };
/** The bookmark cookie's name at the tests' origin (loopback: a secure context). */
const BOOKMARK_COOKIE = '__Host-d1-bookmark';

const paragraph = (text: string) => ({ type: 'doc', blocks: [{ type: 'paragraph', children: [{ text }] }] });
const contentOf = <T>(answer: Answer) => answer.body['content'] as T;

/** A member's write, and whether the read that shows it shows it, given the cookies a read sends. */
interface Write {
	name: string;
	write: (cookie: string) => Promise<Answer>;
	shown: (cookie: string, written: Answer) => Promise<boolean>;
}

let commentedPost = 0;
const WRITES: Write[] = [
	{
		name: 'a post',
		write: (cookie) =>
			call(`${MEMBER}/posts`, {
				method: 'POST',
				cookie,
				body: {
					boardId: 12,
					subjectId: 121,
					title: 'Fresh off the primary',
					content: paragraph('Written just now.'),
					isPrivate: false,
					isNotice: false,
					requestId: crypto.randomUUID(),
				},
			}),
		shown: async (cookie, written) => (await call(`${PUBLIC}/posts/${contentOf<{ postId: number }>(written).postId}`, { cookie })).code === 0,
	},
	{
		name: 'a comment',
		write: (cookie) =>
			call(`${MEMBER}/posts/${commentedPost}/comments`, { method: 'POST', cookie, body: { content: `Replying ${crypto.randomUUID()}` } }),
		shown: async (cookie, written) => {
			const { commentId } = contentOf<{ comment: { commentId: number } }>(written).comment;
			const list = contentOf<{ comments: { commentId: number }[] }>(await call(`${PUBLIC}/posts/${commentedPost}/comments`, { cookie }));
			return list.comments.some((comment) => comment.commentId === commentId);
		},
	},
	{
		name: 'a like',
		write: (cookie) => call(`${MEMBER}/posts/${commentedPost}/like`, { method: 'PUT', cookie }),
		shown: async (cookie) => contentOf<{ liked: boolean }>(await call(`${MEMBER}/posts/${commentedPost}/like`, { cookie })).liked,
	},
	{
		name: 'a draft',
		write: (cookie) =>
			call(`${MEMBER}/drafts`, {
				method: 'POST',
				cookie,
				body: { boardId: 12, subjectId: null, title: 'Half done', content: paragraph('More later.') },
			}),
		shown: async (cookie, written) => {
			const { draftId } = contentOf<{ draftId: number }>(written);
			return contentOf<{ drafts: { draftId: number }[] }>(await call(`${MEMBER}/drafts`, { cookie })).drafts.some(
				(draft) => draft.draftId === draftId,
			);
		},
	},
	{
		name: 'a nickname change',
		write: (cookie) => call(`${MEMBER}/me/nickname`, { method: 'PUT', cookie, body: { nickname: `Renamed${Math.floor(Math.random() * 1e6)}` } }),
		shown: async (cookie, written) =>
			contentOf<{ nickname: string }>(await call(`${MEMBER}/me`, { cookie })).nickname === contentOf<{ nickname: string }>(written).nickname,
	},
];

/** The `name=value` of the bookmark cookie an answer sets, checked for its attributes. */
function bookmarkCookieOf(answer: Answer): string {
	const set = answer.cookies.find((cookie) => cookie.startsWith(`${BOOKMARK_COOKIE}=`));
	expect(set, 'the write sets the bookmark cookie').toBeDefined();
	const [pair, ...attributes] = set!.split('; ');
	expect(attributes.sort()).toEqual(['HttpOnly', `Max-Age=${policy.BOOKMARK_COOKIE_SECONDS}`, 'Path=/', 'SameSite=Lax', 'Secure']);
	expect(pair).toBe(`${BOOKMARK_COOKIE}=${answer.headers.get(policy.BOOKMARK_HEADER)}`);
	return pair!;
}

let replica: LaggingReplica;
let members: Record<keyof typeof MEMBERS, string>;
let admin: string;

/** The member writes, and reads it back carrying the cookie the write set; fails when the write is missing. */
async function readsOwnWrite({ write, shown }: Write, member: string): Promise<void> {
	const written = await write(member);
	expect(written.code, JSON.stringify(written.body)).toBe(0);
	const bookmark = bookmarkCookieOf(written);
	expect(replica.lag(), 'the replica has not applied the write').toBeGreaterThan(0);
	expect(await shown(`${member}; ${bookmark}`, written), 'the write is in the next read').toBe(true);
}

beforeAll(async () => {
	await startReplica();
	commentedPost = await postWhere('board_id = 12 AND channel_seq IS NOT NULL AND hidden_by_admin = 0 AND deleted_at IS NULL AND is_private = 0');
	replica = installLaggingReplica();
	members = { policy: await signIn(MEMBERS.policy), policyOff: await signIn(MEMBERS.policyOff), writer: await signIn(MEMBERS.writer) };
	admin = await signIn(ADMIN);
	await replica.catchUp();
});

afterEach(async () => {
	vi.restoreAllMocks();
	await replica.catchUp();
});

afterAll(() => replica?.remove());

describe('read-your-writes on a lagging replica', () => {
	it.each(WRITES)("a member's next read shows $name although the replica lags", async (write) => {
		await readsOwnWrite(write, members.policy);
	});

	it.each(WRITES)('with the policy switched off, $name is missing from the next read', async (write) => {
		vi.spyOn(policy, 'sessionStart').mockReturnValue('first-unconstrained');
		await expect(readsOwnWrite(write, members.policyOff)).rejects.toThrow(/the write is in the next read/);
	});

	it('a bookmark cookie that is not a bookmark is ignored, never a 500', async () => {
		for (const value of ['garbage', 'f'.repeat(59), `${bookmarkAt(1)}x`, 'a'.repeat(8000), bookmarkAt(1).toUpperCase()]) {
			const answer = await call(`${MEMBER}/me`, { cookie: `${members.policy}; ${BOOKMARK_COOKIE}=${value}` });
			expect(answer.code).toBe(0);
		}
		expect(policy.bookmarkOf(new Request(`${ORIGIN}/`, { headers: { cookie: `${BOOKMARK_COOKIE}=${'a'.repeat(8000)}` } }))).toBeNull();
		expect(policy.bookmarkOf(new Request(`${ORIGIN}/`, { headers: { cookie: `${BOOKMARK_COOKIE}=${bookmarkAt(7)}` } }))).toBe(bookmarkAt(7));
		// A read sets no cookie: a guest's page stays cacheable for everyone.
		expect((await call(`${PUBLIC}/posts/${commentedPost}`)).cookies).toEqual([]);
	});

	it("a guest's read after someone else's write may be stale; a moderator's read never is", async () => {
		const nickname = `Moderated${Math.floor(Math.random() * 1e6)}`;
		expect((await call(`${MEMBER}/me/nickname`, { method: 'PUT', cookie: members.writer, body: { nickname } })).code).toBe(0);
		const post = await call(`${MEMBER}/posts`, {
			method: 'POST',
			cookie: members.writer,
			body: {
				boardId: 12,
				subjectId: 121,
				title: 'Not yet everywhere',
				content: paragraph('Lagging.'),
				isPrivate: false,
				isNotice: false,
				requestId: crypto.randomUUID(),
			},
		});
		const postId = contentOf<{ postId: number }>(post).postId;
		expect(replica.lag()).toBeGreaterThan(0);
		// The guest, with no bookmark, reads the replica: the post is not there yet.
		expect((await call(`${PUBLIC}/posts/${postId}`)).code).not.toBe(0);
		// The administrator's read starts on the primary, with no bookmark of theirs.
		const found = await call(`${ADMIN_API}/members?nickname=${nickname}`, { cookie: admin });
		expect(found.code, JSON.stringify(found.body)).toBe(0);
		expect(JSON.stringify(found.body['content'])).toContain(nickname);
		await replica.catchUp();
		expect((await call(`${PUBLIC}/posts/${postId}`)).code).toBe(0);
	});

	it("a guest's bookmark cookie keeps the page cacheable: the same entry, never passed to the page, no cookie set", async () => {
		const url = `${ORIGIN}/starfall/global/boards/13`;
		const asked: Request[] = [];
		// The Worker's entry around the edge cache (functions/shell/worker.ts), with a stand-in page.
		const ask = async (cookie?: string) => {
			const request = new Request(url, cookie ? { headers: { cookie } } : {});
			const ctx = createExecutionContext();
			const answer = await onD1Session(request, () =>
				withEdgeCache(request, database(env.DB), ctx, async (origin) => {
					asked.push(origin);
					return new Response('<p>Welcome, guest</p>', { headers: { 'Content-Type': 'text/html' } });
				}),
			);
			await waitOnExecutionContext(ctx);
			return answer;
		};
		const first = await ask(`${BOOKMARK_COOKIE}=${bookmarkAt(3)}`);
		expect([first.headers.get('X-Edge-Cache'), first.headers.getSetCookie()]).toEqual(['MISS', []]);
		expect(asked[0]?.headers.get('cookie')).toBeNull();
		const second = await ask();
		expect([second.headers.get('X-Edge-Cache'), second.headers.getSetCookie()]).toEqual(['HIT', []]);
		expect((await ask(`${BOOKMARK_COOKIE}=${bookmarkAt(9)}`)).headers.get('X-Edge-Cache')).toBe('HIT');
		expect(asked).toHaveLength(1);
	});
});

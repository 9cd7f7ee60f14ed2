/**
 * Spam defence (docs/reference/spam-defence.md): the community's limits for new members in
 * the write paths, and Turnstile verified against the local stand-in over HTTP (started by
 * tests/workers/turnstile-setup.ts), on sign-up and a new member's posts.
 */
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { env } from 'cloudflare:workers';
import { call, memberApi, queryPlan, recordingDb, signInSubject, signUp, startSignup, GLOBAL } from './harness';
import { createPost, deletePost, editPost } from '@/server/posts/writing';
import { createComment, editComment } from '@/server/comments/writing';
import { resolveMentions } from '@/server/notifications/mentions';
import { commentSegments } from '@/lib/comment-text';
import { nicknameKey } from '@/lib/nickname-key';
import { agreeToTerms, completeSignup, findSignup } from '@/server/accounts/signup';
import { DEFAULT_NEW_MEMBER_LIMITS, type NewMemberLimits } from '@/server/spam/new-members';
import { turnstileConfig, verifyChallenge, type TurnstileConfig } from '@/server/spam/turnstile';
import { isAppError } from '@/server/platform/errors';
import { resolveSession, type SessionMember } from '@/server/sign-in/sessions';
import type { CreatePostInput } from '@/schemas/post-write';
import { cookieName } from '@/server/sign-in/cookies';

const NOW = Date.UTC(2026, 10, 25, 12, 0, 0);
const HOUR = 3_600_000;
/** A post with comments, readable by members, in starfall/global. */
const POST_ID = 10;

let nextMember = 9100;

/** A member of starfall/global who joined `age` ms before NOW. */
async function memberJoined(age: number): Promise<SessionMember> {
	const nickname = `spam-test-${nextMember++}`;
	await env.DB.prepare(`INSERT INTO identities (provider, subject, created_at) VALUES ('GOOGLE', ?1, 0)`).bind(nickname).run();
	const id = await env.DB.prepare(
		`INSERT INTO members (channel_id, identity_id, nickname, provider, recent_provider, joined_at) SELECT 1, id, ?1, 'GOOGLE', 'GOOGLE', ?2 FROM identities WHERE subject = ?1 RETURNING id`,
	)
		.bind(nickname, NOW - age)
		.first<number>('id');
	return { userId: id!, nickname, role: 'MEMBER', provider: 'GOOGLE', recentProvider: 'GOOGLE', joinedAt: NOW - age };
}

const paragraph = (text: string, link?: string) => ({ type: 'paragraph' as const, children: [link === undefined ? { text } : { text, link }] });
const video = { type: 'youtube' as const, videoId: 'dQw4w9WgXcQ' };

function post(blocks: CreatePostInput['content']['blocks'], title = 'Hello from a new member'): CreatePostInput {
	return { boardId: 12, subjectId: null, title, content: { type: 'doc', blocks }, isPrivate: false, isNotice: false, requestId: crypto.randomUUID() };
}

const guard = (limits: NewMemberLimits = DEFAULT_NEW_MEMBER_LIMITS, verifyChallenge: (() => Promise<void>) | null = null) => ({
	limits,
	verifyChallenge,
});

async function refusal(promise: Promise<unknown>): Promise<{ code: string; limit: unknown }> {
	try {
		await promise;
	} catch (error) {
		if (isAppError(error)) return { code: error.codeName, limit: error.details?.['limit'] };
		throw error;
	}
	throw new Error('the write was not refused');
}

const countOf = async (table: 'posts' | 'comments', memberId: number) =>
	(await env.DB.prepare(`SELECT count(*) AS n FROM ${table} WHERE member_id = ?1`).bind(memberId).first<number>('n'))!;

const links = (count: number, joiner = ' and ') => Array.from({ length: count }, (_, i) => `https://spam${i}.example/buy`).join(joiner);
/** Mentions of members that exist (created below): only a mention that resolves to a member is one. */
const mentions = (count: number) => Array.from({ length: count }, (_, i) => `@Member${i}`).join(' ');

/** A member of starfall/global named `nickname`, with the claim a mention resolves by. */
async function claimedMember(nickname: string): Promise<void> {
	const member = await memberJoined(100 * HOUR);
	await env.DB.batch([
		env.DB.prepare('UPDATE members SET nickname = ?2 WHERE id = ?1').bind(member.userId, nickname),
		env.DB.prepare('INSERT INTO nickname_claims (channel_id, nickname_key, nickname, member_id, claimed_at) VALUES (1, ?1, ?2, ?3, 0)').bind(
			nicknameKey(nickname),
			nickname,
			member.userId,
		),
	]);
}

beforeAll(async () => {
	for (let i = 0; i < 6; i++) await claimedMember(`Member${i}`);
});

describe("new members' limits (the defaults: 2 links, 1 image or video, 2 mentions, 3 posts, 20 comments in the first 24 hours)", () => {
	it('refuses the link, media and mention limits at N + 1 in a post, writing nothing, and accepts N', async () => {
		const member = await memberJoined(HOUR);
		expect(await refusal(createPost(env.DB, 1, member, post([paragraph(links(3))]), NOW, guard()))).toEqual({
			code: 'NewMemberTooManyLinks',
			limit: 2,
		});
		// Inline links count by their target; the title counts too.
		expect(
			(
				await refusal(
					createPost(
						env.DB,
						1,
						member,
						post([paragraph('one', 'https://a.example/'), paragraph('two', 'https://b.example/')], `see https://c.example`),
						NOW,
						guard(),
					),
				)
			).code,
		).toBe('NewMemberTooManyLinks');
		expect(await refusal(createPost(env.DB, 1, member, post([paragraph('clips'), video, video]), NOW, guard()))).toEqual({
			code: 'NewMemberTooManyImages',
			limit: 1,
		});
		expect(await refusal(createPost(env.DB, 1, member, post([paragraph(`hi ${mentions(3)}`)]), NOW, guard()))).toEqual({
			code: 'NewMemberTooManyMentions',
			limit: 2,
		});
		expect(await countOf('posts', member.userId)).toBe(0);
		// An e-mail address is no mention, and the same link twice is one.
		await createPost(
			env.DB,
			1,
			member,
			post([paragraph(`${links(2)} https://spam0.example/buy ${mentions(2)} mail me@example.com`), video]),
			NOW,
			guard(),
		);
		expect(await countOf('posts', member.userId)).toBe(1);
	});

	it('refuses the same limits in an edit of the post and in comments', async () => {
		const member = await memberJoined(HOUR);
		const { postId } = await createPost(env.DB, 1, member, post([paragraph('clean')]), NOW, guard());
		const edit = { ...post([paragraph(links(3))]), version: 1 };
		expect((await refusal(editPost(env.DB, 1, member, postId, edit, NOW, DEFAULT_NEW_MEMBER_LIMITS))).code).toBe('NewMemberTooManyLinks');
		expect((await refusal(createComment(env.DB, 1, member, POST_ID, { content: links(3) }, NOW))).code).toBe('NewMemberTooManyLinks');
		expect((await refusal(createComment(env.DB, 1, member, POST_ID, { content: mentions(3) }, NOW))).code).toBe('NewMemberTooManyMentions');
		expect(await countOf('comments', member.userId)).toBe(0);
		const { comment } = await createComment(env.DB, 1, member, POST_ID, { content: `${links(2)} ${mentions(2)}` }, NOW);
		expect((await refusal(editComment(env.DB, 1, member, POST_ID, comment.commentId, { content: links(3) }, NOW))).code).toBe(
			'NewMemberTooManyLinks',
		);
	});

	it('counts the links the renderer makes: six addresses joined by 、 or ！ are six links, refused at a limit of 2', async () => {
		const member = await memberJoined(HOUR);
		for (const joiner of ['、', '！']) {
			const six = links(6, joiner);
			// The comment renderer cuts six links out of it; the limit counts the same six.
			expect(commentSegments(six).filter((segment) => segment.type === 'link')).toHaveLength(6);
			expect(await refusal(createComment(env.DB, 1, member, POST_ID, { content: six }, NOW))).toEqual({ code: 'NewMemberTooManyLinks', limit: 2 });
			expect(await refusal(createPost(env.DB, 1, member, post([paragraph(six)]), NOW, guard()))).toEqual({ code: 'NewMemberTooManyLinks', limit: 2 });
			// The title counts too (three fit in its length).
			expect(await refusal(createPost(env.DB, 1, member, post([paragraph('clean')], links(3, joiner)), NOW, guard()))).toEqual({
				code: 'NewMemberTooManyLinks',
				limit: 2,
			});
		}
		// Two of them, joined the same way, pass.
		await createComment(env.DB, 1, member, POST_ID, { content: links(2, '、') }, NOW);
		expect(await countOf('comments', member.userId)).toBe(1);
		expect(await countOf('posts', member.userId)).toBe(0);
	});

	it('counts the mentions the renderer links: names starting with < or ", and @names inside <…> or "…"', async () => {
		const member = await memberJoined(HOUR);
		const run = String(nextMember);
		const names = [`<Angle${run}`, `"Quote${run}`, `'Tick${run}`];
		for (const name of names) await claimedMember(name);
		for (const text of [names.map((name) => `@${name}`).join(' '), '<@Member0> "@Member1" (@Member2)']) {
			// The renderer links three members in it; the limit counts the same three.
			const resolved = await resolveMentions(env.DB, 1, [text]);
			expect(new Set(commentSegments(text, resolved).flatMap((segment) => (segment.type === 'mention' ? [segment.userId] : []))).size).toBe(3);
			expect(await refusal(createComment(env.DB, 1, member, POST_ID, { content: text }, NOW))).toEqual({
				code: 'NewMemberTooManyMentions',
				limit: 2,
			});
			expect(await refusal(createPost(env.DB, 1, member, post([paragraph(text)]), NOW, guard()))).toEqual({
				code: 'NewMemberTooManyMentions',
				limit: 2,
			});
		}
		// An @ that names nobody is text, linked to no one, and not counted; two members pass.
		await createComment(env.DB, 1, member, POST_ID, { content: `@${names[0]} @${names[1]} @Nobody${run} @Nobody2${run}` }, NOW);
		expect(await countOf('comments', member.userId)).toBe(1);
	});

	it('refuses the fourth post and the 21st comment of the first day, deleted ones counted, writing nothing', async () => {
		const member = await memberJoined(2 * HOUR);
		const written = [];
		for (let i = 0; i < 3; i++) written.push((await createPost(env.DB, 1, member, post([paragraph(`post ${i}`)]), NOW, guard())).postId);
		await deletePost(env.DB, 1, member, written[0]!, NOW);
		expect(await refusal(createPost(env.DB, 1, member, post([paragraph('post 4')]), NOW, guard()))).toEqual({ code: 'NewMemberPostLimit', limit: 3 });
		expect(await countOf('posts', member.userId)).toBe(3);
		for (let i = 0; i < 20; i++) await createComment(env.DB, 1, member, POST_ID, { content: `comment ${i}` }, NOW);
		expect(await refusal(createComment(env.DB, 1, member, POST_ID, { content: 'comment 21' }, NOW))).toEqual({
			code: 'NewMemberCommentLimit',
			limit: 20,
		});
		expect(await countOf('comments', member.userId)).toBe(20);
		// A retry of an earlier comment still answers that comment.
		const requestId = crypto.randomUUID();
		const other = await memberJoined(HOUR);
		const small = { ...DEFAULT_NEW_MEMBER_LIMITS, maxComments: 1 };
		const first = await createComment(env.DB, 1, other, POST_ID, { content: 'once', requestId }, NOW, small);
		expect((await createComment(env.DB, 1, other, POST_ID, { content: 'once', requestId }, NOW, small)).comment.commentId).toBe(
			first.comment.commentId,
		);
	});

	it("leaves a member older than the period and administrators alone, and follows a community's own limits", async () => {
		const older = await memberJoined(25 * HOUR);
		for (let i = 0; i < 4; i++) await createPost(env.DB, 1, older, post([paragraph(`${links(5)} ${mentions(5)}`), video, video]), NOW, guard());
		expect(await countOf('posts', older.userId)).toBe(4);
		const admin = { ...(await memberJoined(HOUR)), role: 'ADMIN' as const };
		await createPost(env.DB, 1, admin, post([paragraph(links(5))]), NOW, guard());
		// A community that allows no links for three days.
		const strict = { ...DEFAULT_NEW_MEMBER_LIMITS, periodHours: 72, maxLinks: 0 };
		const twoDays = await memberJoined(48 * HOUR);
		expect(await refusal(createPost(env.DB, 1, twoDays, post([paragraph(links(1))]), NOW, guard(strict)))).toEqual({
			code: 'NewMemberTooManyLinks',
			limit: 0,
		});
	});

	it("counts with at most the limit's entries of the member's index, in the write's own batch", async () => {
		const member = await memberJoined(HOUR);
		for (let i = 0; i < 2; i++) await createPost(env.DB, 1, member, post([paragraph(`post ${i}`)]), NOW, guard());
		const { db, statements } = recordingDb();
		await createPost(db, 1, member, post([paragraph('post 3')]), NOW, guard());
		const count = statements.find((statement) => statement.sql.includes('FROM posts WHERE member_id = ?1 LIMIT ?2'));
		expect(count).toBeDefined();
		expect((await queryPlan(count!)).join(' ')).toMatch(/posts_by_member/);
		expect(count!.rowsRead).toBeLessThanOrEqual(DEFAULT_NEW_MEMBER_LIMITS.maxPosts + 2);
		// The check writes no row of its own.
		expect(count!.rowsWritten).toBe(0);
		// No round trip of its own: the count is in the batch that would have written the post.
		expect(statements.filter((statement) => /^\s*INSERT INTO posts/.test(statement.sql))).toHaveLength(1);
		const commentCount = recordingDb();
		await createComment(commentCount.db, 1, member, POST_ID, { content: 'hello' }, NOW);
		const guardRow = commentCount.statements.find((statement) => statement.sql.includes('FROM comments WHERE member_id = ?1 LIMIT ?2'))!;
		expect(guardRow.rowsRead).toBeLessThanOrEqual(DEFAULT_NEW_MEMBER_LIMITS.maxComments + 2);
		expect(commentCount.statements).toHaveLength(6);
	});

	it('holds twenty fresh accounts to 3 posts each: 60 posts, and the 61st to 80th refused without a row', async () => {
		const accounts = await Promise.all(Array.from({ length: 20 }, () => memberJoined(10 * 60_000)));
		const outcomes = await Promise.all(
			accounts.map(async (member) => {
				const answers: string[] = [];
				for (let i = 0; i < 4; i++) {
					answers.push(
						await createPost(env.DB, 1, member, post([paragraph(`${links(2)} buy now ${i}`)]), NOW, guard()).then(
							() => 'ok',
							(error: unknown) => (isAppError(error) ? error.codeName : 'error'),
						),
					);
				}
				return answers;
			}),
		);
		expect(outcomes.flat().filter((outcome) => outcome === 'ok')).toHaveLength(60);
		expect(outcomes.flat().filter((outcome) => outcome === 'NewMemberPostLimit')).toHaveLength(20);
		const written = await env.DB.prepare(
			`SELECT count(*) AS n FROM posts WHERE member_id IN (${accounts.map((member) => member.userId).join(',')})`,
		).first<number>('n');
		expect(written).toBe(60);
	});

	it("answers the API's catalogue code and message for a new member who signed up just now", async () => {
		const { cookie } = await signUp('spam-api-newcomer', 'FreshFace');
		const answer = await call(`${memberApi()}/posts`, { method: 'POST', cookie, body: post([paragraph(links(3))]) });
		expect(answer.status).toBe(403);
		expect(answer.code).toBe(-4031462);
		expect(answer.body.header.resultMessage).toMatch(/New members can add only a few links/);
		expect(answer.body['limit']).toBe(2);
	});
});

/** A token the stand-in issues, as its checkbox gets one for a person. */
async function tokenFor(config: TurnstileConfig, action: string, sitekey = config.siteKey): Promise<string> {
	const response = await fetch(`${inject('turnstile').origin}/turnstile/v0/token`, {
		method: 'POST',
		body: JSON.stringify({ sitekey, action, hostname: 'localhost' }),
	});
	const { token } = (await response.json()) as { token: string };
	return token;
}

describe('Turnstile against the local stand-in', () => {
	const config = turnstileConfig(inject('turnstile').vars)!;

	it("speaks siteverify's protocol: the answer's shape, and its error codes for a bad secret, a missing or unknown token", async () => {
		const siteverify = (form: Record<string, string>) =>
			fetch(config.verifyUrl, { method: 'POST', body: new URLSearchParams(form) }).then(
				(response) => response.json() as Promise<Record<string, unknown>>,
			);
		const token = await tokenFor(config, 'post');
		expect(await siteverify({ secret: 'not-the-secret', response: token })).toMatchObject({
			success: false,
			'error-codes': ['invalid-input-secret'],
		});
		expect(await siteverify({ secret: config.secret })).toMatchObject({ success: false, 'error-codes': ['missing-input-response'] });
		expect(await siteverify({ secret: config.secret, response: 'LOCAL.forged' })).toMatchObject({
			success: false,
			'error-codes': ['invalid-input-response'],
		});
		const first = await siteverify({ secret: config.secret, response: token, remoteip: '203.0.113.9', idempotency_key: 'k1' });
		expect(first).toMatchObject({ success: true, 'error-codes': [], action: 'post', hostname: 'localhost' });
		expect(typeof first['challenge_ts']).toBe('string');
		// The same idempotency key gets the same answer; anything else is a duplicate.
		expect(await siteverify({ secret: config.secret, response: token, idempotency_key: 'k1' })).toEqual(first);
		expect(await siteverify({ secret: config.secret, response: token })).toMatchObject({ success: false, 'error-codes': ['timeout-or-duplicate'] });
	});

	it("lets a new member's post through with a token once; a reused, missing, forged or other step's token is refused and writes nothing", async () => {
		const member = await memberJoined(HOUR);
		const withToken = (token: string | undefined) => guard(DEFAULT_NEW_MEMBER_LIMITS, () => verifyChallenge(config, token, 'post', '203.0.113.9'));
		const token = await tokenFor(config, 'post');
		await createPost(env.DB, 1, member, post([paragraph('first post')]), NOW, withToken(token));
		expect(await countOf('posts', member.userId)).toBe(1);
		for (const bad of [token, undefined, '', 'LOCAL.forged-token', await tokenFor(config, 'signup'), 'x'.repeat(3000)]) {
			expect((await refusal(createPost(env.DB, 1, member, post([paragraph('again')]), NOW, withToken(bad)))).code).toBe('ChallengeFailed');
		}
		expect(await countOf('posts', member.userId)).toBe(1);
		// A member past the period is not asked, and a post refused for its links spends no token.
		const older = await memberJoined(30 * HOUR);
		await createPost(env.DB, 1, older, post([paragraph('no check')]), NOW, withToken(undefined));
		const spared = await tokenFor(config, 'post');
		expect((await refusal(createPost(env.DB, 1, member, post([paragraph(links(3))]), NOW, withToken(spared)))).code).toBe('NewMemberTooManyLinks');
		await createPost(env.DB, 1, member, post([paragraph('second post')]), NOW, withToken(spared));
		expect(await countOf('posts', member.userId)).toBe(2);
	});

	it('lets a sign-up through with a token once; without one no member is made', async () => {
		const signupCookie = await startSignup('turnstile-signup-subject');
		const token = signupCookie.slice(cookieName('signup', GLOBAL.domain, GLOBAL.slug).length + 1);
		const signup = (await findSignup(env.DB, 1, token))!;
		await agreeToTerms(env.DB, signup);
		const agreed = (await findSignup(env.DB, 1, token))!;
		const members = () => env.DB.prepare("SELECT count(*) AS n FROM members WHERE channel_id = 1 AND nickname = 'HumanBeing'").first<number>('n');
		for (const bad of [undefined, 'LOCAL.forged-token', await tokenFor(config, 'post')]) {
			const attempt = completeSignup(env.DB, 1, agreed, 'HumanBeing', env.SESSION_SECRET, NOW, () => verifyChallenge(config, bad, 'signup', null));
			expect((await refusal(attempt)).code).toBe('ChallengeFailed');
		}
		expect(await members()).toBe(0);
		const good = await tokenFor(config, 'signup');
		await completeSignup(env.DB, 1, agreed, 'HumanBeing', env.SESSION_SECRET, NOW, () => verifyChallenge(config, good, 'signup', null));
		expect(await members()).toBe(1);
	});

	it('does not ask again in the session of a sign-up that passed the check; a new session is asked as before', async () => {
		const signupCookie = await startSignup('turnstile-session-subject');
		const signupToken = signupCookie.split('=')[1]!;
		await agreeToTerms(env.DB, (await findSignup(env.DB, 1, signupToken))!);
		const agreed = (await findSignup(env.DB, 1, signupToken))!;
		const passed = await tokenFor(config, 'signup');
		const done = await completeSignup(env.DB, 1, agreed, 'PassedOnce', env.SESSION_SECRET, NOW, () =>
			verifyChallenge(config, passed, 'signup', null),
		);
		const memberOf = async (token: string) => {
			const state = await resolveSession(env.DB, 1, token, env.SESSION_SECRET, NOW + 60_000);
			if (state.kind !== 'member') throw new Error(`no member: ${state.kind}`);
			return state.member;
		};
		// A post guard whose check would refuse: only a session that is not asked gets through.
		const noToken = guard(DEFAULT_NEW_MEMBER_LIMITS, () => verifyChallenge(config, undefined, 'post', null));
		const signedUp = await memberOf(done.sessionToken);
		expect(signedUp.humanChecked).toBe(true);
		await createPost(env.DB, 1, signedUp, post([paragraph('first post, same session')]), NOW + 60_000, noToken);
		expect(await countOf('posts', done.memberId)).toBe(1);
		// Recorded on the session's own row, in the sign-up's batch: no write of its own.
		expect(
			await env.DB.prepare('SELECT count(*) AS n FROM sessions WHERE member_id = ?1 AND human_checked_at = ?2').bind(done.memberId, NOW).first('n'),
		).toBe(1);

		// The same member signing in again (another device, or after logging out) is asked as the rules say.
		const cookie = await signInSubject('turnstile-session-subject');
		const again = await memberOf(cookie.split('=')[1]!);
		expect(again.humanChecked).toBeUndefined();
		expect((await refusal(createPost(env.DB, 1, again, post([paragraph('new session')]), NOW + 60_000, noToken))).code).toBe('ChallengeFailed');
		expect(await countOf('posts', done.memberId)).toBe(1);
		// A sign-up without a check (a deployment without Turnstile) records none.
		const plain = await signUp('turnstile-session-plain', 'NoCheckHere');
		const unchecked = await memberOf(plain.cookie.split('=')[1]!);
		expect(unchecked.humanChecked).toBeUndefined();
	});

	it('is off without a site key or a secret, and a token of another site key does not pass', async () => {
		expect(turnstileConfig({ TURNSTILE_SITE_KEY: 'key' })).toBeNull();
		expect(turnstileConfig({ TURNSTILE_SECRET_KEY: 'secret' })).toBeNull();
		const unknownKey = await fetch(`${inject('turnstile').origin}/turnstile/v0/token`, {
			method: 'POST',
			body: JSON.stringify({ sitekey: 'someone-elses-key', action: 'post' }),
		});
		expect(unknownKey.status).toBe(400);
		const wrongSecret = { ...config, secret: 'another-sites-secret' };
		expect((await refusal(verifyChallenge(wrongSecret, await tokenFor(config, 'post'), 'post', null))).code).toBe('ChallengeFailed');
	});
});

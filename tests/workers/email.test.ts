/**
 * Email for replies and mentions (docs/reference/notifications.md#email), against the local mail stand-in
 * (scripts/mail/server.mjs, tests/workers/mail-setup.ts) that the product's `http` mailer reaches
 * over HTTP: addresses, the double opt-in (a confirmation link first, nothing else before it), the
 * emails of a reply and a mention (and of no other kind), their one-click unsubscribe, forged and
 * expired links, the daily cap on confirmation emails, no email at all without SITE_ORIGIN (the links
 * never follow the request's Host), and the signed outcome a link's page shows.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { env } from 'cloudflare:workers';
import { call, memberApi, ORIGIN, plainMembers, sessionOf, signIn, takeSentNotifications, type DemoMember } from './harness';
import { createComment } from '@/server/comments/writing';
import { createPost } from '@/server/posts/writing';
import { likePost } from '@/server/likes/likes';
import { deliver } from '@/server/notifications/deliver';
import type { NotificationEvent } from '@/server/notifications/send';
import { mailerFromEnv } from '@/server/notifications/mailer';
import {
	CONFIRMATION_TTL_MS,
	CONFIRMATIONS_PER_DAY,
	confirmNotificationEmail,
	emailOfferFromEnv,
	emailSetting,
	normalizeEmailAddress,
	setNotificationEmail,
	type EmailChannel,
	type EmailSetup,
} from '@/server/notifications/email';
import {
	OUTCOME_TTL_MS,
	checkConfirmToken,
	signedOutcome,
	unsubscribeToken,
	verifiedOutcome,
	type LinkOutcome,
	type LinkPage,
} from '@/server/notifications/email-links';
import { emailDelivered } from '@/server/notifications/email-sending';
import { emailLinks } from '@functions/callbacks/email-links';

let CHANNEL: EmailChannel;
/** Another community's id. */
const KOREAN_CHANNEL = 2;
const BOARD = 12;
const API = memberApi();
/** The site's origin in the emails' links (the consumer's SITE_ORIGIN). */
const SITE = 'https://board.example';
/** The Worker's env, whose SITE_ORIGIN these tests set and take away. */
const settable = env as unknown as Record<string, unknown>;

type Demo = DemoMember;
interface Captured {
	to: string;
	from: string;
	fromName: string;
	subject: string;
	text: string;
	html: string | null;
	headers: Record<string, string>;
}

let members: Demo[];
let setup: EmailSetup;
const { origin: mailOrigin, vars: mailVars } = inject('mail');

beforeAll(async () => {
	members = await plainMembers(1, 20);
	const { title } = (await env.DB.prepare('SELECT title FROM channels WHERE id = 1').first<{ title: string }>())!;
	CHANNEL = { id: 1, basePath: '/starfall/global', title, language: 'en' };
	const mailer = mailerFromEnv(mailVars);
	if (!mailer) throw new Error('the mail stand-in gave no usable variables');
	setup = { mailer, origin: SITE };
	takeSentNotifications();
	// The site's origin, as a deployment (and `npm start`) sets it: the harness's own, so that the API's
	// Origin check passes. Without it no email goes out (the last describe).
	settable['SITE_ORIGIN'] = ORIGIN;
});

afterAll(() => {
	delete settable['SITE_ORIGIN'];
});

let addresses = 0;
/** A fresh address of this run (the stand-in keeps every message). */
const freshAddress = () => `reader.${Date.now().toString(36)}.${(addresses += 1)}@Example.COM`;
const normalized = (address: string) => address.replace(/@.*$/, (domain) => domain.toLowerCase());

async function mailTo(address: string): Promise<Captured[]> {
	const response = await fetch(`${mailOrigin}/messages?to=${encodeURIComponent(address)}`);
	return ((await response.json()) as { messages: Captured[] }).messages;
}

async function post(author: Demo): Promise<number> {
	const content = { type: 'doc' as const, blocks: [{ type: 'paragraph' as const, children: [{ text: 'A post' }] }] };
	const { postId } = await createPost(
		env.DB,
		CHANNEL.id,
		sessionOf(author),
		{
			boardId: BOARD,
			subjectId: null,
			title: `Post of ${author.nickname}`,
			content,
			isPrivate: false,
			isNotice: false,
			requestId: crypto.randomUUID(),
		},
		Date.now(),
	);
	return postId;
}

async function comment(author: Demo, postId: number, content: string, parentId?: number): Promise<number> {
	const { comment: written } = await createComment(
		env.DB,
		CHANNEL.id,
		sessionOf(author),
		postId,
		{ content, ...(parentId ? { parentId } : {}) },
		Date.now(),
	);
	return written.commentId;
}

/** Delivers what the product sent as the consumer does, then emails what the batch wrote; answers how many emails went. */
async function deliverAndEmail(recipients: number[], keys: string[]): Promise<number> {
	const now = Date.now();
	for (const event of takeSentNotifications()) await deliver(env.DB, event as NotificationEvent, now);
	return emailDelivered(env.DB, recipients, keys, now, setup);
}

/** Puts the member's address through the API; answers the link of the confirmation email. */
async function requestConfirmation(member: Demo, address: string): Promise<string> {
	const answer = await call(`${API}/notifications/email`, { method: 'PUT', cookie: await signIn(member.id), body: { address } });
	expect(answer.code).toBe(0);
	const mail = await mailTo(normalized(address));
	const link = /https?:\/\/\S+\/email\/confirm\?token=\S+/.exec(mail.at(-1)?.text ?? '')?.[0];
	if (!link) throw new Error('no confirmation link');
	return link;
}

/** The POST of a link's page (or a mail client's one-click), as the Worker answers it before Astro. */
function postLink(link: string, body = 'confirm=yes', contentType = 'application/x-www-form-urlencoded') {
	const url = new URL(link);
	return emailLinks.request(`http://localhost${url.pathname}${url.search}`, { method: 'POST', body, headers: { 'content-type': contentType } });
}

/** Where a link's POST sent the browser back to, and the outcome its signed `?result=` proves there. */
async function backTo(answer: Response): Promise<{ path: string; outcome: LinkOutcome | null }> {
	expect(answer.status).toBe(303);
	const location = new URL(answer.headers.get('location') ?? '', 'http://localhost');
	const page: LinkPage = location.pathname.endsWith('/unsubscribe') ? 'unsubscribe' : 'confirm';
	return { path: location.pathname, outcome: await verifiedOutcome(location.searchParams.get('result'), page, CHANNEL.id, Date.now()) };
}

const CONFIRM_PAGE = '/starfall/global/email/confirm';

async function confirmed(member: Demo): Promise<string> {
	const address = freshAddress();
	const link = await requestConfirmation(member, address);
	expect(await backTo(await postLink(link))).toEqual({ path: CONFIRM_PAGE, outcome: 'done' });
	return normalized(address);
}

async function reset(...list: Demo[]): Promise<void> {
	await env.DB.batch(
		list.map((member) =>
			env.DB.prepare(
				`UPDATE members SET notification_email = NULL, notification_email_pending = NULL, notification_email_confirmed_at = NULL,
				 notification_email_sends = 0, notification_email_window = 0, notifications_off = 0 WHERE id = ?1`,
			).bind(member.id),
		),
	);
}

describe('addresses', () => {
	it.each([
		['Reader@Example.COM', 'Reader@example.com'],
		['  first.last+tag@sub.example.co.kr ', 'first.last+tag@sub.example.co.kr'],
		["o'brien@xn--bcher-kva.example", "o'brien@xn--bcher-kva.example"],
	])('%s is sent to as %s', (input, stored) => {
		expect(normalizeEmailAddress(input)).toBe(stored);
	});

	it.each([
		'',
		'plain',
		'@example.com',
		'reader@',
		'reader@localhost',
		'reader@127.0.0.1',
		'reader@[127.0.0.1]',
		'"quoted"@example.com',
		'two@@example.com',
		'dots..twice@example.com',
		'.lead@example.com',
		'reader@-bad.example',
		'reader@exa mple.com',
		'reader@example.com\r\nBcc: victim@example.com',
		'리더@example.com',
		'reader@bücher.example',
		`${'a'.repeat(65)}@example.com`,
		`reader@${'a'.repeat(250)}.com`,
	])('%j is refused', (input) => {
		expect(normalizeEmailAddress(input)).toBeNull();
	});

	it('the API refuses a bad address with EmailAddressInvalid, and sends nothing', async () => {
		const [a] = members as [Demo];
		await reset(a);
		const cookie = await signIn(a.id);
		for (const address of ['not an address', 'x@y', 'a'.repeat(400)]) {
			const answer = await call(`${API}/notifications/email`, { method: 'PUT', cookie, body: { address } });
			expect(answer.status).toBe(400);
			expect(answer.code).toBe(-4001481);
		}
		const missing = await call(`${API}/notifications/email`, { method: 'PUT', cookie, body: {} });
		expect(missing.code).toBe(-4001481);
		expect(await emailSetting(env.DB, a.id)).toEqual({ address: null, pending: null });
	});
});

describe('the double opt-in', () => {
	it('a confirmation email arrives with a working link; until it is followed the address is only pending', async () => {
		const [a] = members as [Demo];
		await reset(a);
		const address = freshAddress();
		const cookie = await signIn(a.id);
		const before = await call(`${API}/notifications/email`, { cookie });
		expect(before.body['content']).toEqual({ available: true, address: null, pending: null });
		const link = await requestConfirmation(a, address);
		const [mail] = await mailTo(normalized(address));
		expect(mail).toMatchObject({
			to: normalized(address),
			from: mailVars['MAIL_FROM'],
			fromName: CHANNEL.title,
			headers: { 'Auto-Submitted': 'auto-generated' },
		});
		expect(mail!.headers['List-Unsubscribe']).toBeUndefined();
		expect(link.startsWith(`${ORIGIN}/starfall/global/email/confirm?token=`)).toBe(true);
		const pending = await call(`${API}/notifications/email`, { cookie });
		expect(pending.body['content']).toEqual({ available: true, address: null, pending: normalized(address) });

		expect(await backTo(await postLink(link))).toEqual({ path: CONFIRM_PAGE, outcome: 'done' });
		const after = await call(`${API}/notifications/email`, { cookie });
		expect(after.body['content']).toEqual({ available: true, address: normalized(address), pending: null });
		// Pressing the button again (a double click) is done again and changes nothing.
		expect(await backTo(await postLink(link))).toEqual({ path: CONFIRM_PAGE, outcome: 'done' });
	});

	it('an unconfirmed address gets no notification emails', async () => {
		const [a, b] = members as [Demo, Demo];
		await reset(a, b);
		const address = freshAddress();
		await requestConfirmation(a, address);
		const postId = await post(a);
		const top = await comment(a, postId, 'My own comment');
		takeSentNotifications();
		const reply = await comment(b, postId, `A reply @${a.nickname}`, top);
		expect(await deliverAndEmail([a.id], [`reply:${reply}`, `mention:c${reply}`])).toBe(0);
		expect((await mailTo(normalized(address))).map((mail) => mail.subject)).toHaveLength(1);
	});

	it('a link of an address replaced since confirms nothing', async () => {
		const [a] = members as [Demo];
		await reset(a);
		const first = await requestConfirmation(a, freshAddress());
		const second = freshAddress();
		await requestConfirmation(a, second);
		expect(await backTo(await postLink(first))).toEqual({ path: CONFIRM_PAGE, outcome: 'invalid' });
		expect(await emailSetting(env.DB, a.id)).toEqual({ address: null, pending: normalized(second) });
	});

	it('a forged or altered link is refused; an expired one is expired', async () => {
		const [a] = members as [Demo];
		await reset(a);
		const link = await requestConfirmation(a, freshAddress());
		const token = new URL(link).searchParams.get('token')!;
		const [member, expires, hash, mac] = token.split('.') as [string, string, string, string];
		const altered = [
			`${Number(member) + 1}.${expires}.${hash}.${mac}`,
			`${member}.${Number(expires) + CONFIRMATION_TTL_MS}.${hash}.${mac}`,
			// The MAC's first character, not its last: the last one's low bits are padding, and some changes there decode to the same MAC.
			`${member}.${expires}.${hash}.${mac.startsWith('A') ? 'B' : 'A'}${mac.slice(1)}`,
			`${member}.${expires}.${hash}`,
			'',
		];
		for (const forged of altered) {
			expect((await checkConfirmToken(forged, Date.now())).kind).toBe('invalid');
			const answer = await postLink(`http://localhost/starfall/global/email/confirm?token=${encodeURIComponent(forged)}`);
			expect(await backTo(answer)).toEqual({ path: CONFIRM_PAGE, outcome: 'invalid' });
		}
		// Signed with another secret.
		expect((await checkConfirmToken(token, Date.now(), 'another-secret-of-at-least-32-characters!')).kind).toBe('invalid');
		// Another community's page does not confirm this community's member.
		expect(await confirmNotificationEmail(env.DB, 2, token, Date.now())).toBe('invalid');
		// A day later.
		const later = Date.now() + CONFIRMATION_TTL_MS + 1;
		expect((await checkConfirmToken(token, later)).kind).toBe('expired');
		expect(await confirmNotificationEmail(env.DB, CHANNEL.id, token, later)).toBe('expired');
		expect((await emailSetting(env.DB, a.id)).address).toBeNull();
	});

	it(`at most ${CONFIRMATIONS_PER_DAY} confirmation emails a member a day`, async () => {
		const [a] = members as [Demo];
		await reset(a);
		const cookie = await signIn(a.id);
		const victim = freshAddress();
		for (let i = 0; i < CONFIRMATIONS_PER_DAY; i += 1) {
			const answer = await call(`${API}/notifications/email`, { method: 'PUT', cookie, body: { address: i === 1 ? freshAddress() : victim } });
			expect(answer.code).toBe(0);
		}
		const refused = await call(`${API}/notifications/email`, { method: 'PUT', cookie, body: { address: victim } });
		expect(refused.status).toBe(429);
		expect(refused.code).toBe(-4291481);
		expect(await mailTo(normalized(victim))).toHaveLength(CONFIRMATIONS_PER_DAY - 1);
		// Turning email off does not give the count back.
		expect((await call(`${API}/notifications/email`, { method: 'DELETE', cookie })).code).toBe(0);
		expect((await call(`${API}/notifications/email`, { method: 'PUT', cookie, body: { address: victim } })).code).toBe(-4291481);
		// A day after the first, the count starts again.
		const tomorrow = Date.now() + CONFIRMATION_TTL_MS + 1;
		await expect(setNotificationEmail(env.DB, CHANNEL, a.id, victim, setup, tomorrow)).resolves.toEqual({
			address: null,
			pending: normalized(victim),
		});
		await expect(setNotificationEmail(env.DB, CHANNEL, a.id, victim, setup, tomorrow)).resolves.toBeDefined();
		await expect(setNotificationEmail(env.DB, CHANNEL, a.id, victim, setup, tomorrow)).resolves.toBeDefined();
		await expect(setNotificationEmail(env.DB, CHANNEL, a.id, victim, setup, tomorrow)).rejects.toMatchObject({
			codeName: 'EmailConfirmationLimit',
		});
	});

	it('the cloudflare provider hands Email Service the structured message, with the community as the sender name', async () => {
		const sent: unknown[] = [];
		const binding = { send: (message: unknown) => Promise.resolve(void sent.push(message)) };
		const mailer = mailerFromEnv({ MAIL_PROVIDER: 'cloudflare', MAIL_FROM: 'notify@board.example', EMAIL: binding });
		await mailer!.send({
			to: 'reader@example.com',
			subject: 'Line\r\nBcc: x@example.com',
			text: 'Body',
			headers: { 'Auto-Submitted': 'auto-generated' },
			fromName: 'Star "fall"',
		});
		expect(sent).toEqual([
			{
				from: { email: 'notify@board.example', name: 'Star fall' },
				to: 'reader@example.com',
				subject: 'Line Bcc: x@example.com',
				text: 'Body',
				headers: { 'Auto-Submitted': 'auto-generated' },
			},
		]);
	});

	it('without a mailer nothing is offered', async () => {
		const [a] = members as [Demo];
		expect(mailerFromEnv({})).toBeNull();
		expect(mailerFromEnv({ MAIL_PROVIDER: 'http', MAIL_FROM: 'x@example.com', MAIL_HTTP_URL: 'ftp://x', MAIL_HTTP_TOKEN: 't' })).toBeNull();
		expect(mailerFromEnv({ MAIL_PROVIDER: 'cloudflare', MAIL_FROM: 'x@example.com' })).toBeNull();
		expect(mailerFromEnv({ ...mailVars, MAIL_FROM: '' })).toBeNull();
		await expect(setNotificationEmail(env.DB, CHANNEL, a.id, freshAddress(), null, Date.now())).rejects.toMatchObject({
			codeName: 'EmailUnavailable',
		});
	});
});

describe('notification emails', () => {
	it('a reply and a mention are emailed, with the one-click unsubscribe headers; a comment and a like are not', async () => {
		const [a, b, c] = members as [Demo, Demo, Demo];
		await reset(a, b, c);
		const address = await confirmed(a);
		const postId = await post(a);
		const top = await comment(a, postId, 'My own comment');
		takeSentNotifications();

		const reply = await comment(b, postId, 'A reply to you with some words in it', top);
		expect(await deliverAndEmail([a.id], [`reply:${reply}`, `mention:c${reply}`, `comment:${reply}`])).toBe(1);
		const mention = await comment(c, await post(b), `Look at this @${a.nickname}`);
		expect(await deliverAndEmail([a.id], [`mention:c${mention}`])).toBe(1);
		const plain = await comment(b, postId, 'A comment on your post');
		expect(await deliverAndEmail([a.id], [`comment:${plain}`])).toBe(0);
		await likePost(env.DB, CHANNEL.id, sessionOf(c), postId, Date.now());
		expect(await deliverAndEmail([a.id], [`like:${postId}`])).toBe(0);

		const mail = (await mailTo(address)).slice(1);
		expect(mail.map((message) => message.subject)).toEqual([`${b.nickname} replied to your comment`, `${c.nickname} mentioned you`]);
		const [first] = mail as [Captured];
		expect(first.fromName).toBe(CHANNEL.title);
		expect(first.text).toContain(`Post of ${a.nickname}`);
		expect(first.text).toContain('A reply to you with some words in it');
		expect(first.text).toContain(`${SITE}/starfall/global/posts/${postId}?commentId=${reply}#comment-${reply}`);
		expect(first.html).toContain(`href="${SITE}/starfall/global/posts/${postId}?commentId=${reply}#comment-${reply}"`);
		const unsubscribe = `${SITE}/starfall/global/email/unsubscribe?token=${encodeURIComponent(await unsubscribeToken(env.SESSION_SECRET, a.id, address))}`;
		expect(first.headers).toEqual({
			'List-Unsubscribe': `<${unsubscribe}>`,
			'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
			'Auto-Submitted': 'auto-generated',
		});
		expect(first.text).toContain(unsubscribe);

		// The same batch again (a message delivered twice) writes nothing new, and emails nothing.
		expect(await emailDelivered(env.DB, [a.id], [`reply:${reply}`], Date.now(), setup)).toBe(0);
	});

	it('the one-click POST of a mail client unsubscribes, without a cookie or an Origin; a forged one is 400', async () => {
		const [a, b] = members as [Demo, Demo];
		await reset(a, b);
		const address = await confirmed(a);
		const link = `http://localhost/starfall/global/email/unsubscribe?token=${encodeURIComponent(await unsubscribeToken(env.SESSION_SECRET, a.id, address))}`;
		const forged = `${link.slice(0, -2)}${link.endsWith('A') ? 'B' : 'A'}`;
		const refused = await postLink(forged, 'List-Unsubscribe=One-Click');
		expect(refused.status).toBe(400);
		expect((await emailSetting(env.DB, a.id)).address).toBe(address);

		const form = new FormData();
		form.set('List-Unsubscribe', 'One-Click');
		const answer = await emailLinks.request(new URL(link).pathname + new URL(link).search, { method: 'POST', body: form });
		expect(answer.status).toBe(200);
		expect(await answer.text()).toBe('Unsubscribed.');
		expect(await emailSetting(env.DB, a.id)).toEqual({ address: null, pending: null });
		// Again: done (nothing goes there any more).
		expect((await postLink(link, 'List-Unsubscribe=One-Click')).status).toBe(200);

		const postId = await post(a);
		const top = await comment(a, postId, 'Mine');
		takeSentNotifications();
		const reply = await comment(b, postId, 'A reply', top);
		expect(await deliverAndEmail([a.id], [`reply:${reply}`])).toBe(0);
	});

	it("the unsubscribe page's button turns email off and comes back to the page", async () => {
		const [a] = members as [Demo];
		await reset(a);
		const address = await confirmed(a);
		const link = `${SITE}/starfall/global/email/unsubscribe?token=${encodeURIComponent(await unsubscribeToken(env.SESSION_SECRET, a.id, address))}`;
		expect(await backTo(await postLink(link))).toEqual({ path: '/starfall/global/email/unsubscribe', outcome: 'done' });
		expect((await emailSetting(env.DB, a.id)).address).toBeNull();
		// An unsubscribe token is bound to its address: it says nothing about the next one.
		const next = await confirmed(a);
		expect((await postLink(link, 'List-Unsubscribe=One-Click')).status).toBe(200);
		expect((await emailSetting(env.DB, a.id)).address).toBe(next);
	});

	it('DELETE turns email off', async () => {
		const [a] = members as [Demo];
		await reset(a);
		await confirmed(a);
		const cookie = await signIn(a.id);
		const answer = await call(`${API}/notifications/email`, { method: 'DELETE', cookie });
		expect(answer.body['content']).toEqual({ available: true, address: null, pending: null });
		expect((await call(`${API}/notifications/email`, { method: 'POST', cookie })).code).toBe(-4051401);
	});
});

describe('the links follow SITE_ORIGIN, never the Host a request named', () => {
	it('a confirmation link is built on SITE_ORIGIN when the request came with another Host', async () => {
		const [a] = members as [Demo];
		await reset(a);
		const address = freshAddress();
		const answer = await call(`https://attacker.example/v1/starfall/global/notifications/email`, {
			method: 'PUT',
			cookie: await signIn(a.id),
			body: { address },
		});
		expect(answer.code).toBe(0);
		const [mail] = await mailTo(normalized(address));
		expect(mail!.text).toContain(`${ORIGIN}/starfall/global/email/confirm?token=`);
		expect(mail!.text).not.toContain('attacker.example');
	});

	it('without SITE_ORIGIN nothing is sent, not even a confirmation: the API says email is unavailable and changes nothing', async () => {
		const [a] = members as [Demo];
		await reset(a);
		const cookie = await signIn(a.id);
		const address = freshAddress();
		delete settable['SITE_ORIGIN'];
		try {
			expect(emailOfferFromEnv(env).kind).toBe('noSiteOrigin');
			expect(emailOfferFromEnv({ ...mailVars }).kind).toBe('noSiteOrigin');
			expect(emailOfferFromEnv({}).kind).toBe('off');
			expect(emailOfferFromEnv({ ...mailVars, SITE_ORIGIN: SITE })).toMatchObject({ kind: 'on', setup: { origin: SITE } });
			const read = await call(`${API}/notifications/email`, { cookie });
			expect(read.body['content']).toEqual({ available: false, address: null, pending: null });
			const refused = await call(`${API}/notifications/email`, { method: 'PUT', cookie, body: { address } });
			expect([refused.status, refused.code]).toEqual([409, -4091483]);
			expect(await mailTo(normalized(address))).toEqual([]);
			const row = await env.DB.prepare('SELECT notification_email_pending AS pending, notification_email_sends AS sends FROM members WHERE id = ?1')
				.bind(a.id)
				.first();
			expect(row).toEqual({ pending: null, sends: 0 });
		} finally {
			settable['SITE_ORIGIN'] = ORIGIN;
		}
	});
});

describe("a link's page says how it went only from a signed outcome", () => {
	const now = Date.now();

	it.each(['confirm', 'unsubscribe'] as LinkPage[])('%s: the signed outcome verifies for its page and community, for ten minutes', async (page) => {
		for (const outcome of ['done', 'expired', 'invalid'] as LinkOutcome[]) {
			const value = await signedOutcome(page, CHANNEL.id, outcome, now);
			expect(await verifiedOutcome(value, page, CHANNEL.id, now)).toBe(outcome);
			expect(await verifiedOutcome(value, page, CHANNEL.id, now + OUTCOME_TTL_MS - 1)).toBe(outcome);
		}
	});

	it('a missing, bare, forged, altered, expired, other page or other community outcome proves nothing', async () => {
		const value = (await signedOutcome('confirm', CHANNEL.id, 'done', now))!;
		const [outcome, expires, mac] = value.split('.') as [string, string, string];
		const proves = (candidate: string | null, page: LinkPage = 'confirm', channelId = CHANNEL.id, at = now) =>
			verifiedOutcome(candidate, page, channelId, at);
		expect(await proves(null)).toBeNull();
		expect(await proves('done')).toBeNull();
		expect(await proves('')).toBeNull();
		// The MAC's first character, not its last (the last one's low bits are padding).
		expect(await proves(`${outcome}.${expires}.${mac.startsWith('A') ? 'B' : 'A'}${mac.slice(1)}`)).toBeNull();
		// Its expiry moved, or its outcome changed, under the same MAC.
		expect(await proves(`${outcome}.${Number(expires) - 1}.${mac}`)).toBeNull();
		expect(await proves(`expired.${expires}.${mac}`)).toBeNull();
		expect(await proves(value, 'unsubscribe')).toBeNull();
		expect(await proves(value, 'confirm', KOREAN_CHANNEL)).toBeNull();
		expect(await proves(value, 'confirm', CHANNEL.id, now + OUTCOME_TTL_MS)).toBeNull();
		expect(await verifiedOutcome(value, 'confirm', CHANNEL.id, now, 'another-secret-of-at-least-32-characters!')).toBeNull();
		// An expiry further ahead than a signed one can be (a clock far behind) is refused too.
		expect(await proves(value, 'confirm', CHANNEL.id, now - OUTCOME_TTL_MS)).toBeNull();
	});
});

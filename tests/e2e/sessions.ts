/**
 * Signed-in browsers without the sign-in: a session minted as the Worker mints them (the test
 * server's SESSION_SECRET, a row in `sessions`) and its cookie put in the browser. Tests that are
 * not about signing in start here; the sign-in itself, through the local provider's screens, is
 * proved by sign-in.spec.ts (and walked by the phone journeys).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { APIRequestContext, BrowserContext } from '@playwright/test';
import { execute } from './fixtures';
import { mintSessionToken } from '../../src/server/sign-in/session-token';
import { hashToken } from '../../src/server/platform/tokens';

/** The channel whose session is made: its id and the two parts of its path. */
export interface SessionChannel {
	index: number;
	domain: string;
	slug: string;
}

/** The session lasts a day: longer than any run. */
const SESSION_MS = 86_400_000;

/** A new session of `memberId` in the channel, stored in the test server's D1 that holds the channel (where a sign-in stores it); returns its token. */
export async function mintSession(channel: SessionChannel, memberId: number): Promise<string> {
	const secret = readFileSync(path.join(process.cwd(), '.wrangler', 'test-state', 'session-secret'), 'utf8').trim();
	const token = await mintSessionToken(secret, channel.index);
	const now = Date.now();
	execute(
		`INSERT INTO sessions (token_hash, member_id, channel_id, created_at, last_seen_at, idle_expires_at, expires_at)
		 VALUES ('${await hashToken(token)}', ${Number(memberId)}, ${Number(channel.index)}, ${now}, ${now}, ${now + SESSION_MS}, ${now + SESSION_MS})`,
		channel.index,
	);
	return token;
}

/** The channel's session cookie's name, as the Worker names it on a secure origin (127.0.0.1 is one). */
export function sessionCookieName(channel: SessionChannel): string {
	return `__Host-session_${channel.domain}_${channel.slug}`;
}

/** Signs the browser context in as `memberId` of the channel, with a minted session. */
export async function signInContext(context: BrowserContext, channel: SessionChannel, memberId: number): Promise<void> {
	const token = await mintSession(channel, memberId);
	// A secure cookie is set through an https URL of the host; Chromium sends it to loopback http too.
	await context.addCookies([
		{ name: sessionCookieName(channel), value: token, url: 'https://127.0.0.1/', secure: true, httpOnly: true, sameSite: 'Lax' },
	]);
}

/**
 * The headers of a member's API request as their page sends it: a minted session's cookie and the
 * site's Origin. For a write that needs no page of its own (a second member's comment, an
 * administrator's action): `request.post(url, { headers: await memberHeaders(…), data })` costs no
 * browser context and no page load.
 */
export async function memberHeaders(channel: SessionChannel, memberId: number, origin: string): Promise<Record<string, string>> {
	return { cookie: `${sessionCookieName(channel)}=${await mintSession(channel, memberId)}`, origin: new URL(origin).origin };
}

/** POSTs `body` as JSON with `headers` (memberHeaders()); answers the envelope's result code. */
export async function postAs(request: APIRequestContext, headers: Record<string, string>, url: string, body: unknown): Promise<number> {
	const answer = await request.post(url, { headers, data: body });
	return ((await answer.json()) as { header: { resultCode: number } }).header.resultCode;
}

/**
 * The deployment's SESSION_SECRET (a Worker secret: `wrangler secret put SESSION_SECRET`; `npm
 * start` and the tests set their own). Without one no session can be minted, and every session
 * cookie reads as made up.
 */
import { env } from 'cloudflare:workers';
import { MIN_SECRET_LENGTH } from './session-token';

/** The secret, or null when the deployment has none (or one too short to trust). */
export function sessionSecret(): string | null {
	const secret = (env as unknown as Record<string, unknown>)['SESSION_SECRET'];
	return typeof secret === 'string' && secret.length >= MIN_SECRET_LENGTH ? secret : null;
}

/** The secret for minting a session. @throws Error when the deployment has none: sign-in cannot work. */
export function requireSessionSecret(): string {
	const secret = sessionSecret();
	if (!secret) throw new Error(`SESSION_SECRET is not set (or shorter than ${MIN_SECRET_LENGTH} characters): no session can be minted`);
	return secret;
}

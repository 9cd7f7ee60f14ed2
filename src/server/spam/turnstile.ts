/**
 * Cloudflare Turnstile (docs/reference/spam-defence.md): the challenge a person passes on sign-up and before
 * a new member's posts. The page shows the widget (TURNSTILE_SCRIPT_URL) with TURNSTILE_SITE_KEY;
 * its token comes with the request, and the server asks the siteverify endpoint
 * (TURNSTILE_VERIFY_URL) with the secret TURNSTILE_SECRET_KEY before it writes anything. A token is
 * good once. A deployment without the site key and the secret shows no challenge (and says so in
 * its log once); `npm start` and the tests use the local stand-in, scripts/turnstile/server.mjs.
 */
import { env } from 'cloudflare:workers';
import { AppError } from '@/server/platform/errors';

const DEFAULT_VERIFY_URL = 'https://challenges.cloudflare.com/turnstile/v0/siteverify';
const DEFAULT_SCRIPT_URL = 'https://challenges.cloudflare.com/turnstile/v0/api.js';

/** The longest token siteverify takes (Cloudflare: 2048 characters). */
const TOKEN_MAX_LENGTH = 2048;

export interface TurnstileConfig {
	siteKey: string;
	secret: string;
	verifyUrl: string;
	scriptUrl: string;
}

/** What a page needs to show the widget. */
export interface ChallengeWidget {
	siteKey: string;
	scriptUrl: string;
	/** The widget's origin, for the page's Content-Security-Policy (script-src and frame-src). */
	origin: string;
}

let warned = false;

/** The deployment's Turnstile configuration, or null when it has no site key or secret (no challenge). */
export function turnstileConfig(vars: Record<string, unknown> = env as unknown as Record<string, unknown>): TurnstileConfig | null {
	const text = (name: string) => {
		const value = vars[name];
		return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
	};
	const siteKey = text('TURNSTILE_SITE_KEY');
	const secret = text('TURNSTILE_SECRET_KEY');
	if (!siteKey || !secret) {
		if (!warned)
			console.warn('Turnstile is not configured (TURNSTILE_SITE_KEY and TURNSTILE_SECRET_KEY): sign-up and new members’ posts show no challenge');
		warned = true;
		return null;
	}
	return {
		siteKey,
		secret,
		verifyUrl: text('TURNSTILE_VERIFY_URL') ?? DEFAULT_VERIFY_URL,
		scriptUrl: text('TURNSTILE_SCRIPT_URL') ?? DEFAULT_SCRIPT_URL,
	};
}

/** The widget of `config` for a page, or null without one (or with a script URL that is not http(s)). */
export function challengeWidget(config: TurnstileConfig | null): ChallengeWidget | null {
	if (!config || !URL.canParse(config.scriptUrl)) return null;
	const url = new URL(config.scriptUrl);
	if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
	return { siteKey: config.siteKey, scriptUrl: url.href, origin: url.origin };
}

/** The part of siteverify's answer the server reads. */
interface SiteverifyAnswer {
	success?: unknown;
	'error-codes'?: unknown;
	action?: unknown;
	hostname?: unknown;
}

/**
 * Asks siteverify about `token` (the widget's answer) for `action`. @throws AppError
 * ChallengeFailed when the token is missing, malformed, spent, expired, of another site key or
 * action, or siteverify cannot be reached: nothing is written without a passed challenge.
 */
export async function verifyChallenge(
	config: TurnstileConfig,
	token: string | null | undefined,
	action: string,
	remoteIp: string | null,
): Promise<void> {
	if (typeof token !== 'string' || token.length === 0 || token.length > TOKEN_MAX_LENGTH) throw new AppError('ChallengeFailed');
	const form = new URLSearchParams({ secret: config.secret, response: token, idempotency_key: crypto.randomUUID() });
	if (remoteIp) form.set('remoteip', remoteIp);
	let answer: SiteverifyAnswer;
	try {
		const response = await fetch(config.verifyUrl, { method: 'POST', body: form, signal: AbortSignal.timeout(10_000) });
		answer = (await response.json()) as SiteverifyAnswer;
	} catch (error) {
		console.error('Turnstile siteverify failed:', error instanceof Error ? error.message : error);
		throw new AppError('ChallengeFailed');
	}
	if (answer.success !== true) {
		const codes = Array.isArray(answer['error-codes']) ? answer['error-codes'].join(', ') : '';
		// Our own configuration's fault, not the member's: worth an operator's look.
		if (/input-secret/.test(codes)) console.error(`Turnstile siteverify refused the secret: ${codes}`);
		throw new AppError('ChallengeFailed');
	}
	// A token made for another step (a sign-up's for a post) does not pass.
	if (answer.action !== action) throw new AppError('ChallengeFailed');
}

/**
 * The one rate-limit mechanism for every route that writes: Cloudflare's Rate Limiting binding,
 * keyed by the member and by the client IP. Each action names its limiter (a binding of
 * wrangler.toml, which fixes the limit and the period) and what its keys are made of; a request
 * over any of its limits is refused with TooManyRequests and a Retry-After of the period.
 */
import { AppError } from './errors';

/** The limiters of wrangler.toml: [limit, period in seconds]. */
export const LIMITERS = {
	RATE_LIMIT_STRICT: { limit: 10, periodSeconds: 60 },
	RATE_LIMIT_WRITE: { limit: 30, periodSeconds: 60 },
	RATE_LIMIT_VIEW: { limit: 120, periodSeconds: 60 },
} as const;

export type LimiterName = keyof typeof LIMITERS;

/** Every limited action: its limiter, and whether the member, the client IP or both are counted. */
export const RATE_LIMITS = {
	/** Starting a sign-in (a D1 row each): per IP, since nobody is signed in yet. */
	signIn: { limiter: 'RATE_LIMIT_STRICT', by: ['ip'] },
	/** The sign-up steps (terms, nickname): per IP. */
	signup: { limiter: 'RATE_LIMIT_STRICT', by: ['ip'] },
	/** Nickname change attempts (the change itself is also limited to one a week, accounts/nickname.ts). */
	nickname: { limiter: 'RATE_LIMIT_STRICT', by: ['member', 'ip'] },
	/** Logout, withdrawal and other account writes. */
	account: { limiter: 'RATE_LIMIT_WRITE', by: ['member', 'ip'] },
	/** Writing, editing and deleting posts. */
	post: { limiter: 'RATE_LIMIT_WRITE', by: ['member', 'ip'] },
	/** Image uploads (each up to 10 MB into R2). */
	upload: { limiter: 'RATE_LIMIT_WRITE', by: ['member', 'ip'] },
	/** Saving, loading and deleting drafts. */
	draft: { limiter: 'RATE_LIMIT_WRITE', by: ['member', 'ip'] },
	/** Writing, editing and deleting comments and replies. */
	comment: { limiter: 'RATE_LIMIT_WRITE', by: ['member', 'ip'] },
	/** Liking and unliking posts. */
	like: { limiter: 'RATE_LIMIT_WRITE', by: ['member', 'ip'] },
	/** Reporting posts and comments (each report is a row for the moderators). */
	report: { limiter: 'RATE_LIMIT_STRICT', by: ['member', 'ip'] },
	/** An administrator's moderation (hide, unhide, ban, dismiss). */
	moderation: { limiter: 'RATE_LIMIT_WRITE', by: ['member', 'ip'] },
	/** A member's data export (issue 22): the attempts, before the export's own one-per-20-minutes rule (members/export.ts). */
	export: { limiter: 'RATE_LIMIT_STRICT', by: ['member', 'ip'] },
	/** The view beacon: per IP. */
	view: { limiter: 'RATE_LIMIT_VIEW', by: ['ip'] },
} as const satisfies Record<string, { limiter: LimiterName; by: readonly ('member' | 'ip')[] }>;

export type RateLimitedAction = keyof typeof RATE_LIMITS;

export interface RateLimitSubject {
	channelId: number;
	/** The signed-in member, when there is one. */
	memberId: number | null;
	/** The client's address (CF-Connecting-IP), when known. */
	ip: string | null;
}

/** The binding shape: `limit({ key })` answers whether this request is within the limit. */
export interface Limiter {
	limit(options: { key: string }): Promise<{ success: boolean }>;
}

/**
 * The Pages companion Worker's RPC interface (functions/companion.ts). Cloudflare Pages offers no
 * Rate Limiting binding, so a Pages deployment reaches the same limiters through a service binding
 * to that small Worker, named RATE_LIMITER in its configuration (scripts/lib/pages.mjs).
 */
export interface RateLimiterService {
	limit(limiter: LimiterName, key: string): Promise<{ success: boolean }>;
}

/**
 * The limiters among a deployment's bindings: its own Rate Limiting bindings (Workers), or else
 * the same limiters through the RATE_LIMITER service (Pages). With neither there are none, and a
 * write then fails closed in enforceRateLimit.
 */
export function limitersOf(bindings: object): Partial<Record<LimiterName, Limiter>> {
	const own = bindings as Partial<Record<LimiterName, Limiter>> & { RATE_LIMITER?: RateLimiterService };
	const service = own.RATE_LIMITER;
	const limiters: Partial<Record<LimiterName, Limiter>> = {};
	for (const name of Object.keys(LIMITERS) as LimiterName[]) {
		const binding = own[name];
		if (binding) limiters[name] = binding;
		else if (service) limiters[name] = { limit: ({ key }) => service.limit(name, key) };
	}
	return limiters;
}

/**
 * Counts one `action` of `subject` against each of its keys.
 * @throws AppError TooManyRequests (with `retryAfter` seconds) when any key is over its limit
 */
export async function enforceRateLimit(limiters: Partial<Record<LimiterName, Limiter>>, action: RateLimitedAction, subject: RateLimitSubject): Promise<void> {
	const rule = RATE_LIMITS[action];
	const limiter = limiters[rule.limiter];
	// A deployment without the binding is a configuration fault: fail closed rather than unlimited.
	if (!limiter) throw new Error(`The rate limiter ${rule.limiter} is not bound`);
	const keys: string[] = [];
	for (const part of rule.by) {
		if (part === 'member' && subject.memberId !== null) keys.push(`${action}:member:${subject.channelId}:${subject.memberId}`);
		if (part === 'ip') keys.push(`${action}:ip:${subject.ip ?? 'unknown'}`);
	}
	const outcomes = await Promise.all(keys.map((key) => limiter.limit({ key })));
	if (outcomes.some((outcome) => !outcome.success)) {
		throw new AppError('TooManyRequests', undefined, { retryAfter: LIMITERS[rule.limiter].periodSeconds });
	}
}

/**
 * The one rate-limit mechanism for every route that writes, and for the reads that reach D1 with a
 * key of the client's choosing (a search term, a member's profile, a post or comment id):
 * Cloudflare's Rate Limiting binding. Each action names its limiters (bindings of wrangler.toml,
 * which fix the limit and the period): a signed-in member's request counts against the member's
 * own limit, and every request against a ceiling for its client address, ten times a member's, so
 * that members behind one NAT (a school, a PC bang, a carrier) each get their own budget while one
 * address still cannot send without bound. Where nobody is signed in yet (starting a sign-in, its
 * return, the sign-up steps) the address alone is counted, at the member's limit. An IPv6 client is
 * its /64 (one subscriber usually has a whole /64), an IPv4 client its address. A request over any
 * of its limits is refused with TooManyRequests and a Retry-After of the period.
 * docs/reference/rate-limits.md has the table.
 */
import { AppError } from './errors';

/** The limiters of wrangler.toml: [limit, period in seconds]. */
export const LIMITERS = {
	RATE_LIMIT_STRICT: { limit: 10, periodSeconds: 60 },
	RATE_LIMIT_WRITE: { limit: 30, periodSeconds: 60 },
	RATE_LIMIT_VIEW: { limit: 120, periodSeconds: 60 },
	RATE_LIMIT_STRICT_ADDRESS: { limit: 100, periodSeconds: 60 },
	RATE_LIMIT_WRITE_ADDRESS: { limit: 300, periodSeconds: 60 },
	RATE_LIMIT_SEARCH: { limit: 30, periodSeconds: 60 },
	RATE_LIMIT_SEARCH_ADDRESS: { limit: 300, periodSeconds: 60 },
	RATE_LIMIT_READ: { limit: 60, periodSeconds: 60 },
	RATE_LIMIT_READ_ADDRESS: { limit: 600, periodSeconds: 60 },
} as const;

export type LimiterName = keyof typeof LIMITERS;

/**
 * How an action is counted: `member`, the limiter of a signed-in member's own key (absent where
 * nobody is signed in yet); `address`, the limiter of the client address's key, counted for every
 * request (for a signed-in member, the ceiling of everyone at the address).
 */
export interface RateLimitRule {
	member?: LimiterName;
	address: LimiterName;
}

/** Every limited action and its limiters. */
export const RATE_LIMITS = {
	/** Starting a sign-in (a D1 row each): per address, since nobody is signed in yet. */
	signIn: { address: 'RATE_LIMIT_STRICT' },
	/** The providers' return to /{domain}/{slug}/oauth with a transaction cookie (a D1 statement each). */
	signInReturn: { address: 'RATE_LIMIT_STRICT' },
	/** The sign-up steps (terms, nickname): per address, since nobody is signed in yet. */
	signup: { address: 'RATE_LIMIT_STRICT' },
	/** Nickname change attempts (the change itself is also limited to one a week, accounts/nickname.ts). */
	nickname: { member: 'RATE_LIMIT_STRICT', address: 'RATE_LIMIT_STRICT_ADDRESS' },
	/** Logout, withdrawal and other account writes. */
	account: { member: 'RATE_LIMIT_WRITE', address: 'RATE_LIMIT_WRITE_ADDRESS' },
	/** Writing, editing and deleting posts. */
	post: { member: 'RATE_LIMIT_WRITE', address: 'RATE_LIMIT_WRITE_ADDRESS' },
	/** Image uploads (each up to 10 MB into R2). */
	upload: { member: 'RATE_LIMIT_WRITE', address: 'RATE_LIMIT_WRITE_ADDRESS' },
	/** Saving, loading and deleting drafts. */
	draft: { member: 'RATE_LIMIT_WRITE', address: 'RATE_LIMIT_WRITE_ADDRESS' },
	/** Writing, editing and deleting comments and replies. */
	comment: { member: 'RATE_LIMIT_WRITE', address: 'RATE_LIMIT_WRITE_ADDRESS' },
	/** Liking and unliking posts. */
	like: { member: 'RATE_LIMIT_WRITE', address: 'RATE_LIMIT_WRITE_ADDRESS' },
	/** Saving posts and taking them off the member's saved posts. */
	save: { member: 'RATE_LIMIT_WRITE', address: 'RATE_LIMIT_WRITE_ADDRESS' },

	/** Blocking and unblocking members, and reading one's blocks. */
	block: { member: 'RATE_LIMIT_WRITE', address: 'RATE_LIMIT_WRITE_ADDRESS' },
	/** Reporting posts and comments (each report is a row for the moderators). */
	report: { member: 'RATE_LIMIT_STRICT', address: 'RATE_LIMIT_STRICT_ADDRESS' },
	/** An administrator's moderation (hide, unhide, ban, dismiss) and reads of removed text (each one an audit-log row). */
	moderation: { member: 'RATE_LIMIT_WRITE', address: 'RATE_LIMIT_WRITE_ADDRESS' },
	/** A member's data export: the attempts, before the export's own one-per-20-minutes rule (members/export.ts). */
	export: { member: 'RATE_LIMIT_STRICT', address: 'RATE_LIMIT_STRICT_ADDRESS' },
	/** The view beacon: per address (a beacon refused loses one view count, nothing a reader sees). */
	view: { address: 'RATE_LIMIT_VIEW' },
	/** A search that reaches D1 (a guest's edge-cache hit never does, and is never counted). */
	search: { member: 'RATE_LIMIT_SEARCH', address: 'RATE_LIMIT_SEARCH_ADDRESS' },
	/**
	 * A post's page, its JSON and its comments read from D1 (a guest's edge-cache miss, or a request
	 * with a live session cookie, which skips the cache): a made-up post or comment id is a new key
	 * each time. Per address, before anything is read; a member has no budget of their own here.
	 */
	postRead: { address: 'RATE_LIMIT_READ_ADDRESS' },
	/** A member's profile and their posts, read from D1 (page or API; cache hits are not counted). */
	profile: { member: 'RATE_LIMIT_READ', address: 'RATE_LIMIT_READ_ADDRESS' },
	/** A member's notifications, unread count and watches read from D1, and the nicknames suggested for an @mention. */
	notifications: { member: 'RATE_LIMIT_READ', address: 'RATE_LIMIT_READ_ADDRESS' },
	/** Marking notifications read, watching, the notification settings and push subscriptions. */
	notificationChange: { member: 'RATE_LIMIT_WRITE', address: 'RATE_LIMIT_WRITE_ADDRESS' },
} as const satisfies Record<string, RateLimitRule>;

export type RateLimitedAction = keyof typeof RATE_LIMITS;

export interface RateLimitSubject {
	channelId: number;
	/** The signed-in member, when there is one. */
	memberId: number | null;
	/**
	 * The session's token hash, counted under the member's limiter in place of the member where the
	 * member is not known before the write (a write that reads its session in its own batch).
	 */
	sessionToken?: string | null;
	/** The client's address (CF-Connecting-IP), when known. */
	ip: string | null;
}

/** The binding shape: `limit({ key })` answers whether this request is within the limit. */
export interface Limiter {
	limit(options: { key: string }): Promise<{ success: boolean }>;
}

/**
 * The Pages companion Worker's RPC interface (functions/shell/companion.ts). Cloudflare Pages offers no
 * Rate Limiting binding, so a Pages deployment reaches the same limiters through a service binding
 * to that small Worker, named RATE_LIMITER in its configuration (scripts/lib/pages.mjs).
 */
export interface RateLimiterService {
	limit(limiter: LimiterName, key: string): Promise<{ success: boolean }>;
}

/**
 * The limiters among a deployment's bindings: its own Rate Limiting bindings (Workers), or else
 * the same limiters through the RATE_LIMITER service (Pages). With neither there are none, and a
 * limited request then fails closed in enforceRateLimit.
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

const HEXTET = /^[0-9a-f]{1,4}$/;
const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/** The eight 16-bit groups of an IPv6 address, or null when `text` is not one. */
function ipv6Groups(text: string): number[] | null {
	const halves = text.split('::');
	if (halves.length > 2) return null;
	const parse = (part: string): number[] | null => {
		if (part === '') return [];
		const groups: number[] = [];
		const pieces = part.split(':');
		for (const [i, piece] of pieces.entries()) {
			const v4 = i === pieces.length - 1 ? IPV4.exec(piece) : null;
			if (v4) {
				const bytes = v4.slice(1).map(Number);
				if (bytes.some((byte) => byte > 255)) return null;
				groups.push(((bytes[0] ?? 0) << 8) | (bytes[1] ?? 0), ((bytes[2] ?? 0) << 8) | (bytes[3] ?? 0));
			} else if (HEXTET.test(piece)) groups.push(parseInt(piece, 16));
			else return null;
		}
		return groups;
	};
	const head = parse(halves[0] ?? '');
	const tail = halves.length === 2 ? parse(halves[1] ?? '') : [];
	if (!head || !tail) return null;
	if (halves.length === 1) return head.length === 8 ? head : null;
	const missing = 8 - head.length - tail.length;
	return missing >= 1 ? [...head, ...new Array<number>(missing).fill(0), ...tail] : null;
}

/**
 * Who a client is for the limits: an IPv4 address as it is; an IPv6 address by its /64 (a home or
 * a phone usually gets a whole /64, so its addresses are one client), an IPv4-mapped one as its IPv4
 * address. Anything else (CF-Connecting-IP is always an address on Cloudflare) is kept as sent, cut
 * to 64 characters.
 */
export function clientKey(ip: string | null): string {
	if (!ip) return 'unknown';
	const text = ip.trim().toLowerCase();
	if (text.includes(':')) {
		const groups = ipv6Groups(text.replace(/%.*$/, ''));
		if (groups) {
			if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
				return [(groups[6] ?? 0) >> 8, (groups[6] ?? 0) & 255, (groups[7] ?? 0) >> 8, (groups[7] ?? 0) & 255].join('.');
			}
			return `${groups
				.slice(0, 4)
				.map((group) => group.toString(16))
				.join(':')}::/64`;
		}
	}
	return text.slice(0, 64);
}

/**
 * Which of an action's keys a count counts: both (the API's, with the session known), or one of
 * them, for a page that counts the address before its reads and the member once its session,
 * read with them, says who they are (src/server/loaders/read-limit.ts).
 */
export type RateLimitKeys = 'both' | 'address' | 'member';

/**
 * Counts one `action` of `subject` against each of its limiters: the member's (when signed in and
 * the action has one) and the client address's, or only those of `keys`.
 * @throws AppError TooManyRequests (with `retryAfter` seconds) when any key is over its limit
 */
export async function enforceRateLimit(
	limiters: Partial<Record<LimiterName, Limiter>>,
	action: RateLimitedAction,
	subject: RateLimitSubject,
	keys: RateLimitKeys = 'both',
): Promise<void> {
	const rule: RateLimitRule = RATE_LIMITS[action];
	const counts: { limiter: LimiterName; key: string }[] = [];
	if (keys !== 'member') counts.push({ limiter: rule.address, key: `${action}:ip:${clientKey(subject.ip)}` });
	if (keys !== 'address' && rule.member && subject.memberId !== null)
		counts.push({ limiter: rule.member, key: `${action}:member:${subject.channelId}:${subject.memberId}` });
	else if (keys !== 'address' && rule.member && subject.sessionToken)
		counts.push({ limiter: rule.member, key: `${action}:session:${subject.channelId}:${subject.sessionToken}` });
	const outcomes = await Promise.all(
		counts.map(async ({ limiter, key }) => {
			const binding = limiters[limiter];
			// A deployment without the binding is a configuration fault: fail closed rather than unlimited.
			if (!binding) throw new Error(`The rate limiter ${limiter} is not bound`);
			return { limiter, success: (await binding.limit({ key })).success };
		}),
	);
	const refused = outcomes.filter((outcome) => !outcome.success);
	if (refused.length > 0) {
		throw new AppError('TooManyRequests', undefined, { retryAfter: Math.max(...refused.map(({ limiter }) => LIMITERS[limiter].periodSeconds)) });
	}
}

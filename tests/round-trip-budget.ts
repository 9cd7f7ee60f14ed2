/**
 * How many round trips to D1 in sequence a request may take after the channel lookup (which the
 * isolate's memory answers for most requests): docs/decisions/performance.md#round-trips. Held by
 * tests/e2e/round-trips.spec.ts for the pages, tests/workers/round-trips.test.ts for the API's
 * reads, and for the writes by the workers tests' harness (tests/workers/harness.ts), on every
 * write any of them sends: every write route, accepted and refused (tests/workers/input-errors.test.ts
 * sends each one its refusals).
 */
export const ROUND_TRIP_BUDGET = {
	/** A page, for every reader: a member's session read goes in the same batch as the page's reads. */
	page: 1,
	/**
	 * A page a member is answered from the guest's page with their parts (functions/shell/member-pages.ts)
	 * unless their session says otherwise, and that the session's batch says to render in full: a banned
	 * member's All Posts, board and post pages, an administrator's post page. The
	 * session's batch, then the full render's.
	 */
	pageAfterSession: 2,
	/** An API read: a guest's is its one batch; a signed-in caller's session is read first. */
	read: { guest: 1, signedIn: 2 },
	/** A write: the session, then the write's batch; a refusal may take one read to say why. */
	write: 3,
	/**
	 * The writes whose session is read in their own batch (src/server/platform/guarded-write.ts):
	 * accepted, one round trip; refused, the write's budget.
	 */
	oneTrip: {
		'POST /v1/posts/:id/comments': 1,
		'PUT /v1/posts/:id/like': 1,
		'DELETE /v1/posts/:id/like': 1,
		'PUT /v1/posts/:id/save': 1,
		'DELETE /v1/posts/:id/save': 1,
	} as Readonly<Record<string, number>>,
	/**
	 * Of those, the round trips that go to the primary, the channel's row included when the isolate
	 * reads it again (after its previous write dropped its copy): the row comes from a replica, and the
	 * batch itself checks that the community is not moving (tests/workers/write-channel-lookup.test.ts).
	 */
	oneTripPrimary: 1,
} as const;

/** The route of a write to `path` as a failure names it (no channel, ids as :id), and its budget, `accepted` or not. */
export function writeBudget(method: string, path: string, accepted = false): { route: string; budget: number } {
	const route = `${method} ${path.replace(/^((?:\/public|\/admin)?\/v1)\/[^/]+\/[^/]+/, '$1').replace(/\/\d+(?=\/|$)/g, '/:id')}`;
	return { route, budget: (accepted ? ROUND_TRIP_BUDGET.oneTrip[route] : undefined) ?? ROUND_TRIP_BUDGET.write };
}

/** The figures of an answer's Server-Timing header (functions/shell/round-trips.ts), or null when it has none. */
export function roundTripsOf(serverTiming: string | null): { trips: number; depth: number; channel: number } | null {
	if (!serverTiming) return null;
	const figure = (name: string) => Number(new RegExp(`${name};desc=(\\d+)`).exec(serverTiming)?.[1] ?? NaN);
	const found = { trips: figure('d1-trips'), depth: figure('d1-depth'), channel: figure('d1-channel') };
	return Object.values(found).some(Number.isNaN) ? null : found;
}

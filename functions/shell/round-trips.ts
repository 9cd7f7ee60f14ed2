/**
 * Each answer of the Worker says how many round trips to the database it took, in its
 * Server-Timing header (a browser's developer tools show it beside the request's timings):
 *
 *   Server-Timing: d1-trips;desc=2, d1-depth;desc=1, d1-channel;desc=0
 *
 * `d1-trips` counts statements and batches, `d1-depth` the longest chain of them that waited one for
 * another, and `d1-channel` the read of the channel's row (most requests find it in the isolate's
 * memory), which the other two leave out (src/server/platform/database.ts). They count what was
 * asked before the answer's headers; the routes' budgets are in docs/decisions/performance.md#round-trips.
 * A hit of the edge cache carries the figures of its own request, never those it was stored with.
 */
import type { RoundTrips } from '@/server/platform/database';
import { mutable } from './security-headers';

export function withRoundTrips(response: Response, trips: RoundTrips): Response {
	trips.answered = true;
	const value = `d1-trips;desc=${trips.count}, d1-depth;desc=${trips.depth}, d1-channel;desc=${trips.channelLookups}`;
	const sent = mutable(response);
	sent.headers.append('Server-Timing', value);
	return sent;
}

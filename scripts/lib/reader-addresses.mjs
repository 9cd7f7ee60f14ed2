/**
 * Readers from addresses of their own, for the load the benchmarks send. The read limits count
 * per client address (CF-Connecting-IP, which the local runtime keeps as sent: docs/reference/rate-limits.md),
 * a post's page and reads among them, and a benchmark's thousands of reads a minute stand for many
 * readers: from one address they would be refused after 600. The members' writes have their own
 * addresses (scripts/bench.mjs); these are in 10.128.0.0/9, apart from those.
 */

let sent = 0;

/** A client address no earlier call gave (up to eight million of them). */
export function readerAddress() {
	sent += 1;
	return `10.${128 + ((sent >> 16) & 127)}.${(sent >> 8) & 255}.${sent & 255}`;
}

/**
 * An autocannon request whose every send comes from an address of its own, to `pathOf()` when
 * given (else the run's URL), and whose answers go to `onResponse` when given.
 *
 * @param {{ pathOf?: () => string; onResponse?: (status: number, body: string, context: object, headers: Record<string, string>) => void }} [options]
 */
export function fromOwnAddresses({ pathOf, onResponse } = {}) {
	return {
		setupRequest: (request) => ({
			...request,
			...(pathOf ? { path: pathOf() } : {}),
			headers: { ...request.headers, 'cf-connecting-ip': readerAddress() },
		}),
		...(onResponse ? { onResponse } : {}),
	};
}

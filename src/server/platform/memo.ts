/**
 * A small memo of reads in the isolate's memory, shared by the requests it serves: bounded (the
 * least recently used entry goes first, so a flood of distinct keys cannot grow it), and a read
 * that fails is not remembered, so that the next request tries again. Each entry carries a stamp
 * (a time, a content version) that decides whether it is still fresh.
 *
 * Only settled values are shared between requests. A request that finds no fresh entry waits for
 * its own `load()`, never for a read another request started: the Workers runtime ties every
 * promise of I/O (a D1 read, a stream, a body) to the request that made it, and a request that
 * awaits another's answers 500 "Cannot perform I/O on behalf of a different request" whenever the
 * other one has finished, or resumes in its context. Concurrent misses each read once (as many
 * reads as requests in flight, never more); what settled last is what later requests get.
 */
import { uncounted } from '@/server/platform/database';

export interface Memo<V> {
	/** The entry for `key` when `isFresh(its stamp)`, otherwise this request's own `load()`, remembered under `stamp`. */
	read(key: string, stamp: number, isFresh: (stamp: number) => boolean, load: () => Promise<V>): Promise<V>;
	/**
	 * The entry for `key` when it is younger than `freshMs`; when it is younger than `staleMs`, the
	 * same entry at once while one `load()` replaces it in the background, handed to `background`
	 * (the request's waitUntil, so that it belongs to the request that started it and outlives its
	 * response; a failed one leaves the entry); otherwise this request's own `load()`, waited for.
	 * Stamps are times.
	 */
	readRevalidating(
		key: string,
		now: number,
		freshMs: number,
		staleMs: number,
		load: () => Promise<V>,
		background: (work: Promise<unknown>) => void,
	): Promise<V>;
	/** The entry for `key` however old its stamp, without reading: for what its stamp does not decide. */
	peek(key: string): V | undefined;
	/** Drops the entry for `key`: the next read loads it again. */
	forget(key: string): void;
	readonly size: number;
}

export function createMemo<V>(maxEntries: number): Memo<V> {
	const entries = new Map<string, { value: V; stamp: number }>();
	/** The keys being read again in the background, with the time each read began. */
	const refreshing = new Map<string, number>();
	/** Moved by forget: a read that began before it is not remembered (it may hold what was forgotten). */
	let generation = 0;
	/** Remembers a settled value, unless a newer one (a later stamp) has taken its place meanwhile. */
	function remember(key: string, value: V, stamp: number, readAt: number): void {
		const known = entries.get(key);
		if (readAt !== generation || (known && known.stamp > stamp)) return;
		entries.delete(key);
		entries.set(key, { value, stamp });
		for (const oldest of entries.keys()) {
			if (entries.size <= maxEntries) break;
			entries.delete(oldest);
		}
	}
	return {
		read(key, stamp, isFresh, load) {
			const known = entries.get(key);
			if (known && isFresh(known.stamp)) {
				// A Map iterates in insertion order: re-inserting marks the entry as recently used.
				entries.delete(key);
				entries.set(key, known);
				return Promise.resolve(known.value);
			}
			const readAt = generation;
			return load().then((value) => {
				remember(key, value, stamp, readAt);
				return value;
			});
		},
		readRevalidating(key, now, freshMs, staleMs, load, background) {
			const known = entries.get(key);
			if (known && now - known.stamp >= freshMs && now - known.stamp < staleMs) {
				const since = refreshing.get(key);
				// A background read older than staleMs is taken as lost (its request was cancelled).
				if (since === undefined || now - since >= staleMs) {
					refreshing.set(key, now);
					const readAt = generation;
					// Not the request's own round trip: its answer does not wait for it.
					background(
						uncounted(load)
							.then((value) => remember(key, value, now, readAt))
							.catch(() => undefined)
							.finally(() => refreshing.get(key) === now && refreshing.delete(key)),
					);
				}
				return Promise.resolve(known.value);
			}
			return this.read(key, now, (stamp) => now - stamp < freshMs, load);
		},
		peek(key) {
			return entries.get(key)?.value;
		},
		forget(key) {
			generation += 1;
			entries.delete(key);
		},
		get size() {
			return entries.size;
		},
	};
}

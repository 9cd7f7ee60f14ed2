/**
 * A small memo of reads in the isolate's memory, shared by the requests it serves: bounded (the
 * least recently used entry goes first, so a flood of distinct keys cannot grow it), and a read
 * that fails is forgotten so that the next request tries again. Each entry carries a stamp (a
 * time, a content version) that decides whether it is still fresh.
 */
export interface Memo<V> {
	/** The entry for `key` when `isFresh(its stamp)`, otherwise `load()`, remembered under `stamp`. */
	read(key: string, stamp: number, isFresh: (stamp: number) => boolean, load: () => Promise<V>): Promise<V>;
	/**
	 * The entry for `key` when it is younger than `freshMs`; when it is younger than `staleMs`, the
	 * same entry at once while one `load()` replaces it in the background (a failed one leaves it);
	 * otherwise `load()`, waited for. Stamps are times.
	 */
	readRevalidating(key: string, now: number, freshMs: number, staleMs: number, load: () => Promise<V>): Promise<V>;
	/** Drops the entry for `key`: the next read loads it again. */
	forget(key: string): void;
	readonly size: number;
}

export function createMemo<V>(maxEntries: number): Memo<V> {
	const entries = new Map<string, { value: Promise<V>; stamp: number }>();
	const refreshing = new Set<string>();
	return {
		read(key, stamp, isFresh, load) {
			const known = entries.get(key);
			if (known && isFresh(known.stamp)) {
				// A Map iterates in insertion order: re-inserting marks the entry as recently used.
				entries.delete(key);
				entries.set(key, known);
				return known.value;
			}
			const entry = { value: load(), stamp };
			entries.delete(key);
			entries.set(key, entry);
			for (const oldest of entries.keys()) {
				if (entries.size <= maxEntries) break;
				entries.delete(oldest);
			}
			// Forget a failed read, unless a newer read has already taken its place.
			entry.value.catch(() => entries.get(key) === entry && entries.delete(key));
			return entry.value;
		},
		readRevalidating(key, now, freshMs, staleMs, load) {
			const known = entries.get(key);
			if (known && now - known.stamp >= freshMs && now - known.stamp < staleMs) {
				if (!refreshing.has(key)) {
					refreshing.add(key);
					load()
						.then((value) => {
							// Unless a newer entry has taken its place meanwhile.
							if (entries.get(key) === known) this.read(key, now, () => false, () => Promise.resolve(value));
						})
						.catch(() => undefined)
						.finally(() => refreshing.delete(key));
				}
				return known.value;
			}
			return this.read(key, now, (stamp) => now - stamp < freshMs, load);
		},
		forget(key) {
			entries.delete(key);
		},
		get size() {
			return entries.size;
		},
	};
}

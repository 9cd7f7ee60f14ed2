/**
 * Cached API reads for the islands (docs/product-rules.md#limits): data is fresh for 1.5 s by default, board, layout and
 * category reads for 5 minutes, auth status until it is invalidated; entries are kept 5 minutes;
 * no refetch on mount, focus or reconnect. A failed read is retried up to 3 times with a backoff
 * doubling from 1 s to at most 30 s, except when the API answered (a result code is final).
 * Mutations are never retried. Browser only.
 */
import { nanoquery } from '@nanostores/query';
import { createApiClient, resultCodeOf } from '@/lib/api-client';
import { $userId } from './user';

export const FRESH_MS = { default: 1500, layout: 300_000, authStatus: Number.POSITIVE_INFINITY } as const;
export const CACHE_LIFETIME_MS = 300_000;
const MAX_RETRIES = 3;

export const api = createApiClient({ getUserId: () => $userId.get() });

/** The delay before retry number `retryCount` (1-based), or undefined to stop. */
export function retryDelay(error: unknown, retryCount: number): number | undefined {
	if (resultCodeOf(error) !== undefined || retryCount > MAX_RETRIES) return undefined;
	return Math.min(1000 * 2 ** (retryCount - 1), 30_000);
}

export const [createFetcherStore, createMutatorStore, { invalidateKeys, revalidateKeys, mutateCache }] = nanoquery({
	fetcher: (...parts) => api.get(parts.join('')),
	dedupeTime: FRESH_MS.default,
	cacheLifetime: CACHE_LIFETIME_MS,
	revalidateOnFocus: false,
	revalidateOnReconnect: false,
	onErrorRetry: ({ error, retryCount }) => retryDelay(error, retryCount),
});

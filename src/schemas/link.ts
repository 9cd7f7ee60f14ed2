/** The zod form of the one URL rule (src/lib/safe-url.ts), for post bodies and channel settings. */
import './zod-config';
import { z } from 'zod';
import { isSafeLink } from '@/lib/safe-url';

export const SafeLinkSchema = z.string().max(2048).refine(isSafeLink, 'must be an https URL or a path on this site');

/**
 * A stored list of settings entries read leniently: an entry that breaks its schema (an unsafe
 * URL, a missing field) is left out and the rest is shown, so one bad link never takes a
 * community's pages down.
 */
export function entriesKeeping<T extends z.ZodType>(entry: T) {
	return z.array(z.unknown()).transform((items) =>
		items.flatMap((item) => {
			const parsed = entry.safeParse(item);
			return parsed.success ? [parsed.data as z.output<T>] : [];
		}),
	);
}

/**
 * View counting off the response path. The post page sends a beacon once per reader session
 * (the browser remembers it in sessionStorage, so reloads do not count); the API answers at once
 * and the increments are written after the response, batched per isolate.
 */
import { waitUntil } from 'cloudflare:workers';

const FLUSH_AFTER_MS = 1000;
const pending = new Map<string, { db: Db; channelId: number; postId: number; count: number }>();
let flushing: Promise<void> | null = null;

async function flush(): Promise<void> {
	await new Promise((resolve) => setTimeout(resolve, FLUSH_AFTER_MS));
	const batch = [...pending.values()];
	pending.clear();
	flushing = null;
	const byDb = new Map<Db, D1PreparedStatement[]>();
	for (const entry of batch) {
		const statement = entry.db
			.prepare(
				'UPDATE posts SET view_count = view_count + ?1 WHERE id = ?2 AND channel_id = ?3 AND deleted_at IS NULL AND hidden_by_admin = 0 AND is_private = 0',
			)
			.bind(entry.count, entry.postId, entry.channelId);
		byDb.set(entry.db, [...(byDb.get(entry.db) ?? []), statement]);
	}
	for (const [db, statements] of byDb) {
		try {
			await db.batch(statements);
		} catch (error) {
			console.error('Failed to write view counts', error);
		}
	}
}

/**
 * Counts one view of a post; the write happens after the response, with the others of the moment.
 * Only a visible post of the channel counts: any other id changes nothing.
 */
export function countView(db: Db, channelId: number, postId: number): void {
	const key = `${channelId}:${postId}`;
	const entry = pending.get(key);
	if (entry) entry.count += 1;
	else pending.set(key, { db, channelId, postId, count: 1 });
	if (!flushing) {
		flushing = flush();
		waitUntil(flushing);
	}
}

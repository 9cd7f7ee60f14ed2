/**
 * The Worker's queue handler for notifications (wrangler.toml `[[queues.consumers]]`; on Pages, the
 * companion Worker's). Each message is acknowledged when its rows are written; a message whose
 * delivery throws (the database unreachable, a lock) is retried with a growing delay
 * (retryDelaySeconds), and the queue moves a message that failed `max_retries` times to the
 * dead-letter queue. That queue's messages are kept in `notification_dead_letters` for the
 * operators (docs/reference/notifications.md#runbook). A message of a shape this consumer does not know is
 * logged and acknowledged: retrying would not change it.
 */
import { deliver, eventOf } from './deliver';
import type { PushSetup } from './push';
import type { EmailSetup } from './email';
import { database } from '@/server/platform/database';
import { databaseNamed } from '@/server/platform/databases';
import { communityWrites } from '@/server/databases/write-guard';

/**
 * The database of each community, by its row in `directory`, read once per community and batch;
 * null while the community moves (its messages wait for the move to end; a write the move's check
 * refuses, CommunityMoving, is retried the same way).
 */
function communityDatabase(directory: Db): (channelId: number) => Promise<Db | null> {
	const found = new Map<number, Promise<Db | null>>();
	return (channelId) => {
		let home = found.get(channelId);
		if (!home) {
			home = directory
				.prepare('SELECT database, moving_to FROM channels WHERE id = ?1')
				.bind(channelId)
				.first<{ database: string; moving_to: string | null }>()
				.then((row) => {
					if (!row) return directory;
					if (row.moving_to !== null) return null;
					// The move's check in every statement: a move may begin after this read (src/server/databases/write-guard.ts).
					return communityWrites(row.database === 'DB' ? directory : database(databaseNamed(row.database)), {
						id: channelId,
						database: row.database,
					});
				});
			found.set(channelId, home);
		}
		return home;
	};
}

/** The dead-letter queue is the notifications queue's name with this suffix (wrangler.toml). */
const DEAD_LETTER_SUFFIX = '-dlq';

/** Seconds before the next delivery of a message that failed `attempts` times: 2, 4, 8, … at most 5 minutes. */
export function retryDelaySeconds(attempts: number): number {
	return Math.min(2 ** Math.max(1, attempts), 300);
}

/**
 * `db` is the directory (binding DB), which keeps the dead letters; each message is delivered in
 * the database of its community (`databaseOf`, docs/reference/databases.md), and waits (a retry) while
 * the community moves between databases.
 */
export async function consumeNotifications(
	batch: MessageBatch,
	db: Db,
	push: PushSetup | null = null,
	email: EmailSetup | null = null,
	now: () => number = Date.now,
	databaseOf: (channelId: number) => Promise<Db | null> = communityDatabase(db),
): Promise<void> {
	if (batch.queue.endsWith(DEAD_LETTER_SUFFIX)) {
		await keepDeadLetters(batch, db, now());
		return;
	}
	for (const message of batch.messages) {
		const event = eventOf(message.body);
		if (!event) {
			console.error('Notification message of an unknown shape dropped', message.id);
			message.ack();
			continue;
		}
		try {
			const home = await databaseOf(event.channelId);
			if (!home) throw new Error(`Community ${event.channelId} is moving between databases`);
			await deliver(home, event, now(), push, email);
			message.ack();
		} catch (error) {
			console.error(`Notification message ${message.id} failed (attempt ${message.attempts})`, error);
			message.retry({ delaySeconds: retryDelaySeconds(message.attempts) });
		}
	}
}

/** Keeps what the queue gave up on, once per message, for the operators. */
async function keepDeadLetters(batch: MessageBatch, db: Db, now: number): Promise<void> {
	await db.batch(
		batch.messages.map((message) =>
			db
				.prepare('INSERT INTO notification_dead_letters (message_id, body, attempts, received_at) VALUES (?1, ?2, ?3, ?4) ON CONFLICT DO NOTHING')
				.bind(message.id, JSON.stringify(message.body) ?? 'null', message.attempts, now),
		),
	);
	console.error(`${batch.messages.length} notification messages reached the dead-letter queue`);
	batch.ackAll();
}

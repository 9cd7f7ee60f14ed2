/**
 * The Worker's scheduled handler, run by the Cron Trigger of wrangler.toml (hourly): removes
 * uploads that no post shows and no draft keeps a day after they were made, in steps until none is
 * left or the run's budget is spent (CLEANUP_MAX_BATCHES, CLEANUP_TIME_BUDGET_MS of
 * src/server/uploads/uploads.ts); what a run leaves, the next goes on with. It also keeps each
 * member's newest notifications (src/server/notifications/notifications.ts), tells members
 * whose temporary ban ended (src/server/notifications/deliver.ts), and sends the email digest of
 * members whose hour of reply and mention emails is over with some held back (email.ts). It does
 * so in every bound database, one after the other (each holds its communities whole), but for a
 * database that a move copies from or into: its turn waits for the next run.
 *
 * The backup's own Cron Trigger (BACKUP_CRON, every ten minutes) runs a bounded step of the daily
 * backup to R2 instead (src/server/backup/scheduled-backup.ts): a run of one never waits on the other.
 */
import { removeUnattachedUploads } from '@/server/uploads/uploads';
import { database } from '@/server/platform/database';
import { boundDatabaseNames, databaseNamed } from '@/server/platform/databases';
import { pruneNotifications } from '@/server/notifications/notifications';
import { deliverEndedBans } from '@/server/notifications/deliver';
import { emailSetupFromEnv } from '@/server/notifications/email';
import { sendEmailDigests } from '@/server/notifications/email-sending';
import { BACKUP_CRON, runScheduledBackups } from '@/server/backup/scheduled-backup';
import { databaseWrites, moveTouches, MoveUnderWay } from '@/server/databases/write-guard';

export async function runScheduled(controller: ScheduledController, env: Env, _ctx: ExecutionContext): Promise<void> {
	if (controller.cron === BACKUP_CRON) {
		await runScheduledBackups(env, controller.scheduledTime);
		return;
	}
	// Each bound database in turn (docs/reference/databases.md): every one holds its communities' rows whole.
	for (const name of boundDatabaseNames(env)) {
		const db = database(databaseNamed(name, env));
		// A database a move copies from or into is left for the next run: its rows must stay as the
		// copy read them (src/server/databases/write-guard.ts). Checked first, so that no upload's
		// object goes for a row left in place, and again by every write, whatever its timing.
		if (await moveTouches(db, name)) {
			console.info(`${name}: a move copies from or into it; the cleanup waits for the next run`);
			continue;
		}
		try {
			await runScheduledOn(name, databaseWrites(db, name), controller, env);
		} catch (error) {
			if (!(error instanceof MoveUnderWay)) throw error;
			console.info(`${name}: a move began during the cleanup; the rest waits for the next run`);
		}
	}
}

async function runScheduledOn(name: string, db: Db, controller: ScheduledController, env: Env): Promise<void> {
	const { removed, batches, done } = await removeUnattachedUploads(db, env.UPLOADS, controller.scheduledTime);
	if (removed > 0)
		console.info(`${name}: removed ${removed} unattached uploads in ${batches} steps${done ? '' : '; more are left for the next run'}`);
	const pruned = await pruneNotifications(db);
	if (pruned > 0) console.info(`${name}: kept the newest notifications of ${pruned} members`);
	// The temporary bans that ended since the run before (a few runs back, should one have failed).
	await deliverEndedBans(db, controller.scheduledTime, controller.scheduledTime - BAN_END_LOOKBACK_MS);
	const email = emailSetupFromEnv(env);
	if (email) {
		const digests = await sendEmailDigests(db, email, controller.scheduledTime);
		if (digests > 0) console.info(`${name}: sent ${digests} email digests`);
	}
}

/** How far back the cron looks for bans that ended: three runs. */
const BAN_END_LOOKBACK_MS = 3 * 60 * 60 * 1000;

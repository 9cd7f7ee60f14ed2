/**
 * The Worker's scheduled handler, run by the Cron Trigger of wrangler.toml (hourly): removes
 * uploads that no post shows and no draft keeps a day after they were made, in steps until none is
 * left or the run's budget is spent (CLEANUP_MAX_BATCHES, CLEANUP_TIME_BUDGET_MS of
 * src/server/uploads/uploads.ts); what a run leaves, the next goes on with.
 */
import { removeUnattachedUploads } from '@/server/uploads/uploads';
import { database } from '@/server/platform/database';

export async function runScheduled(controller: ScheduledController, env: Env, _ctx: ExecutionContext): Promise<void> {
	const { removed, batches, done } = await removeUnattachedUploads(database(env.DB), env.UPLOADS, controller.scheduledTime);
	if (removed > 0) console.info(`Removed ${removed} unattached uploads in ${batches} steps${done ? '' : '; more are left for the next run'}`);
}

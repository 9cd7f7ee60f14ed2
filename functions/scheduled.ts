/**
 * The Worker's scheduled handler, run by the Cron Trigger of wrangler.toml (hourly): removes
 * uploads that no post shows and no draft keeps a day after they were made (at most
 * CLEANUP_BATCH a run, src/server/uploads/uploads.ts).
 */
import { removeUnattachedUploads } from '@/server/uploads/uploads';
import { database } from '@/server/platform/database';

export async function runScheduled(controller: ScheduledController, env: Env, _ctx: ExecutionContext): Promise<void> {
	const removed = await removeUnattachedUploads(database(env.DB), env.UPLOADS, controller.scheduledTime);
	if (removed > 0) console.info(`Removed ${removed} unattached uploads`);
}

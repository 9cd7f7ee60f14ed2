/**
 * The Worker's scheduled handler, run by the Cron Trigger of wrangler.toml (hourly): removes
 * uploads that no post shows and no draft keeps a day after they were made (at most
 * CLEANUP_BATCH a run, src/server/uploads/uploads.ts).
 */
import { removeUnattachedUploads } from '@/server/uploads/uploads';

export async function runScheduled(controller: ScheduledController, env: Env, _ctx: ExecutionContext): Promise<void> {
	const removed = await removeUnattachedUploads(env.DB, env.UPLOADS, controller.scheduledTime);
	if (removed > 0) console.info(`Removed ${removed} unattached uploads`);
}

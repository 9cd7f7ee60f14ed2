/**
 * The Worker's entry (wrangler `main`): uploaded images and avatars are answered from R2 first
 * (functions/shell/upload-files.ts, avatar-files.ts), then anonymous reads from the edge cache; everything else goes to
 * Astro's Cloudflare handler, which serves static assets and runs src/fetch.ts (the JSON API, then
 * the pages). Every answer leaves with the security headers (functions/shell/security-headers.ts), a
 * cache hit with those it was stored with;
 * static assets served before the Worker runs get them from public/_headers. Whatever throws on
 * the way is answered by functions/shell/unexpected-failure.ts. The scheduled
 * handler (the Cron Trigger of wrangler.toml) removes uploads nothing shows and old notifications;
 * the queue handler writes notifications (src/server/notifications/consumer.ts). Each answer says
 * in its Server-Timing header how many round trips to the database it took (functions/shell/round-trips.ts).
 * Every request runs on one D1 session, and an answer to a write carries its bookmark
 * (`onD1Session`, docs/reference/consistency.md); the queue and the cron query the primary.
 */
import { handle } from '@astrojs/cloudflare/handler';
import { withEdgeCache } from './edge-cache';
import { withSecurityHeaders } from './security-headers';
import { serveUploadFile } from './upload-files';
import { serveAvatarFile } from './avatar-files';
import { runScheduled } from './scheduled';
import { guarded } from './unexpected-failure';
import { countRoundTrips, database, onD1Session } from '@/server/platform/database';
import { withRoundTrips } from './round-trips';
import { consumeNotifications } from '@/server/notifications/consumer';
import { pushSetupFromEnv } from '@/server/notifications/push';
import { emailSetupFromEnv } from '@/server/notifications/email';

// The live threads' Durable Object class (wrangler.toml [[durable_objects.bindings]]), exported by the entry as the runtime requires.
export { LiveRoom } from '@/server/live/live-room';

export default {
	fetch(request, env, ctx) {
		return guarded(request, () => countRoundTrips(async (trips) => withRoundTrips(await answer(request, env, ctx), trips)));
	},
	scheduled: runScheduled,
	queue: (batch, env) => consumeNotifications(batch, database(env.DB), pushSetupFromEnv(env), emailSetupFromEnv(env)),
} satisfies ExportedHandler<Env>;

function answer(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
	return onD1Session(request, () => answerOnSession(request, env, ctx));
}

async function answerOnSession(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
	const upload = await serveUploadFile(request, env.UPLOADS);
	if (upload) return withSecurityHeaders(upload);
	const avatar = await serveAvatarFile(request, env.UPLOADS);
	if (avatar) return withSecurityHeaders(avatar);
	// The Worker's answers get the security headers before the edge cache stores them, so a hit
	// is sent as it was stored, without another copy. Under `astro dev` Astro writes no page
	// policy and Vite serves its own scripts and styles, so a page there would get the policy
	// that lets nothing load.
	return withEdgeCache(request, database(env.DB), ctx, async (asked) =>
		withSecurityHeaders(await handle(asked, env, ctx), { fallbackPolicy: !import.meta.env.DEV, path: new URL(asked.url).pathname }),
	);
}

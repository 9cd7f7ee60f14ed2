/**
 * The Worker's entry (wrangler `main`): anonymous reads are answered from the edge cache before
 * anything else runs; everything else goes to Astro's Cloudflare handler, which serves static
 * assets and runs src/fetch.ts (the JSON API, then the pages).
 */
import { handle } from '@astrojs/cloudflare/handler';
import { withEdgeCache } from './edge-cache';

export default {
	fetch(request, env, ctx) {
		return withEdgeCache(request, env.DB, ctx, (asked) => handle(asked, env, ctx));
	},
} satisfies ExportedHandler<Env>;

/**
 * The Worker's entry (wrangler `main`): anonymous reads are answered from the edge cache before
 * anything else runs; everything else goes to Astro's Cloudflare handler, which serves static
 * assets and runs src/fetch.ts (the JSON API, then the pages). Every answer leaves with the
 * security headers (functions/security-headers.ts); static assets served before the Worker runs
 * get them from public/_headers.
 */
import { handle } from '@astrojs/cloudflare/handler';
import { withEdgeCache } from './edge-cache';
import { withSecurityHeaders } from './security-headers';

export default {
	async fetch(request, env, ctx) {
		const response = await withEdgeCache(request, env.DB, ctx, (asked) => handle(asked, env, ctx));
		// Under `astro dev` Astro writes no page policy and Vite serves its own scripts and styles,
		// so a page there would get the policy that lets nothing load.
		return withSecurityHeaders(response, { fallbackPolicy: !import.meta.env.DEV });
	},
} satisfies ExportedHandler<Env>;

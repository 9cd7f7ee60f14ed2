// @ts-check
import { defineConfig } from 'astro/config';
import cloudflare from '@astrojs/cloudflare';
import react from '@astrojs/react';
import { clientDirectives } from './src/directives/integration.ts';

/** Changes with every build, so a deployment never serves pages cached by the one before it. */
const BUILD_ID = Date.now().toString(36);

export default defineConfig({
	output: 'server',
	adapter: cloudflare({ imageService: 'passthrough' }),
	integrations: [react(), clientDirectives()],
	// Sign-in sessions live in D1's sessions table, not in Astro's KV-backed sessions.
	session: false,
	// Links are plain server routes; prefetching every visible link would multiply D1 reads.
	prefetch: false,
	build: { inlineStylesheets: 'always' },
	devToolbar: { enabled: false },
	server: { port: 8788, host: '127.0.0.1' },
	vite: { define: { __BUILD_ID__: JSON.stringify(BUILD_ID) } },
});

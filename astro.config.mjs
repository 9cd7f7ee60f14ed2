// @ts-check
import { defineConfig } from 'astro/config';
import cloudflare from '@astrojs/cloudflare';
import react from '@astrojs/react';
import { cspHash, PAGE_POLICY_DIRECTIVES } from './src/server/platform/security-policy.ts';
import { DEFAULT_THEME, themeCss } from './src/server/channels/theme.ts';
import { astroMemos } from './scripts/lib/astro-memos.mjs';

/** Changes with every build, so a deployment never serves pages cached by the one before it. */
const BUILD_ID = Date.now().toString(36);

export default defineConfig({
	output: 'server',
	adapter: cloudflare({ imageService: 'passthrough' }),
	integrations: [react()],
	// Sign-in sessions live in D1's sessions table, not in Astro's KV-backed sessions.
	session: false,
	// Links are plain server routes; prefetching every visible link would multiply D1 reads.
	prefetch: false,
	build: { inlineStylesheets: 'always' },
	// No Markdown is rendered, and Shiki's highlighting would need inline style attributes.
	markdown: { syntaxHighlight: false },
	devToolbar: { enabled: false },
	// Each page's policy goes out as a header with the hashes of the build's inline scripts and
	// styles; the site theme's style is allowed here, a channel's by its page (src/server/loaders).
	// No 'unsafe-inline' for scripts or styles, and no style attributes anywhere.
	security: {
		csp: {
			directives: [...PAGE_POLICY_DIRECTIVES],
			styleDirective: { hashes: [await cspHash(themeCss(DEFAULT_THEME))] },
		},
	},
	server: { port: 8788, host: '127.0.0.1' },
	vite: {
		define: { __BUILD_ID__: JSON.stringify(BUILD_ID) },
		plugins: [astroMemos()],
		// The Cloudflare adapter's `globalThis.process` shim is for the Worker; set on the shared build
		// options, it also lands at the top of every browser chunk (some 40 bytes each, compressed),
		// where nothing reads it.
		environments: { client: { build: { rolldownOptions: { output: { banner: '' } } } } },
	},
});

/// <reference types="astro/client" />

declare module 'astro' {
	interface AstroClientDirectives {
		/** Hydrate on the first pointer, touch, focus or key event inside the island. */
		'client:interact'?: boolean;
	}
}

declare global {
	/** Set at build time (astro.config.mjs); part of every edge-cache key. */
	const __BUILD_ID__: string;
	namespace App {
		interface Locals {
			/** Who is asking, set by loadChannelPage for the main layout. */
			session?: import('@/server/sign-in/sessions').SessionState;
		}
	}
}

export {};

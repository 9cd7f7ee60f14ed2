/// <reference types="astro/client" />

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

/// <reference types="astro/client" />

declare global {
	/** Set at build time (astro.config.mjs); part of every edge-cache key. */
	const __BUILD_ID__: string;
	/**
	 * What the services query: a D1 binding or one of its sessions (`withSession`), which both
	 * prepare statements and send batches (docs/reference/consistency.md).
	 */
	type Db = Pick<D1Database, 'prepare' | 'batch'>;
	namespace App {
		interface Locals {
			/** Who is asking, set by loadChannelPage for the main layout. */
			session?: import('@/server/sign-in/sessions').SessionState;
		}
	}
}

export {};

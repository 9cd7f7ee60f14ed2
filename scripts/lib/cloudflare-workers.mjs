/**
 * What operator commands (scripts/operator/, run on Node by operator.mjs) get for `cloudflare:workers`:
 * on Node there is no request to extend, so work handed to waitUntil simply runs on (the command
 * waits for its own D1 calls; src/server/channels/channels.ts hands it a background re-read).
 */
export function waitUntil(promise) {
	void Promise.resolve(promise).catch(() => undefined);
}

/**
 * No bindings on Node: a service that sends to the notifications queue (src/server/notifications/send.ts)
 * finds none, so a write an operator command makes (a ban, a removal) notifies nobody.
 */
export const env = {};

/**
 * The base class of the live threads' room (src/server/live/live-room.ts), which the commands' bundles
 * include but never construct: there is no Durable Object namespace on Node (`env` binds none).
 */
export class DurableObject {
	constructor(ctx, env) {
		this.ctx = ctx;
		this.env = env;
	}
}

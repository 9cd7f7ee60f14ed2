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

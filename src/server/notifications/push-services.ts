/**
 * Where the Worker sends Web Push (docs/reference/notifications.md#web-push): the one list of push services.
 * A subscription's endpoint comes from a member's browser, and the queue's consumer POSTs to it with
 * every notification, so an endpoint of the member's choosing would make the Worker a request
 * forwarder to any host (a cloud metadata address, a private network, another site). Only the
 * browser vendors' push services are taken, over https on port 443; never an IP literal, another
 * port, credentials or another scheme. The subscribe API and the sender check the same rule.
 *
 * PUSH_ALLOW_LOOPBACK = "1" (a variable `npm start`, the browser tests' server and the workers tests
 * set; never set in production) also lets through http or https to this machine (localhost,
 * 127.0.0.1, [::1]), where the local push service (scripts/push/server.mjs) listens.
 */

/** The push services' hosts, as browsers give them (Chrome and the Chromium browsers, Firefox, Safari). */
const PUSH_SERVICE_HOSTS: ReadonlySet<string> = new Set(['fcm.googleapis.com', 'updates.push.services.mozilla.com', 'web.push.apple.com']);
/** Domains whose every subdomain is a push service's host: Windows Push Notification Services (Edge, `*.notify.windows.com`). */
const PUSH_SERVICE_DOMAINS: readonly string[] = ['.notify.windows.com'];

const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Whether the deployment lets endpoints on this machine through (PUSH_ALLOW_LOOPBACK = "1"). */
export function loopbackAllowed(env: object): boolean {
	return (env as { PUSH_ALLOW_LOOPBACK?: unknown }).PUSH_ALLOW_LOOPBACK === '1';
}

function isPushService(hostname: string): boolean {
	return PUSH_SERVICE_HOSTS.has(hostname) || PUSH_SERVICE_DOMAINS.some((domain) => hostname.endsWith(domain) && hostname.length > domain.length);
}

/**
 * The endpoint as a URL when the Worker may send to it: https on port 443 to a push service of the
 * list, or (with `allowLoopback`) http or https to this machine; otherwise null.
 */
export function pushEndpoint(endpoint: string, allowLoopback: boolean): URL | null {
	const url = URL.parse(endpoint);
	if (!url || url.username !== '' || url.password !== '') return null;
	// An explicit :443 is dropped by the parser; any other port stays and is refused.
	if (url.protocol === 'https:' && url.port === '' && isPushService(url.hostname)) return url;
	if (allowLoopback && (url.protocol === 'http:' || url.protocol === 'https:') && LOOPBACK_HOSTS.has(url.hostname)) return url;
	return null;
}

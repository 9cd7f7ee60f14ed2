/**
 * The service worker for member notifications (Web Push), served as is from /notification-sw.js.
 * The Worker sends each notification as JSON (src/server/notifications/push.ts), encrypted for this
 * browser: `{ title, body, url, tag? }`, `url` a path of this site. A push shows it; a click on it
 * brings a tab already at that address to the front, or opens one. A URL of another origin is never
 * opened.
 */
/* global clients */

/** The notification's address as an absolute URL of this site, or null. */
function sameOriginUrl(url) {
	try {
		const absolute = new URL(url, self.location.origin);
		return absolute.origin === self.location.origin ? absolute.href : null;
	} catch {
		return null;
	}
}

self.addEventListener('push', (event) => {
	let message;
	try {
		message = event.data ? event.data.json() : null;
	} catch {
		message = null;
	}
	if (!message || typeof message.title !== 'string') return;
	const options = { body: typeof message.body === 'string' ? message.body : '', data: { url: sameOriginUrl(message.url) } };
	// A tag replaces an earlier notification of the same tag rather than stacking another.
	if (typeof message.tag === 'string' && message.tag !== '') options.tag = message.tag;
	event.waitUntil(self.registration.showNotification(message.title, options));
});

self.addEventListener('notificationclick', (event) => {
	event.notification.close();
	const url = event.notification.data && event.notification.data.url;
	if (!url) return;
	event.waitUntil(
		(async () => {
			const windows = await clients.matchAll({ type: 'window', includeUncontrolled: true });
			const open = windows.find((client) => client.url === url);
			if (open) return open.focus();
			return clients.openWindow(url);
		})(),
	);
});

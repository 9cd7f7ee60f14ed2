/**
 * Web Push delivery (src/server/notifications/push.ts) inside workerd, against the local push
 * service stand-in over HTTP (scripts/push/server.mjs, started by tests/workers/push-setup.ts). The
 * stand-in checks the VAPID JWT and decrypts the payload as a browser vendor's service and the
 * browser would, so a message arrives only when signing and encryption are right.
 */
import { describe, expect, inject, it } from 'vitest';
import { MAX_PAYLOAD_BYTES, pushSetupFromEnv, sendWebPush, vapidFromEnv, type PushSubscriptionKeys } from '@/server/notifications/push';
import { pushEndpoint } from '@/server/notifications/push-services';

const { origin, vapid, otherVapid } = inject('push');

interface Received {
	data: unknown;
	text: string;
	headers: { ttl: number; urgency: string; topic: string | null };
}

/** A new subscription at the stand-in, restricted to `applicationServerKey` when given. */
async function subscribe(applicationServerKey?: string): Promise<PushSubscriptionKeys> {
	const response = await fetch(`${origin}/subscriptions`, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json' },
		body: JSON.stringify(applicationServerKey === undefined ? {} : { applicationServerKey }),
	});
	expect(response.status).toBe(201);
	const { endpoint, keys } = await response.json<{ endpoint: string; keys: { p256dh: string; auth: string } }>();
	return { endpoint, p256dh: keys.p256dh, auth: keys.auth };
}

async function received(subscription: PushSubscriptionKeys): Promise<Received[]> {
	const response = await fetch(`${subscription.endpoint}/messages`);
	expect(response.status).toBe(200);
	return response.json<Received[]>();
}

/** A fetch that sends nothing and counts the calls. */
function refusingFetch(): { fetcher: typeof fetch; calls: () => number } {
	let calls = 0;
	const fetcher = (async () => {
		calls++;
		return new Response(null, { status: 201 });
	}) as unknown as typeof fetch;
	return { fetcher, calls: () => calls };
}

/** A fetch that lets `change` rewrite the request on its way to the stand-in. */
function rewritingFetch(change: (headers: Headers, body: Uint8Array<ArrayBuffer>) => Uint8Array<ArrayBuffer> | void): typeof fetch {
	return (async (input: RequestInfo | URL, init?: RequestInit) => {
		const headers = new Headers(init?.headers);
		const body = new Uint8Array(init?.body as Uint8Array<ArrayBuffer>);
		return fetch(input, { ...init, headers, body: change(headers, body) ?? body });
	}) as typeof fetch;
}

/** sendWebPush as the workers tests' Worker sends (PUSH_ALLOW_LOOPBACK = "1"): the stand-in listens on this machine. */
const send = (...[subscription, payload, keys, options]: Parameters<typeof sendWebPush>) =>
	sendWebPush(subscription, payload, keys, { allowLoopback: true, ...options });

const notification = {
	title: 'A reply to your post',
	body: 'kiwi: Agreed — see you there ✓',
	url: '/starfall/global/posts/10#comment-5',
	tag: 'post:10',
};

describe('sendWebPush', () => {
	it('delivers the payload, encrypted for the subscription and signed with the VAPID key, with its TTL and urgency', async () => {
		const subscription = await subscribe(vapid.publicKey);
		expect(await send(subscription, notification, vapid, { ttlSeconds: 3600, urgency: 'high' })).toEqual({ kind: 'sent' });
		const messages = await received(subscription);
		expect(messages).toHaveLength(1);
		expect(messages[0]!.data).toEqual(notification);
		expect(messages[0]!.headers).toEqual({ ttl: 3600, urgency: 'high', topic: null });

		// Each message has keys of its own: a second one arrives too, and a subscription that was not
		// restricted to a key takes it as well.
		expect(await send(subscription, { ...notification, title: 'Another reply' }, vapid)).toEqual({ kind: 'sent' });
		expect((await received(subscription)).map(({ data }) => (data as { title: string }).title)).toEqual(['A reply to your post', 'Another reply']);
		const open = await subscribe();
		expect(await send(open, 'plain text', vapid)).toEqual({ kind: 'sent' });
		expect((await received(open))[0]).toMatchObject({ data: 'plain text', headers: { ttl: 86_400, urgency: 'normal' } });
	});

	it('delivers a payload of the largest size and refuses a larger one without a request', async () => {
		const subscription = await subscribe(vapid.publicKey);
		// JSON of a string: the text and two quotes; "é" is two bytes of UTF-8.
		const largest = 'é'.repeat(10) + 'x'.repeat(MAX_PAYLOAD_BYTES - 22);
		expect(new TextEncoder().encode(JSON.stringify(largest)).length).toBe(MAX_PAYLOAD_BYTES);
		expect(await send(subscription, largest, vapid)).toEqual({ kind: 'sent' });
		expect((await received(subscription))[0]!.data).toBe(largest);

		const { fetcher, calls } = refusingFetch();
		expect(await send(subscription, largest + 'x', vapid, { fetcher })).toEqual({ kind: 'failed', status: 413 });
		expect(await send(subscription, { ...notification, body: 'x'.repeat(4000) }, vapid, { fetcher })).toEqual({ kind: 'failed', status: 413 });
		expect(calls()).toBe(0);
		expect(await received(subscription)).toHaveLength(1);
	});

	it('signs with a private key written without its leading zero byte, as some generators write one in 256', async () => {
		// A key pair whose scalar starts with a zero byte, its d then written in 31 bytes.
		let keys: { publicKey: string; privateKey: string } | null = null;
		while (!keys) {
			const pair = (await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign'])) as CryptoKeyPair;
			const jwk = (await crypto.subtle.exportKey('jwk', pair.privateKey)) as JsonWebKey;
			const d = Uint8Array.from(atob(jwk.d!.replace(/-/g, '+').replace(/_/g, '/')), (char) => char.charCodeAt(0));
			if (d[0] !== 0) continue;
			const raw = new Uint8Array((await crypto.subtle.exportKey('raw', pair.publicKey)) as ArrayBuffer);
			const base64Url = (bytes: Uint8Array) =>
				btoa(String.fromCharCode(...bytes))
					.replace(/\+/g, '-')
					.replace(/\//g, '_')
					.replace(/=+$/, '');
			keys = { publicKey: base64Url(raw), privateKey: base64Url(d.subarray(1)) };
		}
		const short = { ...keys, subject: vapid.subject };
		const subscription = await subscribe(short.publicKey);
		expect(await send(subscription, notification, short)).toEqual({ kind: 'sent' });
		expect((await received(subscription))[0]!.data).toEqual(notification);
	});

	it('is refused by the push service when the VAPID key, the signature or the ciphertext is not right', async () => {
		const subscription = await subscribe(vapid.publicKey);
		// Another deployment's key, properly signed: not the key the browser subscribed with.
		expect(await send(subscription, notification, otherVapid)).toEqual({ kind: 'failed', status: 403 });
		// The JWT signed by the deployment's key, but another key claimed in k: the signature fails.
		const otherK = rewritingFetch((headers) => {
			headers.set('Authorization', headers.get('Authorization')!.replace(/k=.*$/, `k=${otherVapid.publicKey}`));
		});
		const open = await subscribe();
		expect(await send(open, notification, vapid, { fetcher: otherK })).toEqual({ kind: 'failed', status: 403 });
		// A changed signature.
		const badSignature = rewritingFetch((headers) => {
			headers.set(
				'Authorization',
				headers
					.get('Authorization')!
					.replace(/\.([\w-])([\w-]*), k=/, (_, first: string, rest: string) => `.${first === 'A' ? 'B' : 'A'}${rest}, k=`),
			);
		});
		expect(await send(subscription, notification, vapid, { fetcher: badSignature })).toEqual({ kind: 'failed', status: 403 });
		// A changed byte of the ciphertext: AES-GCM's tag no longer matches.
		const badBody = rewritingFetch((_, body) => {
			const changed = body.slice();
			changed[100] = changed[100]! ^ 1;
			return changed;
		});
		expect(await send(subscription, notification, vapid, { fetcher: badBody })).toEqual({ kind: 'failed', status: 400 });
		// Another subscription's keys: the browser cannot decrypt it.
		const other = await subscribe(vapid.publicKey);
		expect(await send({ ...subscription, p256dh: other.p256dh, auth: other.auth }, notification, vapid)).toEqual({
			kind: 'failed',
			status: 400,
		});
		expect(await received(subscription)).toEqual([]);
		expect(await received(open)).toEqual([]);
	});

	it('answers gone for an ended or unknown subscription', async () => {
		const subscription = await subscribe(vapid.publicKey);
		expect((await fetch(subscription.endpoint, { method: 'DELETE' })).status).toBe(204);
		expect(await send(subscription, notification, vapid)).toEqual({ kind: 'gone' });
		expect(await send({ ...subscription, endpoint: `${origin}/push/no-such-subscription` }, notification, vapid)).toEqual({ kind: 'gone' });
	});

	it('answers failed with the status for another answer, and 0 when no answer came', async () => {
		const subscription = await subscribe(vapid.publicKey);
		const busy = (async () => new Response('slow down', { status: 429 })) as unknown as typeof fetch;
		expect(await send(subscription, notification, vapid, { fetcher: busy })).toEqual({ kind: 'failed', status: 429 });
		const redirect = (async () => new Response(null, { status: 307, headers: { Location: 'http://10.0.0.1/' } })) as unknown as typeof fetch;
		expect(await send(subscription, notification, vapid, { fetcher: redirect })).toEqual({ kind: 'failed', status: 307 });
		const down = (async () => {
			throw new TypeError('Network connection lost.');
		}) as unknown as typeof fetch;
		expect(await send(subscription, notification, vapid, { fetcher: down })).toEqual({ kind: 'failed', status: 0 });
	});

	it('fetches only the push services of the list over https on port 443, and this machine only with the local setting', async () => {
		const subscription = await subscribe(vapid.publicKey);
		const local = new URL(subscription.endpoint);
		const { fetcher, calls } = refusingFetch();
		for (const endpoint of [
			// Addresses of the Worker's own network, the cloud's metadata service, a private network.
			'https://169.254.169.254/latest/meta-data',
			'http://169.254.169.254/latest/meta-data',
			'https://10.0.0.1/push/1',
			'https://[fd00::1]:8443/push/1',
			'https://[::ffff:7f00:1]/push/1',
			// An https host that is not a push service, one that only looks like one, and a listed one on another port or scheme.
			'https://push.example.com/push/1',
			'https://fcm.googleapis.com.evil.example/fcm/send/1',
			'https://evilnotify.windows.com/w/1',
			'https://fcm.googleapis.com:8443/fcm/send/1',
			'http://fcm.googleapis.com/fcm/send/1',
			'https://user:secret@fcm.googleapis.com/fcm/send/1',
			'http://127.0.0.1.nip.io/push/1',
			`http://user:secret@${local.host}${local.pathname}`,
			'ftp://fcm.googleapis.com/1',
			'file:///etc/passwd',
			'not a url',
		]) {
			expect(await send({ ...subscription, endpoint }, notification, vapid, { fetcher }), endpoint).toEqual({ kind: 'failed', status: 0 });
			expect(pushEndpoint(endpoint, true), endpoint).toBeNull();
		}
		// This machine, without the local setting (every deployment); 2130706433 is 127.0.0.1 written as one number.
		for (const endpoint of [subscription.endpoint, 'http://localhost:8787/push/1', 'https://[::1]:8443/push/1', 'https://2130706433/push/1']) {
			expect(await sendWebPush({ ...subscription, endpoint }, notification, vapid, { fetcher }), endpoint).toEqual({ kind: 'failed', status: 0 });
			expect(pushEndpoint(endpoint, false), endpoint).toBeNull();
		}
		// Keys that are not a browser's: nothing is sent either.
		expect(await send({ ...subscription, p256dh: 'AAAA' }, notification, vapid, { fetcher })).toEqual({ kind: 'failed', status: 0 });
		expect(await send({ ...subscription, auth: 'not base64!' }, notification, vapid, { fetcher })).toEqual({ kind: 'failed', status: 0 });
		expect(calls()).toBe(0);

		// The push services (an explicit :443 is the same port), without the local setting; this machine with it.
		const services = [
			'https://fcm.googleapis.com/fcm/send/1',
			'https://fcm.googleapis.com:443/wp/1',
			'https://updates.push.services.mozilla.com/wpush/v2/1',
			'https://wns2-par02p.notify.windows.com/w/?token=1',
			'https://web.push.apple.com/QGuQyavXutnMH',
		];
		for (const endpoint of services) {
			expect(await sendWebPush({ ...subscription, endpoint }, notification, vapid, { fetcher }), endpoint).toEqual({ kind: 'sent' });
			expect(pushEndpoint(endpoint, false)?.href, endpoint).toBe(new URL(endpoint).href);
		}
		for (const endpoint of ['http://localhost:8787/push/1', 'http://[::1]:8787/push/1', 'http://127.0.0.1:8787/push/1']) {
			expect(await send({ ...subscription, endpoint }, notification, vapid, { fetcher }), endpoint).toEqual({ kind: 'sent' });
		}
		expect(calls()).toBe(services.length + 3);
	});

	it('throws on VAPID keys that are not a P-256 key pair in the documented formats', async () => {
		const subscription = await subscribe();
		await expect(sendWebPush(subscription, notification, { ...vapid, privateKey: 'AAAA' })).rejects.toThrow(/VAPID_PUBLIC_KEY/);
		await expect(sendWebPush(subscription, notification, { ...vapid, publicKey: vapid.privateKey })).rejects.toThrow(/VAPID_PUBLIC_KEY/);
		await expect(sendWebPush(subscription, notification, { ...vapid, subject: 'push-tests@example.com' })).rejects.toThrow(/VAPID_SUBJECT/);
		// The private key of another pair: workerd checks that the two belong together.
		await expect(sendWebPush(subscription, notification, { ...vapid, privateKey: otherVapid.privateKey })).rejects.toThrow(/not a P-256 key pair/);
		expect(await received(subscription)).toEqual([]);
	});
});

describe('vapidFromEnv and pushSetupFromEnv', () => {
	it('gives the keys when all three are set, and null when any is missing or empty', () => {
		const env = { VAPID_PUBLIC_KEY: vapid.publicKey, VAPID_PRIVATE_KEY: vapid.privateKey, VAPID_SUBJECT: vapid.subject };
		expect(vapidFromEnv(env)).toEqual(vapid);
		expect(vapidFromEnv({ ...env, VAPID_PUBLIC_KEY: ` ${vapid.publicKey}\n` })).toEqual(vapid);
		expect(vapidFromEnv({})).toBeNull();
		expect(vapidFromEnv({ ...env, VAPID_PRIVATE_KEY: '' })).toBeNull();
		expect(vapidFromEnv({ ...env, VAPID_SUBJECT: '  ' })).toBeNull();
		const { VAPID_PUBLIC_KEY: _, ...withoutPublic } = env;
		expect(vapidFromEnv(withoutPublic)).toBeNull();
	});

	it('allows this machine only when PUSH_ALLOW_LOOPBACK is "1"', () => {
		const env = { VAPID_PUBLIC_KEY: vapid.publicKey, VAPID_PRIVATE_KEY: vapid.privateKey, VAPID_SUBJECT: vapid.subject };
		expect(pushSetupFromEnv(env)).toEqual({ vapid, allowLoopback: false });
		expect(pushSetupFromEnv({ ...env, PUSH_ALLOW_LOOPBACK: '' })).toEqual({ vapid, allowLoopback: false });
		expect(pushSetupFromEnv({ ...env, PUSH_ALLOW_LOOPBACK: 'true' })).toEqual({ vapid, allowLoopback: false });
		expect(pushSetupFromEnv({ ...env, PUSH_ALLOW_LOOPBACK: '1' })).toEqual({ vapid, allowLoopback: true });
		expect(pushSetupFromEnv({ PUSH_ALLOW_LOOPBACK: '1' })).toBeNull();
	});
});

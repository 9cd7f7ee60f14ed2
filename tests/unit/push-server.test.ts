/**
 * The local push service stand-in (scripts/push/server.mjs) refuses what a browser vendor's push
 * service refuses, so that the workers tests (tests/workers/push.test.ts) pass only with a right
 * request: its decryption reproduces RFC 8291's example, and a VAPID JWT with the wrong audience, an
 * expired or too distant `exp`, no contact, or a request without its headers is refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPrivateKey, sign } from 'node:crypto';
import { decryptPushMessage, generateVapidKeys, startPushService } from '../../scripts/push/server.mjs';
import { sendWebPush, type PushSubscriptionKeys, type VapidKeys } from '@/server/notifications/push';

let service: { origin: string; close: () => Promise<void> };
const vapid: VapidKeys = { ...generateVapidKeys(), subject: 'mailto:push-tests@example.com' };

beforeAll(async () => {
	service = (await startPushService({ port: 0 })) as typeof service;
});
afterAll(() => service.close());

async function subscribe(): Promise<PushSubscriptionKeys> {
	const response = await fetch(`${service.origin}/subscriptions`, { method: 'POST' });
	const { endpoint, keys } = (await response.json()) as { endpoint: string; keys: { p256dh: string; auth: string } };
	return { endpoint, ...keys };
}

const messages = async (subscription: PushSubscriptionKeys) => (await (await fetch(`${subscription.endpoint}/messages`)).json()) as unknown[];

/** An ES256 JWT signed with the VAPID key, with `header` and `claims` as given. */
function jwt(claims: Record<string, unknown>, header: Record<string, unknown> = { typ: 'JWT', alg: 'ES256' }): string {
	const point = Buffer.from(vapid.publicKey, 'base64url');
	const key = createPrivateKey({
		key: {
			kty: 'EC',
			crv: 'P-256',
			x: point.subarray(1, 33).toString('base64url'),
			y: point.subarray(33).toString('base64url'),
			d: vapid.privateKey,
		},
		format: 'jwk',
	});
	const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
	const unsigned = `${part(header)}.${part(claims)}`;
	return `${unsigned}.${sign('sha256', Buffer.from(unsigned), { key, dsaEncoding: 'ieee-p1363' }).toString('base64url')}`;
}

/** Sends a message of push.ts with `change` applied to its headers; the stand-in's status and reason. */
async function pushWith(subscription: PushSubscriptionKeys, change: (headers: Headers) => void): Promise<{ status: number; reason: string }> {
	let answer = { status: 0, reason: '' };
	await sendWebPush(subscription, { title: 'Hello' }, vapid, {
		// The stand-in listens on this machine (the local setting, PUSH_ALLOW_LOOPBACK).
		allowLoopback: true,
		fetcher: (async (input: RequestInfo | URL, init?: RequestInit) => {
			const headers = new Headers(init?.headers);
			change(headers);
			const response = await fetch(input, { ...init, headers });
			answer = { status: response.status, reason: await response.clone().text() };
			return response;
		}) as typeof fetch,
	});
	return answer;
}

const now = () => Math.floor(Date.now() / 1000);

describe('the push service stand-in', () => {
	it('makes VAPID keys of full length: a 65-byte point and a 32-byte scalar, also when the scalar starts with a zero byte', () => {
		// Node's ECDH gives a scalar without its leading zero bytes, one key in 256: 2,000 keys meet about 8 of them.
		for (let i = 0; i < 2000; i += 1) {
			const keys = generateVapidKeys();
			expect(Buffer.from(keys.publicKey, 'base64url')).toHaveLength(65);
			expect(Buffer.from(keys.privateKey, 'base64url')).toHaveLength(32);
		}
	});

	it('decrypts the example of RFC 8291 (Appendix A)', () => {
		const body = Buffer.from(
			'DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN',
			'base64url',
		);
		const keys = { privateKey: 'q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94', auth: 'BTBZMqHH6r4Tts7J_aSIgg' };
		expect(decryptPushMessage(body, keys)).toBe('When I grow up, I want to be a watermelon');
		const changed = Buffer.from(body);
		changed[changed.length - 1]! ^= 1;
		expect(() => decryptPushMessage(changed, keys)).toThrow(/does not decrypt/);
	});

	it('takes a message of push.ts and refuses one whose JWT has another audience, an expired or distant exp, or no contact', async () => {
		const subscription = await subscribe();
		expect(await pushWith(subscription, () => {})).toEqual({ status: 201, reason: '' });
		const claims = { aud: service.origin, exp: now() + 3600, sub: vapid.subject };
		const withJwt = (token: string) => (headers: Headers) => headers.set('Authorization', `vapid t=${token}, k=${vapid.publicKey}`);
		expect(await pushWith(subscription, withJwt(jwt(claims)))).toEqual({ status: 201, reason: '' });

		expect(await pushWith(subscription, withJwt(jwt({ ...claims, aud: 'https://push.example.com' })))).toEqual({
			status: 403,
			reason: `JWT aud is not ${service.origin}`,
		});
		expect(await pushWith(subscription, withJwt(jwt({ ...claims, aud: `${service.origin}/` })))).toMatchObject({ status: 403 });
		expect(await pushWith(subscription, withJwt(jwt({ ...claims, exp: now() - 60 })))).toEqual({ status: 403, reason: 'JWT expired' });
		expect(await pushWith(subscription, withJwt(jwt({ ...claims, exp: now() + 25 * 3600 })))).toEqual({
			status: 403,
			reason: 'JWT exp is more than 24 hours away',
		});
		expect(await pushWith(subscription, withJwt(jwt({ aud: claims.aud, exp: claims.exp })))).toMatchObject({ status: 403, reason: /sub/ });
		expect(await pushWith(subscription, withJwt(jwt({ ...claims, sub: 'push-tests@example.com' })))).toMatchObject({ status: 403, reason: /sub/ });
		expect(await pushWith(subscription, withJwt(jwt(claims, { typ: 'JWT', alg: 'ES384' })))).toEqual({ status: 403, reason: 'JWT alg is not ES256' });
		expect(await messages(subscription)).toHaveLength(2);
	});

	it('refuses a message without its headers', async () => {
		const subscription = await subscribe();
		expect(await pushWith(subscription, (headers) => headers.delete('Authorization'))).toMatchObject({ status: 401 });
		expect(await pushWith(subscription, (headers) => headers.set('Authorization', 'WebPush abc'))).toMatchObject({ status: 401 });
		expect(await pushWith(subscription, (headers) => headers.delete('TTL'))).toMatchObject({ status: 400, reason: /TTL/ });
		expect(await pushWith(subscription, (headers) => headers.set('Urgency', 'urgent'))).toMatchObject({ status: 400, reason: /Urgency/ });
		expect(await pushWith(subscription, (headers) => headers.set('Content-Encoding', 'aesgcm'))).toMatchObject({ status: 400, reason: /aes128gcm/ });
		expect(await messages(subscription)).toEqual([]);
	});

	it('answers 404 for an unknown subscription and 410 for an ended one', async () => {
		const subscription = await subscribe();
		expect(await pushWith({ ...subscription, endpoint: `${service.origin}/push/unknown` }, () => {})).toMatchObject({ status: 404 });
		expect((await fetch(subscription.endpoint, { method: 'DELETE' })).status).toBe(204);
		expect(await pushWith(subscription, () => {})).toMatchObject({ status: 410 });
	});
});

/**
 * Web Push delivery (the Push API's server side), in WebCrypto alone, as the Worker has no Node
 * crypto for the `web-push` package. Three RFCs make one request:
 *
 * - RFC 8030 (the protocol): a browser's subscription is an endpoint URL at its vendor's push
 *   service; a message is a POST to it with a `TTL` header (seconds the service may keep it for an
 *   offline device) and optionally `Urgency`. The service answers 201 when it took the message; 404
 *   or 410 when the subscription no longer exists (the member unsubscribed, the browser dropped it):
 *   `gone`, the caller deletes it; anything else is `failed` (429, 5xx: try again later).
 * - RFC 8291 (the payload): the body is encrypted for the browser alone. An ephemeral P-256 key
 *   pair of ours, ECDH with the subscription's `p256dh` key, HKDF with its 16-byte `auth` secret and
 *   a random salt give an AES-128-GCM key and nonce; the body is one aes128gcm record (RFC 8188):
 *   salt (16) ‖ record size (4) ‖ key id length (1) ‖ our ephemeral public key (65) ‖ ciphertext.
 *   A record holds at most 4096 bytes, so a payload (JSON) may be at most MAX_PAYLOAD_BYTES.
 * - RFC 8292 (VAPID): `Authorization: vapid t=<JWT>, k=<public key>`, the JWT signed with ES256 by
 *   the deployment's VAPID key, its `aud` the endpoint's origin, `exp` within 24 hours and `sub` a
 *   contact (mailto: or https:). The browser subscribed with the same public key
 *   (`applicationServerKey`), so the push service takes messages for it from us alone.
 *
 * The endpoint comes from a member's browser, so the Worker never fetches just any URL: only the
 * push services of push-services.ts over https (and this machine where the deployment allows it,
 * for the local stand-in scripts/push/server.mjs), no redirects followed, and 10 seconds at most.
 *
 * Keys (env VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY, VAPID_SUBJECT), as `npx web-push
 * generate-vapid-keys` prints them: the public key is the base64url of the uncompressed P-256 point
 * (65 bytes, 0x04 ‖ x ‖ y), what the browser's `applicationServerKey` takes; the private key the
 * base64url of the 32-byte scalar d (one written shorter, without its leading zero bytes, is taken as the
 * same number). scripts/push/server.mjs's generateVapidKeys() makes a pair.
 */
import { loopbackAllowed, pushEndpoint } from './push-services';

export interface PushSubscriptionKeys {
	endpoint: string;
	/** The browser's P-256 public key, base64url (PushSubscription.toJSON().keys.p256dh). */
	p256dh: string;
	/** The browser's 16-byte authentication secret, base64url (….keys.auth). */
	auth: string;
}

export interface VapidKeys {
	/** base64url of the uncompressed P-256 point (65 bytes): the browser's applicationServerKey. */
	publicKey: string;
	/** base64url of the private scalar d (32 bytes). */
	privateKey: string;
	/** The JWT's `sub`: a contact for the push services, mailto: or https:. */
	subject: string;
}

/**
 * - sent: the push service took the message.
 * - gone: 404 or 410, the subscription is no more: remove it.
 * - failed: try again later. `status` is the push service's answer, or 0 when no answer came (a
 *   network error, the timeout) or when nothing was sent: an endpoint the Worker may not fetch or
 *   keys that are not a browser's (retrying those is no use), or 413 for a payload over the limit.
 */
export type PushOutcome = { kind: 'sent' } | { kind: 'gone' } | { kind: 'failed'; status: number };

/** The largest JSON payload (UTF-8 bytes): 3 KiB, well inside one 4096-byte aes128gcm record. */
export const MAX_PAYLOAD_BYTES = 3 * 1024;

/** How long a push service keeps a message for an offline browser, unless the caller says. */
const DEFAULT_TTL_SECONDS = 24 * 60 * 60;
/** The longest TTL we ask for (four weeks, the longest the push services keep a message). */
const MAX_TTL_SECONDS = 28 * 24 * 60 * 60;
/** A VAPID JWT's lifetime: RFC 8292 allows at most 24 hours. */
const JWT_LIFETIME_SECONDS = 12 * 60 * 60;
const FETCH_TIMEOUT_MS = 10_000;
/** The record size we declare: the single record of at most 4096 bytes. */
const RECORD_SIZE = 4096;

const encoder = new TextEncoder();

/** Bytes over an ArrayBuffer, what WebCrypto and fetch take. */
type Bytes = Uint8Array<ArrayBuffer>;

/** The deployment's VAPID keys, or null when any of the three is missing (no push delivery). */
export function vapidFromEnv(env: { VAPID_PUBLIC_KEY?: string; VAPID_PRIVATE_KEY?: string; VAPID_SUBJECT?: string }): VapidKeys | null {
	const publicKey = env.VAPID_PUBLIC_KEY?.trim();
	const privateKey = env.VAPID_PRIVATE_KEY?.trim();
	const subject = env.VAPID_SUBJECT?.trim();
	if (!publicKey || !privateKey || !subject) return null;
	return { publicKey, privateKey, subject };
}

/** What the queue's consumer and the subscribe API need of the deployment's Web Push. */
export interface PushSetup {
	vapid: VapidKeys;
	/** PUSH_ALLOW_LOOPBACK = "1": endpoints on this machine are taken too (push-services.ts). */
	allowLoopback: boolean;
}

/** The deployment's Web Push, or null when it has no VAPID keys (no push delivery). */
export function pushSetupFromEnv(env: Parameters<typeof vapidFromEnv>[0] & { PUSH_ALLOW_LOOPBACK?: string }): PushSetup | null {
	const vapid = vapidFromEnv(env);
	return vapid ? { vapid, allowLoopback: loopbackAllowed(env) } : null;
}

/**
 * Sends `payload` (as JSON) to one subscription. Throws only when the VAPID keys are malformed (the
 * deployment's configuration); every other trouble is an outcome.
 */
export async function sendWebPush(
	subscription: PushSubscriptionKeys,
	payload: unknown,
	vapid: VapidKeys,
	options: { ttlSeconds?: number; urgency?: 'low' | 'normal' | 'high'; fetcher?: typeof fetch; allowLoopback?: boolean } = {},
): Promise<PushOutcome> {
	const signingKey = await importVapidKey(vapid);
	const url = pushEndpoint(subscription.endpoint, options.allowLoopback === true);
	if (!url) return { kind: 'failed', status: 0 };
	const clientKey = base64UrlDecode(subscription.p256dh);
	const authSecret = base64UrlDecode(subscription.auth);
	if (clientKey?.length !== 65 || clientKey[0] !== 0x04 || authSecret?.length !== 16) return { kind: 'failed', status: 0 };
	const plaintext = encoder.encode(JSON.stringify(payload) ?? 'null');
	if (plaintext.length > MAX_PAYLOAD_BYTES) return { kind: 'failed', status: 413 };

	let body: Bytes;
	try {
		body = await encryptPayload(plaintext, clientKey, authSecret);
	} catch {
		// Not a point of the curve: the browser never gave these keys.
		return { kind: 'failed', status: 0 };
	}
	const jwt = await signJwt({ aud: url.origin, exp: Math.floor(Date.now() / 1000) + JWT_LIFETIME_SECONDS, sub: vapid.subject }, signingKey);
	const asked = options.ttlSeconds ?? DEFAULT_TTL_SECONDS;
	const ttl = Number.isFinite(asked) ? Math.min(MAX_TTL_SECONDS, Math.max(0, Math.floor(asked))) : DEFAULT_TTL_SECONDS;
	const headers: Record<string, string> = {
		Authorization: `vapid t=${jwt}, k=${vapid.publicKey}`,
		'Content-Encoding': 'aes128gcm',
		'Content-Type': 'application/octet-stream',
		TTL: String(ttl),
	};
	if (options.urgency) headers['Urgency'] = options.urgency;

	const fetcher = options.fetcher ?? fetch;
	let response: Response;
	try {
		response = await fetcher(url.href, { method: 'POST', headers, body, redirect: 'manual', signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
	} catch {
		return { kind: 'failed', status: 0 };
	}
	await response.body?.cancel().catch(() => undefined);
	if (response.status >= 200 && response.status < 300) return { kind: 'sent' };
	if (response.status === 404 || response.status === 410) return { kind: 'gone' };
	return { kind: 'failed', status: response.status };
}

/** RFC 8291 §3.4 and RFC 8188 §2: the payload as one aes128gcm record for the browser's keys. */
async function encryptPayload(plaintext: Bytes, clientKey: Bytes, authSecret: Bytes): Promise<Bytes> {
	const subtle = crypto.subtle;
	const clientPublic = await subtle.importKey('raw', clientKey, { name: 'ECDH', namedCurve: 'P-256' }, false, []);
	const local = (await subtle.generateKey({ name: 'ECDH', namedCurve: 'P-256' }, true, ['deriveBits'])) as CryptoKeyPair;
	const localPublic = new Uint8Array((await subtle.exportKey('raw', local.publicKey)) as ArrayBuffer);
	const sharedSecret = await subtle.deriveBits({ name: 'ECDH', public: clientPublic }, local.privateKey, 256);

	// IKM = HKDF(salt = auth_secret, ikm = ECDH secret, info = "WebPush: info" ‖ 0 ‖ ua_public ‖ as_public, 32)
	const keyInfo = concat(encoder.encode('WebPush: info\0'), clientKey, localPublic);
	const ikm = await hkdf(authSecret, new Uint8Array(sharedSecret), keyInfo, 32);
	const salt = crypto.getRandomValues(new Uint8Array(16));
	const contentKey = await hkdf(salt, ikm, encoder.encode('Content-Encoding: aes128gcm\0'), 16);
	const nonce = await hkdf(salt, ikm, encoder.encode('Content-Encoding: nonce\0'), 12);

	// One record, the last: the payload, then the delimiter 2 (no padding).
	const record = concat(plaintext, Uint8Array.of(2));
	const aesKey = await subtle.importKey('raw', contentKey, 'AES-GCM', false, ['encrypt']);
	const ciphertext = new Uint8Array(await subtle.encrypt({ name: 'AES-GCM', iv: nonce, tagLength: 128 }, aesKey, record));

	const header = new Uint8Array(16 + 4 + 1 + localPublic.length);
	header.set(salt, 0);
	new DataView(header.buffer).setUint32(16, RECORD_SIZE);
	header[20] = localPublic.length;
	header.set(localPublic, 21);
	return concat(header, ciphertext);
}

async function hkdf(salt: Bytes, ikm: Bytes, info: Bytes, length: number): Promise<Bytes> {
	const key = await crypto.subtle.importKey('raw', ikm, 'HKDF', false, ['deriveBits']);
	return new Uint8Array(await crypto.subtle.deriveBits({ name: 'HKDF', hash: 'SHA-256', salt, info }, key, length * 8));
}

/** The VAPID private key for ES256, from the public point (x, y) and the scalar d. */
async function importVapidKey(vapid: VapidKeys): Promise<CryptoKey> {
	const point = base64UrlDecode(vapid.publicKey);
	const scalar = base64UrlDecode(vapid.privateKey);
	// Some generators (Node's ECDH among them) drop the scalar's leading zero bytes: the same number, padded back to 32.
	const d = scalar && scalar.length >= 1 && scalar.length < 32 ? concat(new Uint8Array(32 - scalar.length), scalar) : scalar;
	if (point?.length !== 65 || point[0] !== 0x04 || d?.length !== 32) {
		throw new Error('VAPID_PUBLIC_KEY must be a base64url uncompressed P-256 point (65 bytes), VAPID_PRIVATE_KEY a base64url 32-byte key');
	}
	if (!/^(mailto:|https:)/.test(vapid.subject)) throw new Error('VAPID_SUBJECT must be a mailto: or https: address');
	const jwk: JsonWebKey = {
		kty: 'EC',
		crv: 'P-256',
		x: base64UrlEncode(point.subarray(1, 33)),
		y: base64UrlEncode(point.subarray(33, 65)),
		d: base64UrlEncode(d),
	};
	try {
		return await crypto.subtle.importKey('jwk', jwk, { name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign']);
	} catch {
		throw new Error('VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY are not a P-256 key pair');
	}
}

/** RFC 8292 §2: an ES256 JWT (WebCrypto's ECDSA signature is already JWS's r ‖ s). */
async function signJwt(claims: { aud: string; exp: number; sub: string }, key: CryptoKey): Promise<string> {
	const part = (value: unknown) => base64UrlEncode(encoder.encode(JSON.stringify(value)));
	const unsigned = `${part({ typ: 'JWT', alg: 'ES256' })}.${part(claims)}`;
	const signature = await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, key, encoder.encode(unsigned));
	return `${unsigned}.${base64UrlEncode(new Uint8Array(signature))}`;
}

function concat(...parts: Bytes[]): Bytes {
	const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
	let offset = 0;
	for (const part of parts) {
		out.set(part, offset);
		offset += part.length;
	}
	return out;
}

function base64UrlEncode(bytes: Uint8Array): string {
	let binary = '';
	for (const byte of bytes) binary += String.fromCharCode(byte);
	return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

/** base64url (or base64, with or without padding, as some browsers gave keys) → bytes; null if not. */
function base64UrlDecode(text: string): Bytes | null {
	const plain = text.trim().replaceAll('-', '+').replaceAll('_', '/').replace(/=+$/, '');
	if (!/^[A-Za-z0-9+/]*$/.test(plain) || plain.length % 4 === 1) return null;
	const binary = atob(plain + '='.repeat((4 - (plain.length % 4)) % 4));
	return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}

/**
 * A local stand-in for a Web Push service (a browser vendor's: FCM, Mozilla's autopush, Apple's),
 * as scripts/turnstile/server.mjs stands in for Turnstile: the workers tests run the product's real
 * push code (src/server/notifications/push.ts) against it. It is also the browser that owns the
 * subscriptions, so it can read what it was sent.
 *
 * - POST /subscriptions: a new subscription, as `pushManager.subscribe()` makes one: a P-256 key
 *   pair and a 16-byte auth secret of its own; answers `{ endpoint, keys: { p256dh, auth } }`
 *   (base64url), PushSubscription.toJSON()'s shape. A JSON body `{ applicationServerKey }` makes
 *   it a restricted subscription (RFC 8292 §3.2): only that VAPID key may push to it.
 * - POST /push/:id: the push resource (RFC 8030 §5). It wants `TTL`, `Content-Encoding:
 *   aes128gcm`, an optional `Urgency`, and `Authorization: vapid t=<JWT>, k=<key>` (RFC 8292): an
 *   ES256 JWT signed by k, its `aud` the stand-in's origin, `exp` in the future and at most 24 hours
 *   away, `sub` a mailto: or https: address. It decrypts the body (RFC 8291, RFC 8188) with the
 *   subscription's keys and keeps the message. Answers 201; 400 (a bad request), 401 (no
 *   Authorization), 403 (a bad JWT or key), 413 (over 4096 bytes), each with a short text reason;
 *   404 for an unknown subscription, 410 for one DELETE ended.
 * - GET /push/:id/messages: the messages it took, oldest first: `{ data, text, headers: { ttl,
 *   urgency, topic }, receivedAt }`, `data` the payload parsed as JSON (null when it is not JSON),
 *   what the browser's service worker gets as `event.data`.
 * - DELETE /push/:id: ends the subscription (an expired or revoked one): later pushes get 410.
 */
import http from 'node:http';
import { listen, readBody } from '../lib/stand-in.mjs';
import { createDecipheriv, createECDH, createPublicKey, hkdfSync, randomBytes, randomUUID, verify } from 'node:crypto';

/** RFC 8030 §7.2: a push service must take payloads of 4096 bytes; larger ones get 413. */
const MAX_BODY = 4096;
/** RFC 8292 §2: a JWT's `exp` is at most 24 hours away. */
const MAX_JWT_LIFETIME_S = 24 * 60 * 60;
const URGENCIES = new Set(['very-low', 'low', 'normal', 'high']);

/** A new VAPID key pair in push.ts's formats: base64url of the 65-byte public point and of the 32-byte d. */
export function generateVapidKeys() {
	const ecdh = createECDH('prime256v1');
	ecdh.generateKeys();
	// Node gives the scalar without its leading zero bytes (31 bytes once in 256 keys): VAPID's d is 32.
	const privateKey = Buffer.from(ecdh.getPrivateKey('hex').padStart(64, '0'), 'hex');
	return { publicKey: ecdh.getPublicKey().toString('base64url'), privateKey: privateKey.toString('base64url') };
}

class Refusal extends Error {
	/** @param {number} status @param {string} reason */
	constructor(status, reason) {
		super(reason);
		this.status = status;
	}
}

/** A body past MAX_BODY: 413, as a push service answers it. */
const tooLarge = () => new Refusal(413, 'payload too large');

/**
 * The VAPID key of a valid `Authorization: vapid t=…, k=…` for `audience`; throws a Refusal.
 * @param {string | undefined} header
 * @param {string} audience
 * @param {number} nowSeconds
 */
function checkVapid(header, audience, nowSeconds) {
	if (!header) throw new Refusal(401, 'missing Authorization');
	const match = /^vapid\s+(.*)$/i.exec(header);
	if (!match) throw new Refusal(401, 'Authorization scheme is not vapid');
	const params = Object.fromEntries(
		match[1].split(',').map((param) => {
			const at = param.indexOf('=');
			return [param.slice(0, at).trim().toLowerCase(), param.slice(at + 1).trim()];
		}),
	);
	const token = params['t'];
	const key = params['k'];
	if (!token || !key) throw new Refusal(401, 'vapid needs t and k');
	const point = Buffer.from(key, 'base64url');
	if (point.length !== 65 || point[0] !== 4) throw new Refusal(403, 'k is not an uncompressed P-256 key');
	const parts = token.split('.');
	if (parts.length !== 3) throw new Refusal(403, 't is not a JWT');
	let jwtHeader, claims;
	try {
		jwtHeader = JSON.parse(Buffer.from(parts[0], 'base64url').toString('utf8'));
		claims = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8'));
	} catch {
		throw new Refusal(403, 'JWT is not JSON');
	}
	if (jwtHeader?.alg !== 'ES256') throw new Refusal(403, 'JWT alg is not ES256');
	let publicKey;
	try {
		publicKey = createPublicKey({
			key: { kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33).toString('base64url') },
			format: 'jwk',
		});
	} catch {
		throw new Refusal(403, 'k is not a P-256 point');
	}
	const signature = Buffer.from(parts[2], 'base64url');
	const good = verify('sha256', Buffer.from(`${parts[0]}.${parts[1]}`), { key: publicKey, dsaEncoding: 'ieee-p1363' }, signature);
	if (!good) throw new Refusal(403, 'JWT signature does not verify with k');
	if (claims?.aud !== audience) throw new Refusal(403, `JWT aud is not ${audience}`);
	if (typeof claims.exp !== 'number' || claims.exp <= nowSeconds) throw new Refusal(403, 'JWT expired');
	if (claims.exp > nowSeconds + MAX_JWT_LIFETIME_S) throw new Refusal(403, 'JWT exp is more than 24 hours away');
	if (typeof claims.sub !== 'string' || !/^(mailto:|https:)/.test(claims.sub)) throw new Refusal(403, 'JWT sub is not a mailto: or https: address');
	return key;
}

/**
 * RFC 8291 §3.4 and RFC 8188 §2: the plaintext of an aes128gcm body for the subscription's keys.
 * @param {Buffer} body
 * @param {import('node:crypto').ECDH} ecdh the subscription's key pair
 * @param {Buffer} authSecret
 */
function decrypt(body, ecdh, authSecret) {
	if (body.length < 21) throw new Refusal(400, 'aes128gcm header too short');
	const salt = body.subarray(0, 16);
	const recordSize = body.readUInt32BE(16);
	const idLength = body[20];
	if (recordSize < 18) throw new Refusal(400, 'aes128gcm record size too small');
	if (idLength !== 65 || body.length < 21 + idLength) throw new Refusal(400, 'aes128gcm key id is not a P-256 key');
	const serverKey = body.subarray(21, 21 + idLength);
	let secret;
	try {
		secret = ecdh.computeSecret(serverKey);
	} catch {
		throw new Refusal(400, 'aes128gcm key id is not a P-256 point');
	}
	const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), ecdh.getPublicKey(), serverKey]);
	const ikm = Buffer.from(hkdfSync('sha256', secret, authSecret, keyInfo, 32));
	const contentKey = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
	const baseNonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));

	const records = [];
	const content = body.subarray(21 + idLength);
	if (content.length === 0) throw new Refusal(400, 'aes128gcm body has no record');
	for (let offset = 0, sequence = 0; offset < content.length; offset += recordSize, sequence++) {
		const record = content.subarray(offset, offset + recordSize);
		if (record.length < 17) throw new Refusal(400, 'aes128gcm record too short');
		// The record's nonce: the base nonce XOR its sequence number (big-endian; fewer than 2³² records).
		const nonce = Buffer.from(baseNonce);
		nonce.writeUInt32BE((nonce.readUInt32BE(8) ^ sequence) >>> 0, 8);
		const decipher = createDecipheriv('aes-128-gcm', contentKey, nonce);
		decipher.setAuthTag(record.subarray(record.length - 16));
		let plain;
		try {
			plain = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
		} catch {
			throw new Refusal(400, 'aes128gcm record does not decrypt');
		}
		// Padding is zeros after the delimiter: 2 ends the last record, 1 any other.
		let end = plain.length - 1;
		while (end >= 0 && plain[end] === 0) end--;
		const last = offset + recordSize >= content.length;
		if (end < 0 || plain[end] !== (last ? 2 : 1)) throw new Refusal(400, 'aes128gcm record delimiter is wrong');
		records.push(plain.subarray(0, end));
	}
	return Buffer.concat(records);
}

/**
 * The plaintext of an aes128gcm body for a browser's keys, as a string; throws when it does not
 * decrypt. (The tests check it with RFC 8291's example.)
 * @param {Uint8Array} body
 * @param {{ privateKey: string, auth: string }} keys base64url: the browser's 32-byte P-256 private key and auth secret
 */
export function decryptPushMessage(body, { privateKey, auth }) {
	const ecdh = createECDH('prime256v1');
	ecdh.setPrivateKey(Buffer.from(privateKey, 'base64url'));
	return decrypt(Buffer.from(body), ecdh, Buffer.from(auth, 'base64url')).toString('utf8');
}

/**
 * Starts the stand-in.
 * @param {{ port?: number, host?: string, now?: () => number }} [options] `now`: the clock JWTs expire by.
 */
export async function startPushService({ port = 0, host = '127.0.0.1', now = Date.now } = {}) {
	/** @type {Map<string, { ecdh: import('node:crypto').ECDH, auth: Buffer, applicationServerKey: string | null, gone: boolean, messages: unknown[] }>} */
	const subscriptions = new Map();

	let base = '';
	const server = http.createServer(async (req, res) => {
		const url = new URL(req.url ?? '/', base);
		const json = (status, body) =>
			res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' }).end(JSON.stringify(body));
		const text = (status, body) => res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8' }).end(body);
		try {
			if (req.method === 'POST' && url.pathname === '/subscriptions') {
				const input = (await readBody(req, MAX_BODY, tooLarge)).toString('utf8');
				const options = input ? JSON.parse(input) : {};
				const applicationServerKey = typeof options?.applicationServerKey === 'string' ? options.applicationServerKey : null;
				const ecdh = createECDH('prime256v1');
				ecdh.generateKeys();
				const auth = randomBytes(16);
				const id = randomUUID();
				subscriptions.set(id, { ecdh, auth, applicationServerKey, gone: false, messages: [] });
				return json(201, {
					endpoint: `${base}/push/${id}`,
					expirationTime: null,
					keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') },
				});
			}
			const match = /^\/push\/([\w-]+)(\/messages)?$/.exec(url.pathname);
			const subscription = match ? subscriptions.get(match[1]) : undefined;
			if (match && !match[2] && req.method === 'POST') {
				if (!subscription) return text(404, 'no such subscription');
				if (subscription.gone) return text(410, 'subscription expired');
				const key = checkVapid(req.headers.authorization, base, Math.floor(now() / 1000));
				if (subscription.applicationServerKey !== null && key !== subscription.applicationServerKey) {
					throw new Refusal(403, 'k is not the subscription’s applicationServerKey');
				}
				const header = (name) => req.headers[name]?.toString();
				const ttl = header('ttl');
				if (ttl === undefined || !/^\d+$/.test(ttl)) throw new Refusal(400, 'TTL header missing or not a number');
				const urgency = header('urgency') ?? 'normal';
				if (!URGENCIES.has(urgency)) throw new Refusal(400, 'Urgency is not very-low, low, normal or high');
				if (header('content-encoding') !== 'aes128gcm') throw new Refusal(400, 'Content-Encoding is not aes128gcm');
				const plain = decrypt(await readBody(req, MAX_BODY, tooLarge), subscription.ecdh, subscription.auth).toString('utf8');
				let data = null;
				try {
					data = JSON.parse(plain);
				} catch {
					// Not JSON: the text alone.
				}
				const topic = header('topic') ?? null;
				subscription.messages.push({ data, text: plain, headers: { ttl: Number(ttl), urgency, topic }, receivedAt: new Date(now()).toISOString() });
				res.writeHead(201, { Location: `${base}/message/${randomUUID()}` }).end();
				return;
			}
			if (match && match[2] && req.method === 'GET') {
				if (!subscription) return text(404, 'no such subscription');
				return json(200, subscription.messages);
			}
			if (match && !match[2] && req.method === 'DELETE') {
				if (!subscription) return text(404, 'no such subscription');
				subscription.gone = true;
				res.writeHead(204).end();
				return;
			}
			text(404, 'Not found');
		} catch (error) {
			if (error instanceof Refusal) return text(error.status, error.message);
			text(400, String(error instanceof Error ? error.message : error));
		}
	});
	const { origin, close } = await listen(server, port, host);
	base = origin;
	return { origin, close };
}

/**
 * The local identity provider (scripts/idp/) signs in to every community on the app's origins, a
 * community made later by `npm run channel -- apply` as well as the demo ones, by the return
 * path's pattern, and still refuses any other redirect URI (another origin, another path, a query).
 */
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isCommunityRedirectUri, startIdentityProvider } from '../../scripts/idp/server.mjs';

const APP = ['http://127.0.0.1:8860', 'http://localhost:8860'];
let PORT = 0;
let idp: { close: () => Promise<void> };

/** A port nothing listens on now (the system's pick), so that a running test server cannot hold it. */
function freePort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const probe = createServer().listen(0, '127.0.0.1', () => {
			const address = probe.address();
			probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
		});
	});
}

beforeAll(async () => {
	PORT = await freePort();
	idp = await startIdentityProvider({ port: PORT, appOrigins: APP });
});
afterAll(async () => idp.close());

/** The provider's answer to an authorization request returning to `redirectUri`. */
async function authorize(name: 'google' | 'apple' | 'x', redirectUri: string) {
	const query = new URLSearchParams({
		client_id: { google: 'local-google-client', apple: 'local.apple.services-id', x: 'local-x-client' }[name],
		redirect_uri: redirectUri,
		response_type: 'code',
		scope: name === 'x' ? 'users.read' : 'openid',
		state: 'state-0123456789',
		code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
		code_challenge_method: 'S256',
	});
	if (name !== 'x') query.set('nonce', 'nonce-0123456789');
	const response = await fetch(`http://127.0.0.1:${PORT}/${name}/auth?${query}`, { redirect: 'manual' });
	return { status: response.status, location: response.headers.get('location') ?? '', body: await response.text() };
}

describe('the local identity provider', () => {
	it.each(['google', 'apple', 'x'] as const)('%s accepts a community that is not among the demo ones', async (name) => {
		const answer = await authorize(name, 'http://127.0.0.1:8860/starfall/guides00/oauth');
		expect(answer.body).not.toContain('invalid_redirect_uri');
		expect(answer.status).toBe(303);
		expect(answer.location).toMatch(new RegExp(`^/${name}/interaction/`));
	});

	it('still accepts the demo communities', async () => {
		expect((await authorize('google', 'http://localhost:8860/pixelfarm/main/oauth')).status).toBe(303);
	});

	it.each([
		['another origin', 'http://127.0.0.1:9999/starfall/guides/oauth'],
		['another site', 'https://evil.example/starfall/guides/oauth'],
		['another path', 'http://127.0.0.1:8860/starfall/guides/elsewhere'],
		['a query', 'http://127.0.0.1:8860/starfall/guides/oauth?next=x'],
		['a reserved domain', 'http://127.0.0.1:8860/v1/guides/oauth'],
		['upper case', 'http://127.0.0.1:8860/Starfall/guides/oauth'],
	])('refuses %s', async (_, uri) => {
		expect(isCommunityRedirectUri(uri, APP)).toBe(false);
		const answer = await authorize('google', uri);
		expect(answer.status).toBe(400);
		expect(answer.body).toContain('invalid_redirect_uri');
	});
});

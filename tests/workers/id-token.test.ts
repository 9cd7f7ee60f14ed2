/**
 * ID-token validation (Google and Apple): the token endpoint's answer is forged here with keys made
 * in the test, and the provider's JWKS is served by the fetch the client is given. Every defect
 * must refuse the sign-in; only a token that is right in every respect yields its subject.
 */
import { describe, expect, it } from 'vitest';
import * as oauth from 'oauth4webapi';
import { SignJWT, exportJWK, generateKeyPair, type JWTPayload } from 'jose';
import { appleClientSecret, subjectFromTokenResponse, type FetchLike } from '@/server/sign-in/oauth';
import type { OidcProviderConfig } from '@/server/sign-in/oauth-config';

const ISSUER = 'https://accounts.idp.test';
const CLIENT_ID = 'board-client';
const NONCE = 'n-0S6_WzA2Mj';
const trusted = await generateKeyPair('RS256');
const stranger = await generateKeyPair('RS256');
const jwks = { keys: [{ ...(await exportJWK(trusted.publicKey)), kid: 'trusted', alg: 'RS256', use: 'sig' }] };
const servesJwks: FetchLike = async () => new Response(JSON.stringify(jwks), { headers: { 'Content-Type': 'application/json' } });

function server(): oauth.AuthorizationServer {
	return { issuer: ISSUER, token_endpoint: `${ISSUER}/token`, jwks_uri: `${ISSUER}/jwks`, id_token_signing_alg_values_supported: ['RS256'] };
}

const now = () => Math.floor(Date.now() / 1000);
const goodClaims = (): JWTPayload => ({ iss: ISSUER, aud: CLIENT_ID, sub: 'user-123', nonce: NONCE, iat: now(), exp: now() + 600 });

async function sign(claims: JWTPayload, key: CryptoKey = trusted.privateKey, kid = 'trusted'): Promise<string> {
	return new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid }).sign(key);
}

function unsigned(claims: JWTPayload): string {
	const part = (value: object) => btoa(JSON.stringify(value)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
	return `${part({ alg: 'none', typ: 'JWT' })}.${part(claims)}.`;
}

async function subjectOf(idToken: string): Promise<string> {
	const response = new Response(JSON.stringify({ access_token: 'at', token_type: 'Bearer', id_token: idToken }), {
		headers: { 'Content-Type': 'application/json' },
	});
	return subjectFromTokenResponse(server(), { client_id: CLIENT_ID }, response, NONCE, { [oauth.customFetch]: servesJwks });
}

describe('ID token validation', () => {
	it('accepts a token signed by the provider for this client with the transaction nonce', async () => {
		expect(await subjectOf(await sign(goodClaims()))).toBe('user-123');
	});

	it('refuses a token from another issuer', async () => {
		await expect(subjectOf(await sign({ ...goodClaims(), iss: 'https://evil.idp.test' }))).rejects.toThrow(/iss/);
	});

	it('refuses a token for another client', async () => {
		await expect(subjectOf(await sign({ ...goodClaims(), aud: 'someone-else' }))).rejects.toThrow(/aud/);
	});

	it('refuses a token with another nonce', async () => {
		await expect(subjectOf(await sign({ ...goodClaims(), nonce: 'replayed-nonce' }))).rejects.toThrow(/nonce/);
	});

	it('refuses a token without a nonce', async () => {
		const { nonce: _, ...claims } = goodClaims();
		await expect(subjectOf(await sign(claims))).rejects.toThrow(/nonce/);
	});

	it('refuses an expired token', async () => {
		await expect(subjectOf(await sign({ ...goodClaims(), iat: now() - 7200, exp: now() - 3600 }))).rejects.toThrow(/exp/);
	});

	it('refuses a token signed by a key the provider does not publish', async () => {
		await expect(subjectOf(await sign(goodClaims(), stranger.privateKey, 'unknown'))).rejects.toThrow(/key/i);
	});

	it("refuses a token signed by another key under the provider's key id", async () => {
		await expect(subjectOf(await sign(goodClaims(), stranger.privateKey, 'trusted'))).rejects.toThrow(/signature/i);
	});

	it('refuses an unsigned token (alg none)', async () => {
		await expect(subjectOf(unsigned(goodClaims()))).rejects.toThrow();
	});

	it('refuses a token response without an ID token', async () => {
		const response = new Response(JSON.stringify({ access_token: 'at', token_type: 'Bearer' }), { headers: { 'Content-Type': 'application/json' } });
		await expect(subjectFromTokenResponse(server(), { client_id: CLIENT_ID }, response, NONCE, { [oauth.customFetch]: servesJwks })).rejects.toThrow(
			/id_token/,
		);
	});
});

describe("Apple's client secret", () => {
	it('is an ES256 JWT from the team for the Services ID, addressed to Apple, living well under six months', async () => {
		const apple = await generateKeyPair('ES256', { extractable: true });
		const { exportPKCS8, jwtVerify, decodeProtectedHeader } = await import('jose');
		const config: OidcProviderConfig = {
			provider: 'APPLE',
			issuer: new URL('https://appleid.apple.com'),
			clientId: 'com.example.board.web',
			scope: '',
			responseMode: 'form_post',
			clientSecret: { kind: 'apple-jwt', teamId: 'TEAM123456', keyId: 'KEY1234567', privateKey: await exportPKCS8(apple.privateKey) },
			allowHttp: false,
		};
		const secret = await appleClientSecret(config);
		expect(decodeProtectedHeader(secret)).toEqual({ alg: 'ES256', kid: 'KEY1234567' });
		const { payload } = await jwtVerify(secret, apple.publicKey, {
			issuer: 'TEAM123456',
			subject: 'com.example.board.web',
			audience: 'https://appleid.apple.com',
			algorithms: ['ES256'],
		});
		expect((payload.exp ?? 0) - (payload.iat ?? 0)).toBeGreaterThan(0);
		expect((payload.exp ?? 0) - (payload.iat ?? 0)).toBeLessThanOrEqual(15_777_000);
	});
});

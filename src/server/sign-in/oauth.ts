/**
 * The OAuth 2.0 / OpenID Connect client for the three providers, on oauth4webapi: authorization
 * code flow with PKCE (S256) and state for all three; for Google and Apple also a nonce and full
 * ID-token validation (signature against the provider's published keys, iss, aud, exp, nonce);
 * Apple's client secret is an ES256 JWT; X has no ID token, so the member is X's user id from its
 * user lookup. The caller keeps state, verifier and nonce in the transaction bound to the browser.
 */
import * as oauth from 'oauth4webapi';
import { SignJWT, importPKCS8 } from 'jose';
import { z } from 'zod';
import type { OidcProviderConfig, ProviderConfig, XProviderConfig } from './oauth-config';

/** What the browser is sent to, and what must be remembered for its return. */
export interface AuthorizationStart {
	authorizationUrl: URL;
	state: string;
	codeVerifier: string;
	/** null for X. */
	nonce: string | null;
}

/** Why a return from the provider was refused; the message is for the log, never for the browser. */
class SignInRefused extends Error {
	constructor(message: string, options?: ErrorOptions) {
		super(message, options);
		this.name = 'SignInRefused';
	}
}

/** How requests to the provider are sent; tests pass one that answers for a forged provider. */
export type FetchLike = (
	url: string,
	options: { method: string; headers: Record<string, string>; body?: unknown; redirect?: unknown; signal?: unknown },
) => Promise<Response>;

type HttpOptions = { [oauth.allowInsecureRequests]?: boolean; [oauth.customFetch]?: FetchLike };

function httpOptions(config: ProviderConfig, fetchImpl?: FetchLike): HttpOptions {
	return { [oauth.allowInsecureRequests]: config.allowHttp, ...(fetchImpl ? { [oauth.customFetch]: fetchImpl } : {}) };
}

/**
 * Discovery documents, per isolate, for an hour: a provider's endpoints and keys change rarely.
 * Only a settled document is shared: a request never awaits another's fetch (the runtime refuses
 * I/O made for one request in another, platform/memo.ts).
 */
const DISCOVERY_TTL_MS = 60 * 60 * 1000;
const discovered = new Map<string, { at: number; as: oauth.AuthorizationServer }>();

async function discover(config: OidcProviderConfig, fetchImpl?: FetchLike): Promise<oauth.AuthorizationServer> {
	const key = config.issuer.href;
	const known = discovered.get(key);
	if (known && Date.now() - known.at < DISCOVERY_TTL_MS) return known.as;
	const at = Date.now();
	const response = await oauth.discoveryRequest(config.issuer, { algorithm: 'oidc', ...httpOptions(config, fetchImpl) });
	const as = await oauth.processDiscoveryResponse(config.issuer, response);
	discovered.set(key, { at, as });
	return as;
}

/** X publishes no discovery document; its endpoints come from configuration. */
function xServer(config: XProviderConfig): oauth.AuthorizationServer {
	return {
		issuer: config.issuer.href,
		authorization_endpoint: config.authorizationUrl.href,
		token_endpoint: config.tokenUrl.href,
		code_challenge_methods_supported: ['S256'],
	};
}

async function serverOf(config: ProviderConfig, fetchImpl?: FetchLike): Promise<oauth.AuthorizationServer> {
	return config.provider === 'X' ? xServer(config) : discover(config, fetchImpl);
}

const appleKeys = new Map<string, Promise<CryptoKey>>();

/**
 * Apple's client secret: a JWT signed with the team's ES256 key, issued by the team for the
 * Services ID, for Apple's issuer. It lives five minutes (Apple allows up to six months).
 */
export async function appleClientSecret(config: OidcProviderConfig, now = Date.now()): Promise<string> {
	if (config.clientSecret.kind !== 'apple-jwt') throw new Error('Not an Apple configuration');
	const { teamId, keyId, privateKey } = config.clientSecret;
	let key = appleKeys.get(privateKey);
	if (!key) {
		key = importPKCS8(privateKey, 'ES256');
		appleKeys.set(privateKey, key);
	}
	const issuedAt = Math.floor(now / 1000);
	return new SignJWT({})
		.setProtectedHeader({ alg: 'ES256', kid: keyId })
		.setIssuer(teamId)
		.setSubject(config.clientId)
		.setAudience(config.issuer.href.replace(/\/$/, ''))
		.setIssuedAt(issuedAt)
		.setExpirationTime(issuedAt + 300)
		.sign(await key);
}

async function clientAuth(config: ProviderConfig): Promise<oauth.ClientAuth> {
	if (config.provider === 'X') return oauth.ClientSecretBasic(config.clientSecret);
	if (config.clientSecret.kind === 'static') return oauth.ClientSecretPost(config.clientSecret.secret);
	return oauth.ClientSecretPost(await appleClientSecret(config));
}

/** Builds the authorization request for `config` that returns to `redirectUri`. */
export async function beginAuthorization(config: ProviderConfig, redirectUri: string, fetchImpl?: FetchLike): Promise<AuthorizationStart> {
	const as = await serverOf(config, fetchImpl);
	if (!as.authorization_endpoint) throw new Error(`${config.provider} has no authorization endpoint`);
	const codeVerifier = oauth.generateRandomCodeVerifier();
	const state = oauth.generateRandomState();
	const nonce = config.provider === 'X' ? null : oauth.generateRandomNonce();
	const url = new URL(as.authorization_endpoint);
	url.searchParams.set('response_type', 'code');
	url.searchParams.set('client_id', config.clientId);
	url.searchParams.set('redirect_uri', redirectUri);
	if (config.scope) url.searchParams.set('scope', config.scope);
	url.searchParams.set('state', state);
	url.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(codeVerifier));
	url.searchParams.set('code_challenge_method', 'S256');
	if (nonce) url.searchParams.set('nonce', nonce);
	if (config.provider !== 'X' && config.responseMode === 'form_post') url.searchParams.set('response_mode', 'form_post');
	return { authorizationUrl: url, state, codeVerifier, nonce };
}

const XUserSchema = z.object({ data: z.object({ id: z.string().regex(/^[0-9A-Za-z_-]{1,64}$/) }) });

/**
 * Checks the provider's return against the transaction and exchanges the code. Returns the
 * provider's stable subject for the member (the ID token's `sub`, or X's user id).
 * @throws SignInRefused for anything that does not check out
 */
export async function completeAuthorization(
	config: ProviderConfig,
	redirectUri: string,
	params: URLSearchParams,
	expected: { state: string; codeVerifier: string; nonce: string | null },
	fetchImpl?: FetchLike,
): Promise<string> {
	try {
		const as = await serverOf(config, fetchImpl);
		const client: oauth.Client = { client_id: config.clientId };
		// State must match exactly; an `iss` parameter must name this provider (mix-up defence).
		const callback = oauth.validateAuthResponse(as, client, params, expected.state);
		const response = await oauth.authorizationCodeGrantRequest(
			as,
			client,
			await clientAuth(config),
			callback,
			redirectUri,
			expected.codeVerifier,
			httpOptions(config, fetchImpl),
		);
		if (config.provider === 'X') {
			const tokens = await oauth.processAuthorizationCodeResponse(as, client, response);
			return await lookUpXUser(config, tokens.access_token, fetchImpl);
		}
		if (!expected.nonce) throw new SignInRefused('An OpenID Connect transaction without a nonce');
		return await subjectFromTokenResponse(as, client, response, expected.nonce, httpOptions(config, fetchImpl));
	} catch (error) {
		if (error instanceof SignInRefused) throw error;
		throw new SignInRefused(`${config.provider} sign-in failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
	}
}

/**
 * Validates a token endpoint response of an OpenID provider: the ID token must be present, signed
 * by a key of the provider's JWKS with an asymmetric algorithm, issued by `as.issuer` for this
 * client, unexpired, and carry the transaction's nonce. Returns its `sub`.
 */
export async function subjectFromTokenResponse(
	as: oauth.AuthorizationServer,
	client: oauth.Client,
	response: Response,
	nonce: string,
	options: HttpOptions,
): Promise<string> {
	const tokens = await oauth.processAuthorizationCodeResponse(as, client, response, { expectedNonce: nonce, requireIdToken: true });
	// ASVS 6.8.2: the signature is checked even though the token came straight from the provider.
	await oauth.validateApplicationLevelSignature(as, response, options);
	const claims = oauth.getValidatedIdTokenClaims(tokens);
	if (!claims?.sub) throw new SignInRefused('The ID token has no subject');
	return claims.sub;
}

async function lookUpXUser(config: XProviderConfig, accessToken: string, fetchImpl?: FetchLike): Promise<string> {
	const response = await oauth.protectedResourceRequest(
		accessToken,
		'GET',
		config.userUrl,
		new Headers({ Accept: 'application/json' }),
		null,
		httpOptions(config, fetchImpl),
	);
	if (!response.ok) throw new SignInRefused(`X user lookup answered ${response.status}`);
	const parsed = XUserSchema.safeParse(await response.json().catch(() => null));
	if (!parsed.success) throw new SignInRefused('X user lookup returned no user id');
	return parsed.data.data.id;
}

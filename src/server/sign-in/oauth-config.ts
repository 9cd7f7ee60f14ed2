/**
 * The identity providers' configuration, from the Worker's vars and secrets (wrangler.toml and
 * `wrangler secret put`). A provider whose settings are missing is not configured: sign-in with it
 * answers ProviderUnavailable. The production endpoints are the defaults in wrangler.toml; `npm
 * start` and the browser tests point all three at the local OpenID provider instead.
 */
import { z } from 'zod';
import type { Provider } from '@/schemas/channel';
import { isSecureContext } from './cookies';

const Text = z.string().min(1);
const Url = z.url({ protocol: /^https?$/ });
const Scope = z.string().default('');

const GoogleSchema = z.object({
	OAUTH_GOOGLE_ISSUER: Url,
	OAUTH_GOOGLE_CLIENT_ID: Text,
	OAUTH_GOOGLE_CLIENT_SECRET: Text,
});
const AppleSchema = z.object({
	OAUTH_APPLE_ISSUER: Url,
	OAUTH_APPLE_CLIENT_ID: Text,
	OAUTH_APPLE_TEAM_ID: Text,
	OAUTH_APPLE_KEY_ID: Text,
	/** The PKCS#8 PEM of the Sign in with Apple key (.p8). */
	OAUTH_APPLE_PRIVATE_KEY: Text,
	OAUTH_APPLE_SCOPE: Scope,
});
const XSchema = z.object({
	OAUTH_X_ISSUER: Url,
	OAUTH_X_AUTHORIZATION_URL: Url,
	OAUTH_X_TOKEN_URL: Url,
	OAUTH_X_USER_URL: Url,
	OAUTH_X_CLIENT_ID: Text,
	OAUTH_X_CLIENT_SECRET: Text,
	OAUTH_X_SCOPE: Scope,
});

/** An OpenID Connect provider found by discovery: Google, or Apple with its JWT client secret. */
export interface OidcProviderConfig {
	provider: 'GOOGLE' | 'APPLE';
	issuer: URL;
	clientId: string;
	scope: string;
	/** Apple answers with a form POST; Google with a redirect carrying the query. */
	responseMode: 'query' | 'form_post';
	clientSecret: { kind: 'static'; secret: string } | { kind: 'apple-jwt'; teamId: string; keyId: string; privateKey: string };
	/** Plain http is allowed only for a provider on this machine (the local development one). */
	allowHttp: boolean;
}

/** X: OAuth 2.0 with PKCE and a user lookup; no ID token and no email. */
export interface XProviderConfig {
	provider: 'X';
	issuer: URL;
	authorizationUrl: URL;
	tokenUrl: URL;
	userUrl: URL;
	clientId: string;
	clientSecret: string;
	scope: string;
	allowHttp: boolean;
}

export type ProviderConfig = OidcProviderConfig | XProviderConfig;

/** A provider is reached over https, or over plain http only on this machine (the local one). */
function allowHttp(...urls: URL[]): boolean {
	return urls.every(isSecureContext);
}

/** The provider's configuration, or null when the deployment has not configured it. */
export function providerConfig(env: Record<string, unknown>, provider: Provider): ProviderConfig | null {
	if (provider === 'GOOGLE') {
		const parsed = GoogleSchema.safeParse(env);
		if (!parsed.success) return null;
		const issuer = new URL(parsed.data.OAUTH_GOOGLE_ISSUER);
		if (!allowHttp(issuer)) return null;
		return {
			provider,
			issuer,
			clientId: parsed.data.OAUTH_GOOGLE_CLIENT_ID,
			scope: 'openid',
			responseMode: 'query',
			clientSecret: { kind: 'static', secret: parsed.data.OAUTH_GOOGLE_CLIENT_SECRET },
			allowHttp: issuer.protocol === 'http:',
		};
	}
	if (provider === 'APPLE') {
		const parsed = AppleSchema.safeParse(env);
		if (!parsed.success) return null;
		const issuer = new URL(parsed.data.OAUTH_APPLE_ISSUER);
		if (!allowHttp(issuer)) return null;
		return {
			provider,
			issuer,
			clientId: parsed.data.OAUTH_APPLE_CLIENT_ID,
			scope: parsed.data.OAUTH_APPLE_SCOPE,
			responseMode: 'form_post',
			clientSecret: {
				kind: 'apple-jwt',
				teamId: parsed.data.OAUTH_APPLE_TEAM_ID,
				keyId: parsed.data.OAUTH_APPLE_KEY_ID,
				privateKey: parsed.data.OAUTH_APPLE_PRIVATE_KEY.replace(/\\n/g, '\n'),
			},
			allowHttp: issuer.protocol === 'http:',
		};
	}
	const parsed = XSchema.safeParse(env);
	if (!parsed.success) return null;
	const urls = {
		issuer: new URL(parsed.data.OAUTH_X_ISSUER),
		authorizationUrl: new URL(parsed.data.OAUTH_X_AUTHORIZATION_URL),
		tokenUrl: new URL(parsed.data.OAUTH_X_TOKEN_URL),
		userUrl: new URL(parsed.data.OAUTH_X_USER_URL),
	};
	if (!allowHttp(...Object.values(urls))) return null;
	return {
		provider,
		...urls,
		clientId: parsed.data.OAUTH_X_CLIENT_ID,
		clientSecret: parsed.data.OAUTH_X_CLIENT_SECRET,
		scope: parsed.data.OAUTH_X_SCOPE,
		allowHttp: Object.values(urls).some((url) => url.protocol === 'http:'),
	};
}

/**
 * Where the provider's authorization endpoint lives: X's configured URL, or the OpenID issuer's
 * origin (Google's and Apple's endpoints are on their issuers' hosts). The login page lets its form
 * go on to this origin and no other (its `form-action`), and a sign-in refuses an endpoint elsewhere.
 */
export function authorizationOrigin(config: ProviderConfig): string {
	return config.provider === 'X' ? config.authorizationUrl.origin : config.issuer.origin;
}

/**
 * The sign-in transaction between POST oauth/login and the provider's return to /{domain}/{slug}/oauth.
 * Its state, PKCE verifier and nonce live in D1 under the hash of a random value that only the
 * browser's transaction cookie holds, so a return is accepted only in the browser that started it,
 * once, within ten minutes.
 */
import { env } from 'cloudflare:workers';
import { AppError } from '@/server/platform/errors';
import { loadLayout } from '@/server/channels/layout';
import type { Channel } from '@/server/channels/channels';
import { beginAuthorization } from './oauth';
import { authorizationOrigin, providerConfig, type ProviderConfig } from './oauth-config';
import { OAUTH_COOKIE_SECONDS } from './cookies';
import { hashToken, randomToken } from '@/server/platform/tokens';
import type { Provider } from '@/schemas/channel';
import { pageUrls } from '@/lib/urls';

export interface Transaction {
	provider: Provider;
	state: string;
	codeVerifier: string;
	nonce: string | null;
	redirectUrl: string;
}

/** The provider's configuration from the Worker's environment. @throws AppError ProviderUnavailable */
export function configuredProvider(provider: Provider): ProviderConfig {
	const config = providerConfig(env as unknown as Record<string, unknown>, provider);
	if (!config) throw new AppError('ProviderUnavailable');
	return config;
}

/**
 * The origins the login page's form may be sent on to, for its Content-Security-Policy's
 * `form-action`: the authorization endpoints of those of `providers` the deployment configured.
 */
export function authorizationOrigins(providers: readonly Provider[]): string[] {
	const origins = new Set<string>();
	for (const provider of providers) {
		const config = providerConfig(env as unknown as Record<string, unknown>, provider);
		if (config) origins.add(authorizationOrigin(config));
	}
	return [...origins];
}

/** The return address registered with every provider for the channel (exact match). */
export function callbackUrl(origin: string, channel: Channel): string {
	return `${origin}${pageUrls(channel.basePath).oauthReturn}`;
}

/**
 * Starts a sign-in with `provider` for the channel. `redirectUrl` must already be safe.
 * @throws AppError ProviderNotOffered, ProviderUnavailable
 */
export async function startSignIn(db: Db, channel: Channel, provider: Provider, redirectUrl: string, origin: string, now = Date.now()) {
	const { providers } = await loadLayout(db, channel);
	if (!providers.includes(provider)) throw new AppError('ProviderNotOffered');
	const config = configuredProvider(provider);
	let start;
	try {
		start = await beginAuthorization(config, callbackUrl(origin, channel));
	} catch (error) {
		console.error(`${provider} discovery failed`, error);
		throw new AppError('ProviderUnavailable');
	}
	if (start.authorizationUrl.origin !== authorizationOrigin(config)) {
		// The login page's policy would stop the browser on its way there (authorizationOrigins).
		console.error(`${provider} authorizes at ${start.authorizationUrl.origin}, not at ${authorizationOrigin(config)}`);
		throw new AppError('ProviderUnavailable');
	}
	const transactionToken = randomToken();
	await db.batch([
		db.prepare('DELETE FROM oauth_transactions WHERE expires_at <= ?1').bind(now),
		db
			.prepare(
				`INSERT INTO oauth_transactions (id_hash, channel_id, provider, state, code_verifier, nonce, redirect_url, created_at, expires_at)
				 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)`,
			)
			.bind(
				await hashToken(transactionToken),
				channel.id,
				provider,
				start.state,
				start.codeVerifier,
				start.nonce,
				redirectUrl,
				now,
				now + OAUTH_COOKIE_SECONDS * 1000,
			),
	]);
	return { authorizationUrl: start.authorizationUrl.href, transactionToken };
}

/**
 * Takes the transaction named by the cookie's value out of D1, if its state is `state`: it can be
 * used only once. The state is checked in the same statement, before anything is taken, so a
 * return with another state (a stale one, or one another site sent the browser to) leaves the
 * pending sign-in to the real return.
 */
export async function consumeTransaction(
	db: Db,
	channelId: number,
	transactionToken: string,
	state: string,
	now = Date.now(),
): Promise<Transaction | null> {
	const row = await db
		.prepare(
			'DELETE FROM oauth_transactions WHERE id_hash = ?1 AND channel_id = ?2 AND state = ?3 RETURNING provider, state, code_verifier, nonce, redirect_url, expires_at',
		)
		.bind(await hashToken(transactionToken), channelId, state)
		.first<{ provider: Provider; state: string; code_verifier: string; nonce: string | null; redirect_url: string; expires_at: number }>();
	if (!row || row.expires_at <= now) return null;
	return { provider: row.provider, state: row.state, codeVerifier: row.code_verifier, nonce: row.nonce, redirectUrl: row.redirect_url };
}

/**
 * A real identity provider on this machine that stands in for Google, Apple and X, for `npm start`
 * and the browser tests. It is `oidc-provider` three times over, one issuer each
 * (http://localhost:PORT/google, /apple, /x), so the Worker runs the production code path:
 * authorization code with PKCE (S256 required), state, nonce, `iss` and signed ID tokens; Apple's
 * form_post return and its ES256 client-secret JWT (checked here before the token endpoint runs);
 * X without OpenID Connect, with an opaque access token and GET /x/2/users/me.
 * Every authorization shows the chooser (./chooser.mjs), whatever the browser signed in as before.
 */
import http from 'node:http';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import Provider from 'oidc-provider';
// oidc-provider's own in-memory store (the default), passed explicitly so it does not warn at startup.
import { createMemoryAdapter } from 'oidc-provider/lib/adapters/memory_adapter.js';
import { jwtVerify } from 'jose';
import { DEMO_CHANNELS } from '../seed/demo.mjs';
import { chooserPage, demoMembers, demoNickname, errorPage } from './chooser.mjs';

/** @typedef {'google' | 'apple' | 'x'} Name */

const APPLE_TEAM_ID = 'LOCALTEAM01';
const APPLE_KEY_ID = 'LOCALKEY01';
/** Apple refuses a client secret that lives longer than six months. */
const APPLE_SECRET_MAX_SECONDS = 15_777_000;

/** The three imitations: the client each registers and the claims of an account. */
const SETUP = {
	google: {
		title: 'Local Google (development)',
		client: { client_id: 'local-google-client', client_secret: 'local-google-secret', token_endpoint_auth_method: 'client_secret_post' },
		scopes: ['openid', 'email', 'profile'],
		scopeClaims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
		claims: (/** @type {string} */ id) => ({ email: `${id}@gmail.example`, email_verified: true, name: demoNickname(id) ?? id }),
	},
	apple: {
		title: 'Local Apple (development)',
		// The Worker sends an ES256 JWT; the token route swaps a valid one for this registered secret.
		client: {
			client_id: 'local.apple.services-id',
			client_secret: 'local-apple-registered-secret',
			token_endpoint_auth_method: 'client_secret_post',
		},
		scopes: ['openid', 'email', 'name'],
		scopeClaims: { openid: ['sub'], email: ['email', 'email_verified', 'is_private_email'] },
		claims: (/** @type {string} */ id) => ({ email: `${id}@privaterelay.appleid.example`, email_verified: 'true', is_private_email: 'true' }),
	},
	x: {
		title: 'Local X (development)',
		client: { client_id: 'local-x-client', client_secret: 'local-x-secret', token_endpoint_auth_method: 'client_secret_basic' },
		scopes: ['users.read', 'tweet.read'],
		scopeClaims: { openid: ['sub'] },
		claims: () => ({}),
	},
};

/**
 * @param {http.IncomingMessage} req
 * @returns {Promise<URLSearchParams>}
 */
async function readForm(req) {
	const chunks = [];
	let size = 0;
	for await (const chunk of req) {
		size += chunk.length;
		if (size > 64 * 1024) throw new Error('request body too large');
		chunks.push(chunk);
	}
	return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

/**
 * @param {http.ServerResponse} res
 * @param {number} status
 * @param {unknown} body
 */
function sendJson(res, status, body) {
	res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' }).end(JSON.stringify(body));
}

/**
 * @param {http.ServerResponse} res
 * @param {number} status
 * @param {string} html
 */
function sendHtml(res, status, html) {
	res.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' }).end(html);
}

/**
 * Checks Apple's client secret as Apple does: an ES256 JWT from the team's key, for this client,
 * addressed to the issuer, valid for at most six months.
 * @param {string} secret
 * @param {import('node:crypto').KeyObject} publicKey
 * @param {{ issuer: string, clientId: string }} expected
 */
async function appleClientSecretIsValid(secret, publicKey, { issuer, clientId }) {
	try {
		const { payload, protectedHeader } = await jwtVerify(secret, publicKey, {
			algorithms: ['ES256'],
			issuer: APPLE_TEAM_ID,
			subject: clientId,
			audience: issuer,
			requiredClaims: ['iat', 'exp'],
		});
		return protectedHeader.kid === APPLE_KEY_ID && Number(payload.exp) - Number(payload.iat) <= APPLE_SECRET_MAX_SECONDS;
	} catch {
		return false;
	}
}

/** A community's path segment, as src/schemas/params.ts has it (PathSegmentSchema). */
const SEGMENT = '[a-z0-9](?:[a-z0-9.-]{0,61}[a-z0-9])?';
const COMMUNITY_RETURN = new RegExp(`^/(${SEGMENT})/(${SEGMENT})/oauth$`);
/** The app's reserved top-level segments, never a community's domain (RESERVED_DOMAINS there). */
const RESERVED = new Set(['public', 'v1', 'admin', 'api', 'demo', 'assets', 'static', 'uploads']);

/**
 * Whether `value` is the sign-in return of some community on one of the app's origins:
 * `{appOrigin}/{domain}/{slug}/oauth`, exactly (no query, fragment, user or other origin). Any
 * community, not a list: one made later by `npm run channel -- apply` signs in like the demo ones.
 * @param {unknown} value
 * @param {readonly string[]} appOrigins
 */
export function isCommunityRedirectUri(value, appOrigins) {
	if (typeof value !== 'string') return false;
	let url;
	try {
		url = new URL(value);
	} catch {
		return false;
	}
	if (!appOrigins.includes(url.origin) || url.username || url.password || url.search || url.hash || value !== `${url.origin}${url.pathname}`)
		return false;
	const match = COMMUNITY_RETURN.exec(url.pathname);
	return match !== null && !RESERVED.has(match[1]);
}

/**
 * One imitated provider: an oidc-provider instance mounted at /{name}, with its chooser and extras.
 * @param {{ name: Name, origin: string, redirectUris: string[], appOrigins: string[], applePublicKey: import('node:crypto').KeyObject }} options
 */
function createInstance({ name, origin, redirectUris, appOrigins, applePublicKey }) {
	const issuer = `${origin}/${name}`;
	const setup = SETUP[name];
	const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
	const cookieNames = { session: `_${name}_session`, interaction: `_${name}_interaction`, resume: `_${name}_interaction_resume` };

	const provider = new Provider(issuer, {
		adapter: createMemoryAdapter(),
		clients: [{ ...setup.client, redirect_uris: redirectUris, response_types: ['code'], grant_types: ['authorization_code'] }],
		jwks: { keys: [{ ...privateKey.export({ format: 'jwk' }), kid: `local-${name}-1`, alg: 'RS256', use: 'sig' }] },
		// Plain http on localhost: the cookies are not `secure` (oidc-provider's default), one set per issuer.
		cookies: { keys: [randomBytes(32).toString('base64url')], names: cookieNames },
		pkce: { required: () => true },
		// oidc-provider's default lifetimes, spelled out so that it does not log a notice for each.
		ttl: { AccessToken: 3600, AuthorizationCode: 60, IdToken: 3600, Interaction: 3600, Grant: 1_209_600, Session: 1_209_600 },
		scopes: setup.scopes,
		claims: setup.scopeClaims,
		// Scope claims go into the ID token as Google and Apple do, not only to userinfo.
		conformIdTokenClaims: false,
		features: { devInteractions: { enabled: false }, rpInitiatedLogout: { enabled: false } },
		interactions: { url: (_ctx, interaction) => `/${name}/interaction/${interaction.uid}` },
		async findAccount(_ctx, id) {
			return { accountId: id, claims: async () => ({ sub: id, ...setup.claims(id) }) };
		},
		// First-party client: grant whatever it asks for, so no consent screen is ever shown.
		async loadExistingGrant(ctx) {
			const { oidc } = ctx;
			const grant = new oidc.provider.Grant({ clientId: oidc.client?.clientId, accountId: oidc.session?.accountId });
			if (oidc.params?.scope) grant.addOIDCScope(String(oidc.params.scope));
			if (oidc.requestParamClaims?.size) grant.addOIDCClaims([...oidc.requestParamClaims]);
			await grant.save();
			return grant;
		},
		async renderError(ctx, out) {
			ctx.type = 'html';
			ctx.body = errorPage(`${setup.title}: ${out.error}`, String(out.error_description ?? ''));
		},
	});
	provider.on('server_error', (_ctx, error) => console.error(`[idp ${name}]`, error));
	// The registered list is the demo communities; every other community on the app's origins is
	// accepted by its path's pattern, as a real provider's list would hold each deployed community.
	const registered = provider.Client.prototype.redirectUriAllowed;
	provider.Client.prototype.redirectUriAllowed = function redirectUriAllowed(/** @type {string} */ value) {
		return registered.call(this, value) || isCommunityRedirectUri(value, appOrigins);
	};

	if (name === 'apple') {
		// Runs before oidc-provider's routes; its body parser takes the parsed body from req.body.
		provider.use(async (ctx, next) => {
			if (ctx.method === 'POST' && ctx.path === '/token' && ctx.is('application/x-www-form-urlencoded')) {
				const form = await readForm(ctx.req);
				if (!(await appleClientSecretIsValid(form.get('client_secret') ?? '', applePublicKey, { issuer, clientId: setup.client.client_id }))) {
					ctx.status = 400;
					ctx.body = { error: 'invalid_client', error_description: 'client_secret is not a valid client secret JWT' };
					return;
				}
				form.set('client_secret', setup.client.client_secret);
				Object.assign(ctx.req, { body: Object.fromEntries(form) });
			}
			await next();
		});
	}

	/**
	 * The chooser at /{name}/interaction/:uid, its submission (/login) and Cancel (/abort).
	 * @param {http.IncomingMessage} req
	 * @param {http.ServerResponse} res
	 * @param {string} uid
	 * @param {string | undefined} action
	 */
	async function interaction(req, res, uid, action) {
		const details = await provider.interactionDetails(req, res);
		if (details.uid !== uid) throw Object.assign(new Error('interaction mismatch'), { expose: true });
		if (req.method === 'GET' && !action) {
			const channelPath = new URL(String(details.params.redirect_uri)).pathname.replace(/\/oauth$/, '');
			const members = demoMembers(channelPath, /** @type {'GOOGLE' | 'APPLE' | 'X'} */ (name.toUpperCase()));
			const base = `/${name}/interaction/${encodeURIComponent(uid)}`;
			return sendHtml(res, 200, chooserPage({ title: setup.title, channelPath, members, action: `${base}/login`, cancel: `${base}/abort` }));
		}
		if (req.method === 'POST' && action === 'login') {
			const form = await readForm(req);
			const newAccount = form.get('newAccount');
			const accountId = newAccount === null ? form.get('account') : /^[a-z0-9-]{1,40}$/.test(newAccount) ? `local-${newAccount}` : null;
			if (!accountId)
				return sendHtml(res, 400, errorPage(setup.title, 'Choose a demo member, or a new account name of lower-case letters, digits and hyphens.'));
			return provider.interactionFinished(req, res, { login: { accountId } }, { mergeWithLastSubmission: false });
		}
		if (req.method === 'POST' && action === 'abort') {
			return provider.interactionFinished(
				req,
				res,
				{ error: 'access_denied', error_description: 'The user cancelled.' },
				{ mergeWithLastSubmission: false },
			);
		}
		sendHtml(res, 405, errorPage(setup.title, 'Method not allowed.'));
	}

	/**
	 * X API v2 `GET /2/users/me` for an access token from this provider.
	 * @param {http.IncomingMessage} req
	 * @param {http.ServerResponse} res
	 */
	async function usersMe(req, res) {
		const bearer = /^Bearer ([^\s]+)$/i.exec(req.headers.authorization ?? '')?.[1];
		const token = bearer ? await provider.AccessToken.find(bearer) : undefined;
		if (!token?.accountId) return sendJson(res, 401, { title: 'Unauthorized', status: 401 });
		const id = token.accountId;
		sendJson(res, 200, { data: { id, name: demoNickname(id) ?? id, username: id.replace(/[^A-Za-z0-9_]/g, '_') } });
	}

	const callback = provider.callback();
	return {
		issuer,
		provider,
		/**
		 * @param {http.IncomingMessage} req
		 * @param {http.ServerResponse} res
		 * @param {string} rest the URL after /{name}, query included
		 */
		async handle(req, res, rest) {
			const { pathname } = new URL(rest, 'http://localhost');
			if (name === 'x' && pathname === '/2/users/me' && req.method === 'GET') return usersMe(req, res);
			const chooser = /^\/interaction\/([^/]+)(?:\/(login|abort))?$/.exec(pathname);
			if (chooser) {
				return interaction(req, res, decodeURIComponent(chooser[1]), chooser[2]).catch((error) => {
					if (!error?.expose) throw error;
					sendHtml(res, 400, errorPage(setup.title, 'This sign-in has expired or was already finished. Start again from the app.'));
				});
			}
			// Each authorization starts without a session, so the chooser shows every time and the
			// result never meets an earlier account's session (which would ask to log that one out).
			if (/^\/auth(\/|$)/.test(pathname) && req.headers.cookie) {
				req.headers.cookie = req.headers.cookie
					.split(/;\s*/)
					.filter((c) => !c.startsWith(`${cookieNames.session}=`) && !c.startsWith(`${cookieNames.session}.sig=`))
					.join('; ');
			}
			// Mounted under /{name}: oidc-provider routes on the stripped URL and builds its URLs
			// (discovery, redirects) from the prefix it finds in req.originalUrl.
			Object.assign(req, { originalUrl: req.url, url: rest });
			return callback(req, res);
		},
	};
}

/**
 * Starts the three providers on one port. Every published URL uses the host name `localhost`
 * (a different site from the app at 127.0.0.1). `appOrigins` are the origins the app is served
 * from; `${origin}/{domain}/{slug}/oauth` for every demo channel and /bench/large is a registered
 * redirect URI of each client, and any other community's on those origins is accepted by its
 * pattern (isCommunityRedirectUri).
 * @param {{ port: number, host?: string, appOrigins: string[] }} options host: the interface to
 *   listen on; the default 'localhost' listens on 127.0.0.1.
 * @returns {Promise<{ origin: string, vars: Record<string, string>, close: () => Promise<void> }>}
 */
export async function startIdentityProvider({ port, host = 'localhost', appOrigins }) {
	const origin = `http://localhost:${port}`;
	const channelPaths = [...DEMO_CHANNELS.map((c) => `/${c.domain}/${c.slug}`), '/bench/large'];
	const redirectUris = appOrigins.flatMap((appOrigin) => channelPaths.map((path) => `${appOrigin}${path}/oauth`));
	const apple = generateKeyPairSync('ec', { namedCurve: 'P-256' });
	const instances = {
		google: createInstance({ name: 'google', origin, redirectUris, appOrigins, applePublicKey: apple.publicKey }),
		apple: createInstance({ name: 'apple', origin, redirectUris, appOrigins, applePublicKey: apple.publicKey }),
		x: createInstance({ name: 'x', origin, redirectUris, appOrigins, applePublicKey: apple.publicKey }),
	};

	const server = http.createServer((req, res) => {
		const match = /^\/(google|apple|x)(?=[/?]|$)/.exec(req.url ?? '');
		if (!match) return sendJson(res, 404, { error: 'not_found' });
		const [prefix, name] = match;
		const rest = (req.url ?? '').slice(prefix.length);
		instances[/** @type {Name} */ (name)].handle(req, res, rest.startsWith('/') ? rest : `/${rest}`).catch((error) => {
			console.error(`[idp ${name}]`, error);
			if (!res.headersSent) sendHtml(res, 500, errorPage('Identity provider error', 'See the terminal for details.'));
		});
	});
	await new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, host === 'localhost' ? '127.0.0.1' : host, () => resolve(undefined));
	});

	const x = instances.x.provider;
	const vars = {
		OAUTH_GOOGLE_ISSUER: instances.google.issuer,
		OAUTH_GOOGLE_CLIENT_ID: SETUP.google.client.client_id,
		OAUTH_GOOGLE_CLIENT_SECRET: SETUP.google.client.client_secret,
		OAUTH_APPLE_ISSUER: instances.apple.issuer,
		OAUTH_APPLE_CLIENT_ID: SETUP.apple.client.client_id,
		OAUTH_APPLE_TEAM_ID: APPLE_TEAM_ID,
		OAUTH_APPLE_KEY_ID: APPLE_KEY_ID,
		OAUTH_APPLE_PRIVATE_KEY: String(apple.privateKey.export({ type: 'pkcs8', format: 'pem' })),
		OAUTH_APPLE_SCOPE: 'openid email',
		OAUTH_X_ISSUER: instances.x.issuer,
		OAUTH_X_AUTHORIZATION_URL: x.urlFor('authorization'),
		OAUTH_X_TOKEN_URL: x.urlFor('token'),
		OAUTH_X_USER_URL: `${instances.x.issuer}/2/users/me`,
		OAUTH_X_CLIENT_ID: SETUP.x.client.client_id,
		OAUTH_X_CLIENT_SECRET: SETUP.x.client.client_secret,
		OAUTH_X_SCOPE: SETUP.x.scopes.join(' '),
	};
	return {
		origin,
		vars,
		close: () =>
			new Promise((resolve) => {
				server.close(() => resolve());
				server.closeAllConnections();
			}),
	};
}

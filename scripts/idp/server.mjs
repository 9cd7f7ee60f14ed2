/**
 * A real OpenID provider on this machine that stands in for Google, Apple and X, for `npm start`
 * and the browser tests. It is `oidc-provider` three times over, one issuer each
 * (http://localhost:PORT/google, /apple, /x), so the Worker runs the same code path as in
 * production: authorization code with PKCE (S256 required), state, nonce and signed ID tokens;
 * Apple's form_post return and its ES256 client-secret JWT (checked here before the token
 * endpoint answers); X without OpenID Connect, with an opaque access token and GET /x/2/users/me.
 * Its sign-in screen lists the demo members of the community that asked, and a new member.
 */
import http from 'node:http';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import Provider from 'oidc-provider';
import { exportJWK, generateKeyPair, importSPKI, jwtVerify } from 'jose';
import { DEMO_CHANNELS } from '../seed/demo.mjs';

const APPLE_TEAM_ID = 'LOCALTEAM01';
const APPLE_KEY_ID = 'LOCALKEY01';
/** Apple accepts a client secret for at most six months. */
const APPLE_SECRET_MAX_SECONDS = 15_777_000;

/** The demo members of a channel who sign in with `provider` (the seed's rule). */
function demoMembers(domain, slug, provider) {
	const channel = DEMO_CHANNELS.find((c) => c.domain === domain && c.slug === slug);
	if (!channel) return [];
	const providers = channel.providers.length ? channel.providers : ['GOOGLE'];
	const labels = { 0: 'administrator', 37: 'temporarily banned', 38: 'permanently banned' };
	return channel.content.nicknames
		.slice(0, 39)
		.map((nickname, i) => ({ subject: `demo-${domain}-${slug}-${i + 1}`, nickname, provider: providers[i % providers.length], label: labels[i] ?? '' }))
		.filter((member) => member.provider === provider);
}

const escapeHtml = (value) => String(value).replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

function chooserPage({ title, action, cancel, members, channelPath }) {
	const buttons = members
		.map((m) => `<button type="submit" name="account" value="${escapeHtml(m.subject)}">Sign in as ${escapeHtml(m.nickname)}${m.label ? ` <small>(${escapeHtml(m.label)})</small>` : ''}</button>`)
		.join('\n');
	return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title><style>
body{margin:0;font:15px/1.5 system-ui,sans-serif;background:#eef0f4;color:#1c2030;display:grid;place-items:center;min-height:100vh}
main{background:#fff;border-radius:12px;box-shadow:0 8px 30px rgb(0 0 0/.08);padding:28px;width:min(460px,calc(100vw - 32px))}
h1{font-size:20px;margin:0 0 4px}p{margin:0 0 16px;color:#5d6478;font-size:14px}
.list{display:grid;gap:6px;max-height:50vh;overflow:auto;margin-bottom:20px}
button{font:inherit;padding:10px 14px;border-radius:8px;border:1px solid #d5d9e2;background:#fff;text-align:left;cursor:pointer}
button:hover{background:#f4f6fa}small{color:#8a90a2}
label{display:block;font-weight:600;font-size:14px;margin-bottom:6px}
input{font:inherit;width:100%;box-sizing:border-box;padding:10px 12px;border:1px solid #d5d9e2;border-radius:8px;margin-bottom:8px}
.primary{background:#1c2030;color:#fff;border-color:#1c2030;width:100%;text-align:center}
.cancel{margin-top:16px;width:100%;text-align:center;background:none;border:none;color:#5d6478;text-decoration:underline}
</style></head><body><main>
<h1>${escapeHtml(title)}</h1><p>A development stand-in for the real provider. Signing in to ${escapeHtml(channelPath)}.</p>
<form method="post" action="${escapeHtml(action)}"><div class="list">${buttons || '<p>No demo member of this community uses this provider.</p>'}</div></form>
<form method="post" action="${escapeHtml(action)}">
<label for="new-account">New account name</label>
<input id="new-account" name="newAccount" pattern="[a-z0-9-]{1,40}" required value="new-${randomBytes(3).toString('hex')}">
<button class="primary" type="submit">Continue as a new member</button></form>
<form method="post" action="${escapeHtml(cancel)}"><button class="cancel" type="submit">Cancel</button></form>
</main></body></html>`;
}

async function readForm(req) {
	const chunks = [];
	for await (const chunk of req) chunks.push(chunk);
	return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

/** One imitated provider: its issuer, clients and the extra routes around oidc-provider. */
async function createInstance({ name, title, origin, clientRedirects, applePublicKey }) {
	const issuer = `${origin}/${name}`;
	const { privateKey } = await generateKeyPair('RS256', { extractable: true });
	const signingKey = { ...(await exportJWK(privateKey)), kid: `${name}-signing`, alg: 'RS256', use: 'sig' };
	const xApi = `${origin}/x/2`;
	const clients = {
		google: { client_id: 'local-google-client', client_secret: 'local-google-secret', token_endpoint_auth_method: 'client_secret_post' },
		apple: { client_id: 'local.apple.services-id', client_secret: 'local-apple-registered-secret', token_endpoint_auth_method: 'client_secret_post' },
		x: { client_id: 'local-x-client', client_secret: 'local-x-secret', token_endpoint_auth_method: 'client_secret_basic' },
	};
	const provider = new Provider(issuer, {
		clients: [{ ...clients[name], redirect_uris: clientRedirects, response_types: ['code'], grant_types: ['authorization_code'] }],
		jwks: { keys: [signingKey] },
		cookies: { keys: [randomBytes(32).toString('hex')] },
		pkce: { required: () => true },
		ttl: { AccessToken: 3600, AuthorizationCode: 60, IdToken: 3600, Interaction: 600, Grant: 600, Session: 600 },
		scopes: name === 'x' ? ['users.read', 'tweet.read'] : ['openid', 'email'],
		claims: { openid: ['sub'], email: ['email', 'email_verified', 'is_private_email'] },
		conformIdTokenClaims: false,
		features: {
			devInteractions: { enabled: false },
			resourceIndicators: {
				enabled: name === 'x',
				defaultResource: () => xApi,
				useGrantedResource: () => true,
				getResourceServerInfo: () => ({ scope: 'users.read tweet.read', accessTokenFormat: 'opaque', audience: xApi }),
			},
		},
		interactions: { url: (_ctx, interaction) => `/${name}/interaction/${interaction.uid}` },
		async findAccount(_ctx, id) {
			return {
				accountId: id,
				async claims() {
					return name === 'apple' ? { sub: id, email: `${id}@privaterelay.appleid.example`, email_verified: 'true', is_private_email: 'true' } : { sub: id };
				},
			};
		},
		// First-party stand-in: every requested scope is granted without a consent screen.
		async loadExistingGrant(ctx) {
			const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client.clientId, accountId: ctx.oidc.session.accountId });
			const scope = ctx.oidc.params.scope ?? '';
			grant.addOIDCScope(scope);
			if (name === 'x') grant.addResourceScope(xApi, scope);
			await grant.save();
			return grant;
		},
		renderError(ctx, out) {
			ctx.type = 'html';
			ctx.body = `<!doctype html><title>Error</title><h1>${escapeHtml(out.error)}</h1><p>${escapeHtml(out.error_description ?? '')}</p>`;
		},
	});
	provider.on('server_error', (_ctx, error) => console.error(`[idp ${name}]`, error));

	provider.use(async (ctx, next) => {
		// Every sign-in shows the chooser, so one browser can sign in as different people.
		if (ctx.path === '/auth' && ctx.method === 'GET') delete ctx.req.headers.cookie;
		// Apple's client secret is an ES256 JWT made by the Worker: check it as Apple does.
		if (name === 'apple' && ctx.path === '/token' && ctx.method === 'POST') {
			const form = await readForm(ctx.req);
			try {
				const { payload } = await jwtVerify(form.get('client_secret') ?? '', applePublicKey, {
					algorithms: ['ES256'],
					issuer: APPLE_TEAM_ID,
					subject: clients.apple.client_id,
					audience: issuer,
					requiredClaims: ['exp', 'iat'],
				}).then(async (result) => {
					if (result.protectedHeader.kid !== APPLE_KEY_ID) throw new Error('unknown kid');
					return result;
				});
				if (payload.exp - payload.iat > APPLE_SECRET_MAX_SECONDS) throw new Error('lives too long');
			} catch {
				ctx.status = 400;
				ctx.body = { error: 'invalid_client', error_description: 'client_secret is not a valid client-secret JWT' };
				return;
			}
			form.set('client_secret', clients.apple.client_secret);
			ctx.req.body = Object.fromEntries(form);
		}
		await next();
	});

	async function interaction(req, res, path) {
		const [, uid, action] = /^\/interaction\/([^/]+)(?:\/(login|abort))?$/.exec(path) ?? [];
		if (!uid) return false;
		if (req.method === 'GET' && !action) {
			const details = await provider.interactionDetails(req, res);
			const [, domain = '', slug = ''] = /^\/([^/]+)\/([^/]+)\/oauth$/.exec(new URL(details.params.redirect_uri).pathname) ?? [];
			const html = chooserPage({
				title,
				action: `/${name}/interaction/${uid}/login`,
				cancel: `/${name}/interaction/${uid}/abort`,
				members: demoMembers(domain, slug, name.toUpperCase()),
				channelPath: `/${domain}/${slug}`,
			});
			res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' }).end(html);
			return true;
		}
		if (req.method === 'POST' && action === 'login') {
			const form = await readForm(req);
			const newAccount = form.get('newAccount');
			const accountId = newAccount ? (/^[a-z0-9-]{1,40}$/.test(newAccount) ? `local-${newAccount}` : null) : form.get('account');
			if (!accountId) {
				res.writeHead(400, { 'Content-Type': 'text/plain' }).end('Choose an account.');
				return true;
			}
			await provider.interactionFinished(req, res, { login: { accountId } }, { mergeWithLastSubmission: false });
			return true;
		}
		if (req.method === 'POST' && action === 'abort') {
			await provider.interactionFinished(req, res, { error: 'access_denied', error_description: 'The user cancelled.' }, { mergeWithLastSubmission: false });
			return true;
		}
		return false;
	}

	async function usersMe(req, res) {
		const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
		const found = token ? await provider.AccessToken.find(token) : undefined;
		if (!found || found.isExpired) {
			res.writeHead(401, { 'Content-Type': 'application/json' }).end(JSON.stringify({ title: 'Unauthorized', status: 401 }));
			return;
		}
		const id = found.accountId;
		res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ data: { id, name: id, username: id } }));
	}

	const callback = provider.callback();
	return {
		issuer,
		provider,
		async handle(req, res, path) {
			if (name === 'x' && path === '/2/users/me' && req.method === 'GET') return usersMe(req, res);
			if (await interaction(req, res, path)) return;
			req.originalUrl = req.url;
			req.url = req.url.slice(name.length + 1) || '/';
			return callback(req, res);
		},
	};
}

/**
 * Starts the three providers on one port. `appOrigins` are the origins the app is served from;
 * every demo channel's /{domain}/{slug}/oauth under them is a registered redirect URI.
 * @param {{ port: number, host?: string, appOrigins: string[] }} options
 * @returns {Promise<{ origin: string, vars: Record<string, string>, close: () => Promise<void> }>}
 */
export async function startIdentityProvider({ port, host = 'localhost', appOrigins }) {
	const origin = `http://${host}:${port}`;
	const channelPaths = [...DEMO_CHANNELS.map((c) => `/${c.domain}/${c.slug}`), '/bench/large'];
	const clientRedirects = appOrigins.flatMap((appOrigin) => channelPaths.map((path) => `${appOrigin}${path}/oauth`));
	const apple = generateKeyPairSync('ec', { namedCurve: 'P-256' });
	const applePublicKey = await importSPKI(apple.publicKey.export({ type: 'spki', format: 'pem' }).toString(), 'ES256');
	const titles = { google: 'Local Google (development)', apple: 'Local Apple (development)', x: 'Local X (development)' };
	const instances = {};
	for (const name of ['google', 'apple', 'x']) {
		instances[name] = await createInstance({ name, title: titles[name], origin, clientRedirects, applePublicKey });
	}
	const server = http.createServer((req, res) => {
		const [, name, rest = '/'] = /^\/(google|apple|x)(\/[^?]*)?/.exec(req.url ?? '') ?? [];
		const instance = name ? instances[name] : undefined;
		if (!instance) {
			res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found');
			return;
		}
		Promise.resolve(instance.handle(req, res, rest)).catch((error) => {
			console.error('[idp]', error);
			if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain' }).end('Identity provider error');
		});
	});
	await new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, '127.0.0.1', resolve);
	});
	const x = instances.x.provider;
	const vars = {
		OAUTH_GOOGLE_ISSUER: instances.google.issuer,
		OAUTH_GOOGLE_CLIENT_ID: 'local-google-client',
		OAUTH_GOOGLE_CLIENT_SECRET: 'local-google-secret',
		OAUTH_APPLE_ISSUER: instances.apple.issuer,
		OAUTH_APPLE_CLIENT_ID: 'local.apple.services-id',
		OAUTH_APPLE_TEAM_ID: APPLE_TEAM_ID,
		OAUTH_APPLE_KEY_ID: APPLE_KEY_ID,
		OAUTH_APPLE_PRIVATE_KEY: apple.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
		OAUTH_APPLE_SCOPE: 'openid email',
		OAUTH_X_ISSUER: instances.x.issuer,
		OAUTH_X_AUTHORIZATION_URL: `${instances.x.issuer}${x.pathFor('authorization', { mountPath: '' })}`,
		OAUTH_X_TOKEN_URL: `${instances.x.issuer}${x.pathFor('token', { mountPath: '' })}`,
		OAUTH_X_USER_URL: `${instances.x.issuer}/2/users/me`,
		OAUTH_X_CLIENT_ID: 'local-x-client',
		OAUTH_X_CLIENT_SECRET: 'local-x-secret',
		OAUTH_X_SCOPE: 'users.read tweet.read',
	};
	return { origin, vars, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** Starts the built Worker under `wrangler dev` on loopback, and waits until it answers. */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT, WRANGLER_ENV } from './wrangler.mjs';
import { generateVapidKeys } from '../push/server.mjs';

const WRANGLER = path.join(ROOT, 'node_modules', 'wrangler', 'bin', 'wrangler.js');

/**
 * The environment that starts each workerd of `wrangler dev` in a process group of its own
 * (scripts/lib/workerd-own-group.sh): miniflare runs the binary MINIFLARE_WORKERD_PATH names, and the
 * wrapper execs the one wrangler's miniflare would have run.
 */
function workerdOwnGroupEnv() {
	const miniflare = createRequire(createRequire(WRANGLER).resolve('miniflare'));
	return {
		MINIFLARE_WORKERD_PATH: path.join(ROOT, 'scripts', 'lib', 'workerd-own-group.sh'),
		WORKERD_BINARY: miniflare('workerd').default,
	};
}

/**
 * The SESSION_SECRET of a local state folder: made once and kept beside its database, so that
 * sessions outlive a restart of `npm start`. A deployment sets its own with `wrangler secret put`.
 */
export function localSessionSecret(persistTo) {
	const file = path.join(persistTo, 'session-secret');
	if (!existsSync(file)) {
		mkdirSync(persistTo, { recursive: true });
		writeFileSync(file, randomBytes(32).toString('base64url'), { mode: 0o600 });
	}
	return readFileSync(file, 'utf8').trim();
}

/**
 * The VAPID keys of a local state folder (Web Push, docs/reference/notifications.md#web-push): made once and
 * kept beside the database, so that browsers subscribed on an earlier run stay subscribed.
 */
function localVapidKeys(persistTo) {
	const file = path.join(persistTo, 'vapid.json');
	if (!existsSync(file)) {
		mkdirSync(persistTo, { recursive: true });
		writeFileSync(file, JSON.stringify(generateVapidKeys()), { mode: 0o600 });
	}
	const { publicKey, privateKey } = JSON.parse(readFileSync(file, 'utf8'));
	return { VAPID_PUBLIC_KEY: publicKey, VAPID_PRIVATE_KEY: privateKey, VAPID_SUBJECT: 'mailto:operators@localhost.example' };
}

/**
 * The local setting that lets Web Push go to a push service on this machine (the stand-in
 * scripts/push/server.mjs): `npm start` and the browser tests' server set it; a deployment never
 * does, so its Worker sends only to the browser vendors' push services (src/server/notifications/push-services.ts).
 */
const LOCAL_PUSH = { PUSH_ALLOW_LOOPBACK: '1' };

/**
 * The Worker's variables of a local run, the same for `npm start` and the browser tests' server
 * (scripts/serve-test.mjs), so that what the tests prove is what `npm start` does: the stand-ins'
 * (the identity provider, Turnstile, the mail capture), local Web Push, and SITE_ORIGIN, the origin
 * the site is opened at. Emails' links are built on it, and no email is sent without it
 * (docs/reference/notifications.md#email): without it, Settings would offer no email under `npm start`.
 *
 * @param {{ idp: { vars: Record<string, string> }; turnstile: { vars: Record<string, string> }; mail: { vars: Record<string, string> }; origin: string }} stand-ins
 */
export function localVars({ idp, turnstile, mail, origin }) {
	return { ...idp.vars, ...turnstile.vars, ...mail.vars, ...LOCAL_PUSH, SITE_ORIGIN: origin };
}

/**
 * Serves dist/ (built by `astro build`) with the local D1 in `persistTo` and its session secret,
 * and the Worker's V8 inspector on `inspectorPort` when given; `root` is the checkout whose dist/
 * it serves (this one by default); `config`, the wrangler.json of a build made elsewhere (such as
 * dist-bench/server/wrangler.json, scripts/lib/build.mjs) instead of dist/'s; `auxiliary`, the
 * configurations of Workers run beside it in the same runtime (the browser tests' SQL Worker,
 * scripts/lib/sql-endpoint.mjs). With `pagesDir`,
 * serves that Pages project (npm run build:pages) with `wrangler pages dev` instead. Returns the
 * child process; it stops when the parent stops. With `ownGroup` it leads a process group of its
 * own (wrangler and workerd), so a CPU measurement of that group counts the server alone. With
 * `workerdOwnGroup` each workerd process (the dev proxy's and the Worker's runtime) leads a group of its
 * own instead, so that the runtime's group counts the runtime alone (scripts/peer-bench.mjs); wrangler
 * still stops them when it stops.
 *
 * @param {{ port: number; persistTo: string; vars?: Record<string, string>; stdio?: 'inherit' | 'ignore' | 'pipe'; inspectorPort?: number; root?: string; pagesDir?: string; config?: string; auxiliary?: string[]; ownGroup?: boolean; workerdOwnGroup?: boolean }} options
 */
export function serveBuild({
	port,
	persistTo,
	vars = {},
	stdio = 'inherit',
	inspectorPort = undefined,
	root = ROOT,
	pagesDir = undefined,
	config = undefined,
	auxiliary = [],
	ownGroup = false,
	workerdOwnGroup = false,
}) {
	const others = auxiliary.flatMap((file) => ['-c', file]);
	// The Pages project runs beside its companion Worker (its rate limiters and cron, scripts/lib/pages.mjs).
	const command = pagesDir
		? [
				'pages',
				'dev',
				'--cwd',
				pagesDir,
				'-c',
				path.join(pagesDir, 'wrangler.toml'),
				'-c',
				path.join(pagesDir, 'companion', 'wrangler.toml'),
				...others,
			]
		: // With Workers beside it, the site's configuration is named first (alone, wrangler finds the build's own).
			['dev', ...(config || others.length > 0 ? ['-c', config ?? path.join(root, 'dist', 'server', 'wrangler.json')] : []), ...others];
	const args = [
		WRANGLER,
		...command,
		'--port',
		String(port),
		'--ip',
		'127.0.0.1',
		'--persist-to',
		persistTo,
		'--log-level',
		'warn',
		'--show-interactive-dev-session=false',
	];
	if (inspectorPort) args.push('--inspector-port', String(inspectorPort));
	for (const [key, value] of Object.entries({ SESSION_SECRET: localSessionSecret(persistTo), ...localVapidKeys(persistTo), ...vars }))
		args.push(...(pagesDir ? ['--binding', `${key}=${value}`] : ['--var', `${key}:${value}`]));
	const child = spawn(process.execPath, args, {
		cwd: root,
		stdio: ['ignore', stdio, stdio],
		env: { ...process.env, ...WRANGLER_ENV, ...(workerdOwnGroup ? workerdOwnGroupEnv() : {}) },
		detached: ownGroup,
	});
	const stop = () => (ownGroup && child.exitCode === null ? process.kill(-child.pid, 'SIGTERM') : child.kill('SIGTERM'));
	process.on('exit', stop);
	for (const signal of ['SIGINT', 'SIGTERM']) {
		process.on(signal, () => {
			stop();
			process.exit(130);
		});
	}
	return child;
}

/** Resolves once `url` answers, or rejects after `timeoutMs`. */
export async function waitFor(url, timeoutMs = 60_000) {
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		try {
			const response = await fetch(url, { redirect: 'manual' });
			if (response.status > 0) return;
		} catch {
			// Not listening yet.
		}
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
	throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

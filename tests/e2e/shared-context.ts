/**
 * One browser context per Playwright worker and set of context options, reset between the tests
 * that use it, instead of a new context for every test (tests/e2e/test.ts's `context`). A new
 * context and its first page load cost about 0.75 CPU-seconds more than a page load in a context
 * that has loaded the site before (docs/guides/testing.md, "Where the time goes"): the context, its
 * renderer, its cold HTTP cache and V8's code cache.
 *
 * Each test still gets new pages (Playwright's `page` fixture opens one, and sessionStorage and
 * everything a page holds goes with it). What the context itself holds is reset after each test:
 * its pages are closed, its cookies and permissions cleared, its routes removed, the storage of the
 * test server's origins (localStorage, IndexedDB, service workers, Cache Storage) cleared, its extra
 * headers set again by the next test. What cannot be undone makes the context the test's own, closed
 * after it: a clock (`page.clock` is the context's), an init script, a binding or a function exposed
 * to its pages, a WebSocket route, a listener the test left on it, a timeout, geolocation or offline
 * mode the test changed, or a test that failed. The HTTP cache is kept: what a cache of the site's
 * assets changes is what a returning reader sees, and the tests about the first load ask for a new
 * context (`test.use({ freshContext: true })`). tests/e2e/shared-context.spec.ts proves the reset.
 */
import type { Browser, BrowserContext, BrowserContextOptions } from '@playwright/test';

/** A worker's shared contexts, one per set of options (their JSON, extra headers aside). */
export type SharedContexts = Map<string, BrowserContext>;

/** Methods whose effect outlives the test that called them: calling one makes the context the test's own. */
const LASTING = [
	'addInitScript',
	'exposeBinding',
	'exposeFunction',
	'routeWebSocket',
	'setDefaultTimeout',
	'setDefaultNavigationTimeout',
	'setGeolocation',
	'setOffline',
] as const;

interface Lease {
	/** Set when the test did something a reset cannot undo, or closed the context. */
	spoiled: boolean;
	/** Listeners on the context before the test, by event: one more after it is the test's. */
	listeners: Map<string | symbol, number>;
}

const leases = new WeakMap<BrowserContext, Lease>();

/** The key of a set of options, or undefined when a context with them cannot be shared. */
export function sharedKey(options: BrowserContextOptions): string | undefined {
	if (options.storageState !== undefined || options.recordVideo !== undefined || options.recordHar !== undefined) return undefined;
	const { extraHTTPHeaders: _headers, ...rest } = options;
	return JSON.stringify(Object.entries(rest).sort(([a], [b]) => a.localeCompare(b)));
}

/** Marks the context spoiled when the test calls a method whose effect a reset cannot undo. */
function watchLastingCalls(context: BrowserContext, lease: Lease): void {
	const patch = (target: object, name: string) => {
		const method = (target as Record<string, unknown>)[name];
		if (typeof method !== 'function') return;
		Object.defineProperty(target, name, {
			configurable: true,
			value: function (this: unknown, ...args: unknown[]) {
				lease.spoiled = true;
				return (method as (...args: unknown[]) => unknown).apply(this, args);
			},
		});
	};
	for (const name of LASTING) patch(context, name);
	// Every method of the clock (install, setFixedTime, runFor, …) changes the context's time for good.
	let proto: object | null = Object.getPrototypeOf(context.clock) as object | null;
	while (proto && proto !== Object.prototype) {
		for (const name of Object.getOwnPropertyNames(proto)) if (name !== 'constructor') patch(context.clock, name);
		proto = Object.getPrototypeOf(proto) as object | null;
	}
	context.on('close', () => {
		lease.spoiled = true;
	});
}

/** The context as the event emitter it is (Playwright's types leave these two out). */
type Emitter = Pick<NodeJS.EventEmitter, 'eventNames' | 'listenerCount'>;

function listenerCounts(context: BrowserContext): Map<string | symbol, number> {
	const emitter = context as unknown as Emitter;
	return new Map(emitter.eventNames().map((name) => [name, emitter.listenerCount(name)]));
}

/**
 * The worker's context for `options`, new or reset, leased to one test. `prepare` runs once on a
 * new context before the test's lease starts (the policy watch of test.ts), so its listeners and
 * scripts are not counted as the test's.
 */
export async function leaseContext(
	browser: Browser,
	shared: SharedContexts,
	options: BrowserContextOptions,
	fresh: boolean,
	prepare: (context: BrowserContext) => Promise<void>,
): Promise<BrowserContext> {
	const key = fresh ? undefined : sharedKey(options);
	let context = key === undefined ? undefined : shared.get(key);
	if (!context) {
		context = await browser.newContext(options);
		await prepare(context);
		const lease: Lease = { spoiled: key === undefined, listeners: new Map() };
		watchLastingCalls(context, lease);
		leases.set(context, lease);
		if (key !== undefined) shared.set(key, context);
	} else {
		await prepare(context);
	}
	const lease = leases.get(context)!;
	lease.listeners = listenerCounts(context);
	if (options.extraHTTPHeaders) await context.setExtraHTTPHeaders(options.extraHTTPHeaders);
	return context;
}

/** The origins whose storage a test may have used: the site's and its stand-ins' (the identity provider, Turnstile). */
function originsOf(baseURL: string | undefined): string[] {
	if (!baseURL) return [];
	const url = new URL(baseURL);
	return [0, 1, 2].map((offset) => `${url.protocol}//${url.hostname}:${Number(url.port) + offset}`);
}

const STORAGE_TYPES = 'local_storage,indexeddb,websql,file_systems,service_workers,cache_storage,shared_storage,storage_buckets';

/**
 * Ends the test's lease: a context the test spoiled, or that `close` says to close (a test that
 * failed, a test's own context), is closed and forgotten; any other is reset for the next test.
 */
export async function returnContext(shared: SharedContexts, context: BrowserContext, options: BrowserContextOptions, close: boolean): Promise<void> {
	const lease = leases.get(context)!;
	const before = lease.listeners;
	const added = [...listenerCounts(context)].some(([name, count]) => count > (before.get(name) ?? 0));
	const key = sharedKey(options);
	if (lease.spoiled || close || added || key === undefined) {
		if (key !== undefined && shared.get(key) === context) shared.delete(key);
		await context.close().catch(() => undefined);
		return;
	}
	try {
		const page = context.pages()[0] ?? (await context.newPage());
		const cdp = await context.newCDPSession(page);
		for (const origin of originsOf(options.baseURL)) await cdp.send('Storage.clearDataForOrigin', { origin, storageTypes: STORAGE_TYPES });
		await cdp.detach();
		await Promise.all(context.pages().map((open) => open.close()));
		await context.unrouteAll({ behavior: 'wait' });
		await context.clearCookies();
		await context.clearPermissions();
		if (options.permissions?.length) await context.grantPermissions(options.permissions);
	} catch {
		shared.delete(key);
		await context.close().catch(() => undefined);
	}
}

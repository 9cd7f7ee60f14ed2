/**
 * The browser tests' `test` and `expect`. Every page runs under the site's real policies (Playwright
 * leaves CSP on), and a test fails when the browser reports a Content-Security-Policy violation
 * (the `securitypolicyviolation` event, or Chromium's console error for it) or a Permissions-Policy
 * header it cannot read, in any page of the test: its own context's, and those of any other
 * context it opens. Each test is also its own client address (CF-Connecting-IP, which the local
 * runtime keeps as sent), so that the rate limits count per test as they count per reader.
 *
 * With E2E_LOAD_COUNTS=FILE, each test appends a line of JSON to FILE: its file, its title, and the
 * browser contexts it opened and the page loads (top-level documents, a redirect counted once) it
 * made in them, what a browser test costs (docs/guides/testing.md, "Where the time goes").
 */
import { appendFileSync } from 'node:fs';
import path from 'node:path';
import { test as base, expect, type BrowserContext, type BrowserContextOptions } from '@playwright/test';
import { leaseContext, returnContext, type SharedContexts } from './shared-context';

const LOAD_COUNTS = process.env['E2E_LOAD_COUNTS'];

/** The binding through which pages report violations; pages see it as a function on `window`. */
const REPORT = '__reportPolicyViolation';

/** What a violation says: `event:` from the page's event, `console:` from Chromium's log. */
export type PolicyViolations = string[];

async function watch(context: BrowserContext, sink: { current: Watcher | undefined }): Promise<void> {
	context.on('console', (message) => {
		if (message.type() === 'error' && /Content Security Policy|Permissions-Policy/i.test(message.text())) {
			sink.current?.found.push(`console: ${message.text()} (${message.location().url})`);
		}
	});
	await context.exposeBinding(REPORT, ({ frame }, text: string) => {
		sink.current?.found.push(`event: ${text} (${frame.url()})`);
	});
	await context.addInitScript((report) => {
		document.addEventListener('securitypolicyviolation', (event) => {
			const send = (window as unknown as Record<string, unknown>)[report];
			const where = event.sourceFile ? ` at ${event.sourceFile}:${event.lineNumber}` : '';
			if (typeof send === 'function') send(`${event.effectiveDirective} refused ${event.blockedURI || 'inline'}${where} ${event.sample}`.trim());
		});
	}, REPORT);
	if (LOAD_COUNTS) {
		context.on('request', (request) => {
			if (request.isNavigationRequest() && !request.redirectedFrom() && request.frame().parentFrame() === null && sink.current)
				sink.current.opened.loads += 1;
		});
	}
}

/** A client address of its own for the test: 10.x.y.z from the test's id and its repetition. */
function clientAddress(id: string, repetition: number): string {
	let hash = repetition;
	for (const char of id) hash = (Math.imul(hash, 31) + char.charCodeAt(0)) >>> 0;
	return `10.${(hash >>> 16) & 255}.${(hash >>> 8) & 255}.${hash & 255}`;
}

/** What the fixtures below share: the test's violations and what the test opened. */
interface Watcher {
	found: PolicyViolations;
	opened: { contexts: number; loads: number };
	/** Watches the context for the test: set up once per context, reporting to this test from now on. */
	watch(context: BrowserContext): Promise<void>;
}

/** Each context's watch, set up once, and the test it reports to now. */
const watches = new WeakMap<BrowserContext, { sink: { current: Watcher | undefined }; ready: Promise<void> }>();

interface Options {
	/** A context of the test's own instead of the worker's shared one (shared-context.ts): for tests about a first visit. */
	freshContext: boolean;
	/** Playwright's own fixture: the context options of the test (the config's and test.use()'s). */
	_combinedContextOptions: BrowserContextOptions;
}

export const test = base.extend<{ policyViolations: PolicyViolations; watcher: Watcher } & Options, { sharedContexts: SharedContexts }>({
	freshContext: [false, { option: true }],
	extraHTTPHeaders: async ({ extraHTTPHeaders }, use, testInfo) => {
		await use({ ...extraHTTPHeaders, 'CF-Connecting-IP': clientAddress(testInfo.testId, testInfo.repeatEachIndex * 10 + testInfo.retry) });
	},
	// The watch asks for no context of its own: a test that only uses `request` opens none (a new
	// context costs about 250 ms of CPU). The test's context is watched when the test asks for it.
	watcher: [
		async ({ browser }, use, testInfo) => {
			const watcher: Watcher = {
				found: [],
				opened: { contexts: 0, loads: 0 },
				watch(context) {
					let entry = watches.get(context);
					if (entry) {
						entry.sink.current = this;
					} else {
						const sink = { current: this as Watcher | undefined };
						entry = { sink, ready: watch(context, sink) };
						watches.set(context, entry);
						this.opened.contexts += 1;
					}
					return entry.ready;
				},
			};
			// A context the test opens itself (browser.newContext()) is watched too.
			const watchOther = (other: BrowserContext) => void watcher.watch(other).catch(() => undefined);
			browser.on('context', watchOther);
			await use(watcher);
			browser.off('context', watchOther);
			if (LOAD_COUNTS)
				appendFileSync(LOAD_COUNTS, `${JSON.stringify({ file: path.basename(testInfo.file), title: testInfo.title, ...watcher.opened })}\n`);
		},
		{ auto: true },
	],
	policyViolations: [
		async ({ watcher }, use) => {
			await use(watcher.found);
			expect(watcher.found, 'policy violations reported by the browser').toEqual([]);
		},
		{ auto: true },
	],
	sharedContexts: [
		async ({ browser: _browser }, use) => {
			const shared: SharedContexts = new Map();
			await use(shared);
			await Promise.all([...shared.values()].map((context) => context.close().catch(() => undefined)));
		},
		{ scope: 'worker' },
	],
	// The worker's context for the test's options, reset after each test (shared-context.ts).
	context: async ({ browser, sharedContexts, _combinedContextOptions, freshContext, watcher }, use, testInfo) => {
		const options = _combinedContextOptions;
		const context = await leaseContext(browser, sharedContexts, options, freshContext, (leased) => watcher.watch(leased));
		await use(context);
		await returnContext(sharedContexts, context, options, freshContext || testInfo.status !== testInfo.expectedStatus);
	},
});

export { expect };

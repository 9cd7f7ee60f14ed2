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
import { test as base, expect, type BrowserContext } from '@playwright/test';

const LOAD_COUNTS = process.env['E2E_LOAD_COUNTS'];

/** The binding through which pages report violations; pages see it as a function on `window`. */
const REPORT = '__reportPolicyViolation';

/** What a violation says: `event:` from the page's event, `console:` from Chromium's log. */
export type PolicyViolations = string[];

async function watch(context: BrowserContext, found: PolicyViolations): Promise<void> {
	context.on('console', (message) => {
		if (message.type() === 'error' && /Content Security Policy|Permissions-Policy/i.test(message.text())) {
			found.push(`console: ${message.text()} (${message.location().url})`);
		}
	});
	await context.exposeBinding(REPORT, ({ frame }, text: string) => {
		found.push(`event: ${text} (${frame.url()})`);
	});
	await context.addInitScript((report) => {
		document.addEventListener('securitypolicyviolation', (event) => {
			const send = (window as unknown as Record<string, unknown>)[report];
			const where = event.sourceFile ? ` at ${event.sourceFile}:${event.lineNumber}` : '';
			if (typeof send === 'function') send(`${event.effectiveDirective} refused ${event.blockedURI || 'inline'}${where} ${event.sample}`.trim());
		});
	}, REPORT);
}

/** Counts the context, and each top-level document it loads (a redirect's hops once). */
function countLoads(context: BrowserContext, opened: Watcher['opened']): void {
	opened.contexts += 1;
	context.on('request', (request) => {
		if (request.isNavigationRequest() && !request.redirectedFrom() && request.frame().parentFrame() === null) opened.loads += 1;
	});
}

/** A client address of its own for the test: 10.x.y.z from the test's id and its repetition. */
function clientAddress(id: string, repetition: number): string {
	let hash = repetition;
	for (const char of id) hash = (Math.imul(hash, 31) + char.charCodeAt(0)) >>> 0;
	return `10.${(hash >>> 16) & 255}.${(hash >>> 8) & 255}.${hash & 255}`;
}

/** What the fixtures below share: the test's violations, each context's watch, set up once, and what the test opened. */
interface Watcher {
	found: PolicyViolations;
	opened: { contexts: number; loads: number };
	watched: WeakMap<BrowserContext, Promise<void>>;
	watch(context: BrowserContext): Promise<void>;
}

export const test = base.extend<{ policyViolations: PolicyViolations; watcher: Watcher }>({
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
				watched: new WeakMap(),
				watch(context) {
					let done = this.watched.get(context);
					if (!done) {
						if (LOAD_COUNTS) countLoads(context, this.opened);
						done = watch(context, this.found);
						this.watched.set(context, done);
					}
					return done;
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
	context: async ({ context, watcher }, use) => {
		await watcher.watch(context);
		await use(context);
	},
});

export { expect };

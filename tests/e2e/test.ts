/**
 * The browser tests' `test` and `expect`. Every page runs under the site's real policies (Playwright
 * leaves CSP on), and a test fails when the browser reports a Content-Security-Policy violation
 * (the `securitypolicyviolation` event, or Chromium's console error for it) or a Permissions-Policy
 * header it cannot read, in any page of the test: its own context's, and those of any other
 * context it opens. Each test is also its own client address (CF-Connecting-IP, which the local
 * runtime keeps as sent), so that the rate limits count per test as they count per reader.
 */
import { test as base, expect, type BrowserContext } from '@playwright/test';

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

/** A client address of its own for the test: 10.x.y.z from the test's id and its repetition. */
function clientAddress(id: string, repetition: number): string {
	let hash = repetition;
	for (const char of id) hash = (Math.imul(hash, 31) + char.charCodeAt(0)) >>> 0;
	return `10.${(hash >>> 16) & 255}.${(hash >>> 8) & 255}.${hash & 255}`;
}

/** What the fixtures below share: the test's violations, and each context's watch, set up once. */
interface Watcher {
	found: PolicyViolations;
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
		async ({ browser }, use) => {
			const watcher: Watcher = {
				found: [],
				watched: new WeakMap(),
				watch(context) {
					let done = this.watched.get(context);
					if (!done) {
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

/**
 * axe-core in the browser tests. Every check runs axe inside the page itself (the builder's legacy
 * mode) instead of axe's default for Playwright, which runs each frame's part and then opens a new
 * blank page to put the results together: the same rules and results on these pages, which embed no
 * frame until a video is played, at half the CPU (a target-size check on a post page took 660 ms of
 * CPU the default way and 340 ms this way; docs/guides/testing.md).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/**
 * axe-core's own script, guarded: put into a document once, not on every check. The builder evaluates the
 * script it is given twice per check (once to look, once per frame); its default, the unminified axe.js (1.5 MB),
 * was sent, parsed and run both times on every check. Here the minified build of the same axe-core the builder
 * depends on (resolved from it), which a document that already holds axe skips: a target-size check took about
 * 10% less CPU on a phone page (docs/guides/testing.md).
 */
const requireFromBuilder = createRequire(createRequire(import.meta.url).resolve('@axe-core/playwright'));
const AXE_SOURCE = `typeof window.axe?.run === 'function' || ${readFileSync(requireFromBuilder.resolve('axe-core/axe.min.js'), 'utf8')}`;

/** The WCAG 2.2 AA rules, as axe tags them. */
const WCAG_22_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/** An axe run on the page, to narrow with include(), withRules() or withTags() and then analyze(). */
export function axe(page: Page): AxeBuilder {
	return new AxeBuilder({ page, axeSource: AXE_SOURCE }).setLegacyMode(true);
}

/** The WCAG 2.2 AA violations on the page as it is now (or in `include`), one line each with the offending elements. */
export async function wcagViolations(page: Page, include?: string, exclude?: string): Promise<string[]> {
	const run = axe(page).withTags(WCAG_22_AA);
	const scoped = include ? run.include(include) : run;
	const results = await (exclude ? scoped.exclude(exclude) : scoped).analyze();
	return results.violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

/**
 * A photograph for people to look at (test-results/), not a check: taken only when REVIEW_SHOTS is
 * set (`REVIEW_SHOTS=1 playwright test FILE`). Under `npm test` nobody looks at them, and each costs
 * Chromium a full paint and a PNG (docs/guides/testing.md, "Keeping it fast"). The journeys people
 * review belong in `npm run screenshots`.
 */
import type { Locator, Page } from '@playwright/test';

export async function reviewShot(target: Page | Locator, path: string, options: { fullPage?: boolean } = {}): Promise<void> {
	if (!process.env['REVIEW_SHOTS']) return;
	await target.screenshot({ path, ...options });
}

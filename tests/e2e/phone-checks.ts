/**
 * What a person sees on a phone, as checks the phone specs share (phone-layout, phone-navigation,
 * phone-journeys): the two screen sizes, boxes inside the screen, no sideways scroll, popups inside
 * the viewport, and tap targets of at least 24 px (axe's `target-size`, WCAG 2.2's 2.5.8).
 */
import { axe } from './axe';
import type { Locator, Page } from '@playwright/test';

export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1440, height: 900 };

export type Box = { x: number; y: number; width: number; height: number };

export async function boxOf(locator: Locator): Promise<Box> {
	const box = await locator.boundingBox();
	if (!box) throw new Error('not rendered');
	return box;
}

/** Whether `inner` lies within `outer` (to a rounding pixel). */
export function within(inner: Box, outer: Box): boolean {
	return (
		inner.x >= outer.x - 0.5 &&
		inner.y >= outer.y - 0.5 &&
		inner.x + inner.width <= outer.x + outer.width + 0.5 &&
		inner.y + inner.height <= outer.y + outer.height + 0.5
	);
}

export function viewportOf(page: Page): Box {
	const size = page.viewportSize();
	if (!size) throw new Error('no viewport');
	return { x: 0, y: 0, ...size };
}

/** Whether the page scrolls sideways. */
export function scrollsSideways(page: Page): Promise<boolean> {
	return page.evaluate(() => {
		const root = document.scrollingElement ?? document.documentElement;
		return root.scrollWidth > root.clientWidth;
	});
}

/**
 * Interactive elements smaller than 24×24 px, outside the exceptions of WCAG 2.5.8 (a link inside
 * running text; a check box whose label is the target, measured as the label).
 */
export function smallTargets(page: Page): Promise<string[]> {
	return page.evaluate(() => {
		const found: string[] = [];
		for (const element of document.querySelectorAll<HTMLElement>('a[href], button, select, input, textarea, summary, [role="button"]')) {
			if (element.closest('.visually-hidden, [hidden], [inert]') || !element.checkVisibility({ visibilityProperty: true })) continue;
			const label = element instanceof HTMLInputElement ? element.closest('label') : null;
			const box = (label ?? element).getBoundingClientRect();
			if (box.width === 0 && box.height === 0) continue;
			// Inline links in running text (a post's body, a comment, a paragraph of prose) are exempt.
			if (
				element.tagName === 'A' &&
				getComputedStyle(element).display === 'inline' &&
				element.closest('.post-body, .comment-text, p:not(.post-crumbs)')
			)
				continue;
			if (box.width < 24 || box.height < 24) {
				const name = `${element.tagName.toLowerCase()}${element.className ? `.${[...element.classList].join('.')}` : ''}`;
				found.push(`${name} "${(element.textContent ?? '').trim().slice(0, 24)}" ${Math.round(box.width)}×${Math.round(box.height)}`);
			}
		}
		return [...new Set(found)];
	});
}

/** What opens over the page: dialogs, menus, list boxes, popovers, the toast, a disclosure's list. */
const POPUPS =
	'dialog[open], [role="dialog"], [role="alertdialog"], [role="menu"], [role="listbox"], :popover-open, [data-toast], details[open] > :not(summary)';

/**
 * The nodes axe's `target-size` rule finds too small (and without the spacing that excuses them).
 * A target that is small only because an open popup covers part of it (the footer's switcher over
 * the tree's last link) is not counted: the popup is on top, and its own targets are checked.
 */
export async function targetSizeViolations(page: Page): Promise<string[]> {
	const results = await axe(page).withRules(['target-size']).analyze();
	const found: string[] = [];
	for (const node of results.violations.flatMap((violation) => violation.nodes)) {
		// The size check says what covers the target; the offset check then fails for the same cover.
		const obscured = [...node.any, ...node.all].find((check) => (check.data as { messageKey?: string } | null)?.messageKey === 'partiallyObscured');
		const covering = (obscured?.relatedNodes ?? []).map((related) => String(related.target[0]));
		const underPopup =
			covering.length > 0 &&
			(await page.evaluate(([selectors, popups]) => selectors.every((selector) => document.querySelector(selector)?.closest(popups)), [
				covering,
				POPUPS,
			] as const));
		if (!underPopup) found.push(node.target.join(' '));
	}
	return found;
}

/**
 * The open popups (dialogs, menus, list boxes, popovers, the toast, a disclosure's floating list)
 * that reach outside the viewport, each with its box. A popup in the top layer or fixed must fit
 * the screen as it is; one that scrolls with the page is scrolled to first, as a person would.
 */
export function popupsOutsideViewport(page: Page): Promise<string[]> {
	return page.evaluate((selector) => {
		const outside: string[] = [];
		for (const element of document.querySelectorAll<HTMLElement>(selector)) {
			if (!element.checkVisibility({ visibilityProperty: true, opacityProperty: true })) continue;
			const style = getComputedStyle(element);
			const floating =
				element instanceof HTMLDialogElement || element.matches(':popover-open') || style.position === 'fixed' || style.position === 'absolute';
			// A disclosure that opens in the flow (the board tree's categories) is no popup.
			if (!floating) continue;
			if (style.position === 'absolute') element.scrollIntoView({ block: 'nearest', inline: 'nearest' });
			const box = element.getBoundingClientRect();
			const width = document.documentElement.clientWidth;
			if (box.left < -0.5 || box.top < -0.5 || box.right > width + 0.5 || box.bottom > innerHeight + 0.5) {
				const name = `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''}${element.className ? `.${[...element.classList].join('.')}` : ''}`;
				outside.push(
					`${name} at ${Math.round(box.left)},${Math.round(box.top)} ${Math.round(box.width)}×${Math.round(box.height)} in ${width}×${innerHeight}`,
				);
			}
		}
		return outside;
	}, POPUPS);
}

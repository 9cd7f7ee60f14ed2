/**
 * The dialog of route-level result codes (src/components/layout/RouteErrorDialog.astro, docs/reference/product-rules.md#errors-and-texts),
 * opened by the page's session check and by islands whose request met the same codes: the
 * forced-login alert, whose confirm clears the stored user id and cached data and replaces history
 * with the login route, and the ban dialog, whose confirm reloads the page (a banned member reads on).
 */
import { formatFullDate } from '@/lib/format-date';
import { userIdStorageKey } from '@/lib/names';
import type { Language } from '@/schemas/channel';

function routeErrorDialog(): HTMLDialogElement | null {
	return document.querySelector<HTMLDialogElement>('[data-route-error-dialog]');
}

/** Opens the dialog with its texts; its one button says what it does (Log in, or OK). */
function open(box: HTMLDialogElement, title: string, message: string, button: string, onConfirm: () => void): void {
	const titleEl = box.querySelector('[data-title]');
	const messageEl = box.querySelector('[data-message]');
	const buttonEl = box.querySelector('button');
	if (titleEl) titleEl.textContent = title;
	if (messageEl) messageEl.textContent = message;
	if (buttonEl) buttonEl.textContent = button;
	box.addEventListener('close', onConfirm, { once: true });
	if (!box.open) box.showModal();
}

function clearClientData(key: string): void {
	try {
		localStorage.removeItem(key);
		sessionStorage.clear();
	} catch {
		// Storage blocked: nothing was stored either.
	}
}

/** The forced-login alert; its confirm goes to `loginUrl`. False when the page has no dialog. */
export function openForcedLogin(loginUrl: string): boolean {
	const box = routeErrorDialog();
	if (!box) return false;
	const { domain = '', slug = '', textLoginTitle = '', textLoginDesc = '', textLoginButton = '' } = box.dataset;
	open(box, textLoginTitle, textLoginDesc, textLoginButton, () => {
		clearClientData(userIdStorageKey(domain, slug));
		location.replace(loginUrl);
	});
	return true;
}

/**
 * The ban dialog, for a ban met by an action: a temporary ban shows its end (`endsAt`), null a
 * permanent one, then that the member can still read and whom to ask. Its confirm reloads the page at
 * its top, which then opens with the ban's notice (its reason). False when the page has no dialog.
 */
export function openBanDialog(endsAt: number | null): boolean {
	const box = routeErrorDialog();
	if (!box) return false;
	const { language = 'en', textBanTitle = '', textBanTemporary = '', textBanPermanent = '', textOk = '' } = box.dataset;
	const message = endsAt === null ? textBanPermanent : textBanTemporary.replace('{{date}}', formatFullDate(endsAt, language as Language));
	box.querySelector('[data-ban-details]')?.removeAttribute('hidden');
	open(box, textBanTitle, message, textOk, () => {
		// At the top, where the reloaded page says the ban.
		scrollTo(0, 0);
		location.reload();
	});
	return true;
}

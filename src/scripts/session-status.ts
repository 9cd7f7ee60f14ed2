/**
 * The root step's auth-status check (SPEC §7) without a framework: it runs only in a browser that
 * has signed in to this channel before (a stored user id), so a guest's page makes no request.
 * A forced-login code shows the login alert, whose confirm clears the stored user id and cached
 * data and replaces history with the login route; a ban shows the ban dialog, whose confirm goes
 * to the channel home.
 */
import { createApiClient } from '../lib/api-client';
import { routeErrorAction } from '../lib/route-errors';
import { formatFullDate } from '../lib/format-date';
import type { Language } from '../schemas/channel';

const dialog = document.querySelector<HTMLDialogElement>('[data-route-error-dialog]');

function storedUserKey(domain: string, slug: string): string {
	return `app:${domain}-${slug}-userId`;
}

function readStored(key: string): string | null {
	try {
		return localStorage.getItem(key);
	} catch {
		return null;
	}
}

function clearClientData(key: string): void {
	try {
		localStorage.removeItem(key);
		sessionStorage.clear();
	} catch {
		// Storage blocked: nothing was stored either.
	}
}

function open(box: HTMLDialogElement, title: string, message: string, onConfirm: () => void): void {
	const titleEl = box.querySelector('[data-title]');
	const messageEl = box.querySelector('[data-message]');
	if (titleEl) titleEl.textContent = title;
	if (messageEl) messageEl.textContent = message;
	box.addEventListener('close', onConfirm, { once: true });
	box.showModal();
}

interface BanInfo {
	kind: 'TEMPORARY' | 'PERMANENT';
	endsAt: number | null;
}

async function check(box: HTMLDialogElement): Promise<void> {
	const { channelBase = '', domain = '', slug = '', language = 'en' } = box.dataset;
	const key = storedUserKey(domain, slug);
	const userId = readStored(key);
	if (!userId) return;
	const api = createApiClient({ getUserId: () => userId });
	try {
		await api.get(`/public/v1/${domain}/${slug}/auth/status`);
	} catch (error) {
		const body = (error as { body?: { ban?: BanInfo } }).body;
		const action = routeErrorAction(error, { channelBase, currentPath: location.pathname + location.search, banEndsAt: body?.ban?.endsAt ?? null });
		const texts = box.dataset;
		if (action.kind === 'forced-login') {
			open(box, texts['textLoginTitle'] ?? '', texts['textLoginDesc'] ?? '', () => {
				clearClientData(key);
				location.replace(action.loginUrl);
			});
		} else if (action.kind === 'ban') {
			const message = action.endsAt === null ? (texts['textBanPermanent'] ?? '') : (texts['textBanTemporary'] ?? '').replace('{{date}}', formatFullDate(action.endsAt, language as Language));
			open(box, texts['textBanTitle'] ?? '', message, () => location.assign(channelBase));
		}
		// Any other failure leaves the page as it is: it was rendered for guests and stays readable.
	}
}

if (dialog) void check(dialog);

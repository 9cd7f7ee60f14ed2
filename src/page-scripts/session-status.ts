/**
 * The root step's auth-status check (docs/reference/product-rules.md#api-calls) without a framework. The server renders what it knows
 * of the session into the dialog: a member's user id (a banned member's too) is stored; a session
 * cookie that has ended opens the dialog at once. A page without a session (possibly from the edge
 * cache) asks auth/status only in a browser that has signed in before (a stored user id), so a
 * guest's page makes no request. The check itself, with its API client and the dialog's texts,
 * loads only when there is something to check (src/page-scripts/session-check.ts): a guest who has
 * never signed in loads none of it (docs/decisions/performance.md).
 */
import { userIdStorageKey } from '@/lib/names';

const dialog = document.querySelector<HTMLDialogElement>('[data-route-error-dialog]');

if (dialog) {
	const { session, userId, domain = '', slug = '' } = dialog.dataset;
	const key = userIdStorageKey(domain, slug);
	let stored: string | null = null;
	try {
		if (session === 'member' || session === 'banned') {
			if (userId) localStorage.setItem(key, userId);
		} else {
			stored = localStorage.getItem(key);
		}
	} catch {
		// Storage blocked: the page still knows the member from the server, and a guest has nothing stored.
	}
	// A banned member's page says so itself (BanNotice.astro) and stays readable: no dialog over it.
	const ended = session === 'expired' || session === 'revoked';
	if (ended || (session !== 'member' && stored)) void import('./session-check').then(({ checkSession }) => checkSession(dialog, stored));
}

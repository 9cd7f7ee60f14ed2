/**
 * The root step's auth-status check (docs/product-rules.md#api-calls) without a framework. The server renders what it knows
 * of the session into the dialog: a member's user id is stored; a banned member, or a session
 * cookie that has ended, opens the dialog at once. A page without a session (possibly from the edge
 * cache) asks auth/status only in a browser that has signed in before (a stored user id), so a
 * guest's page makes no request. A forced-login code shows the login alert, whose confirm clears
 * the stored user id and cached data and replaces history with the login route; a ban shows the ban
 * dialog, whose confirm goes to the channel home.
 */
import { createApiClient, ResponseError } from '@/lib/api-client';
import { routeErrorAction } from '@/lib/route-errors';
import { Banned, SessionExpired, SessionRevoked } from '@/lib/result-codes';
import { openBanDialog, openForcedLogin } from './route-error-dialog';
import { userIdStorageKey } from '@/lib/names';
import { apiUrls } from '@/lib/urls';

const dialog = document.querySelector<HTMLDialogElement>('[data-route-error-dialog]');

function readStored(key: string): string | null {
	try {
		return localStorage.getItem(key);
	} catch {
		return null;
	}
}

function store(key: string, userId: string): void {
	try {
		localStorage.setItem(key, userId);
	} catch {
		// Storage blocked: the page still knows the member from the server.
	}
}

interface BanInfo {
	kind: 'TEMPORARY' | 'PERMANENT';
	endsAt: number | null;
}

/** A failure as the API would have answered it, for a state the server already rendered. */
function failureOf(resultCode: number): ResponseError {
	return new ResponseError({ isSuccessful: false, resultCode, resultMessage: '' }, null);
}

/** The failure to act on, or null when the session is fine (or there is none to check). */
async function sessionFailure(box: HTMLDialogElement, key: string): Promise<{ error: unknown; banEndsAt: number | null } | null> {
	const { session, userId: renderedId, banEndsAt, domain = '', slug = '' } = box.dataset;
	if (session === 'member' || session === 'banned') {
		if (renderedId) store(key, renderedId);
		return session === 'banned' ? { error: failureOf(Banned.code), banEndsAt: banEndsAt ? Number(banEndsAt) : null } : null;
	}
	if (session === 'expired') return { error: failureOf(SessionExpired.code), banEndsAt: null };
	if (session === 'revoked') return { error: failureOf(SessionRevoked.code), banEndsAt: null };
	const userId = readStored(key);
	if (!userId) return null;
	const api = createApiClient({ getUserId: () => userId });
	try {
		await api.get(`${apiUrls({ domain, slug }).public}/auth/status`);
		return null;
	} catch (error) {
		const body = (error as { body?: { ban?: BanInfo } }).body;
		return { error, banEndsAt: body?.ban?.endsAt ?? null };
	}
}

async function check(box: HTMLDialogElement): Promise<void> {
	const { channelBase = '', domain = '', slug = '' } = box.dataset;
	const key = userIdStorageKey(domain, slug);
	const failure = await sessionFailure(box, key);
	if (!failure) return;
	const action = routeErrorAction(failure.error, { channelBase, currentPath: location.pathname + location.search, banEndsAt: failure.banEndsAt });
	if (action.kind === 'forced-login') openForcedLogin(action.loginUrl);
	else if (action.kind === 'ban') openBanDialog(action.endsAt);
	// Any other failure leaves the page as it is: it was rendered for guests and stays readable.
}

if (dialog) void check(dialog);

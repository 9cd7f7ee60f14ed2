/**
 * The session check's work once there is something to check (src/page-scripts/session-status.ts
 * loads it): an ended session the server rendered opens the dialog at once; a
 * page without a session (possibly from the edge cache) in a browser that has signed in before asks
 * auth/status. A forced-login code shows the login alert, whose confirm clears the stored user id
 * and cached data and replaces history with the login route; a ban met by auth/status (a guest's
 * page, the member banned since) shows the ban dialog, whose confirm reloads the page.
 */
import { createApiClient, ResponseError } from '@/lib/api-client';
import { routeErrorAction } from '@/lib/route-errors';
import { SessionExpired, SessionRevoked } from '@/lib/result-codes';
import { openBanDialog, openForcedLogin } from '@/islands/common/route-error-dialog';

interface BanInfo {
	kind: 'TEMPORARY' | 'PERMANENT';
	endsAt: number | null;
}

/** A failure as the API would have answered it, for a state the server already rendered. */
function failureOf(resultCode: number): ResponseError {
	return new ResponseError({ isSuccessful: false, resultCode, resultMessage: '' }, null);
}

/** The failure to act on, or null when the session is fine. `storedUserId`: a guest page's browser's stored user id. */
async function sessionFailure(box: HTMLDialogElement, storedUserId: string | null): Promise<{ error: unknown; banEndsAt: number | null } | null> {
	const { session, domain = '', slug = '' } = box.dataset;
	if (session === 'expired') return { error: failureOf(SessionExpired.code), banEndsAt: null };
	if (session === 'revoked') return { error: failureOf(SessionRevoked.code), banEndsAt: null };
	if (!storedUserId) return null;
	const api = createApiClient({ channel: { domain, slug }, getUserId: () => storedUserId });
	try {
		await api.public.get('/auth/status');
		return null;
	} catch (error) {
		const body = (error as { body?: { ban?: BanInfo } }).body;
		return { error, banEndsAt: body?.ban?.endsAt ?? null };
	}
}

export async function checkSession(box: HTMLDialogElement, storedUserId: string | null): Promise<void> {
	const failure = await sessionFailure(box, storedUserId);
	if (!failure) return;
	const action = routeErrorAction(failure.error, {
		channelBase: box.dataset['channelBase'] ?? '',
		currentPath: location.pathname + location.search,
		banEndsAt: failure.banEndsAt,
	});
	if (action.kind === 'forced-login') openForcedLogin(action.loginUrl);
	else if (action.kind === 'ban') openBanDialog(action.endsAt);
	// Any other failure leaves the page as it is: it was rendered for guests and stays readable.
}

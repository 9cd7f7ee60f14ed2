/**
 * What the post page's plain-TypeScript member actions (like, report) share: what a failed request means (docs/reference/product-rules.md#errors-and-texts): an ended session opens
 * the forced-login alert and a ban the ban dialog, here; too many requests and everything else are
 * for the caller to tell in its own words.
 */
import { resultCodeOf } from '@/lib/api-client';
import { routeErrorAction } from '@/lib/route-errors';
import { TooManyRequests } from '@/lib/result-codes';
import { openBanDialog, openForcedLogin } from './route-error-dialog';

/** What is left for the caller after a failure: nothing (a route dialog opened), too many requests, or its own failure text. */
export type FailureOutcome = { kind: 'handled' } | { kind: 'too-many' } | { kind: 'other'; code: number | undefined };

/** Opens the forced-login alert or the ban dialog when the failure calls for one; login comes back to this page. */
export function handleActionFailure(error: unknown, channelBase: string): FailureOutcome {
	const action = routeErrorAction(error, { channelBase, currentPath: `${location.pathname}${location.search}`, banEndsAt: banEndOf(error) });
	if (action.kind === 'forced-login' && openForcedLogin(action.loginUrl)) return { kind: 'handled' };
	if (action.kind === 'ban' && openBanDialog(action.endsAt)) return { kind: 'handled' };
	const code = resultCodeOf(error);
	return code === TooManyRequests.code ? { kind: 'too-many' } : { kind: 'other', code };
}

/** The end of the ban an API failure carries (`{ ban: { endsAt } }`), null for a permanent one. */
function banEndOf(error: unknown): number | null {
	const endsAt = (error as { body?: { ban?: { endsAt?: unknown } } } | null)?.body?.ban?.endsAt;
	return typeof endsAt === 'number' ? endsAt : null;
}

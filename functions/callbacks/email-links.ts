/**
 * The POSTs of the links in our emails (docs/reference/notifications.md#email), before Astro's pages:
 *
 * - POST /{domain}/{slug}/email/confirm?token=…: the confirmation page's button. Confirms the
 *   pending address the token names, then 303 to the page with the outcome signed, which the page
 *   says only when the signature holds (a `?result=done` anyone wrote shows a neutral page).
 * - POST /{domain}/{slug}/email/unsubscribe?token=…: the unsubscribe page's button (303 to the page,
 *   as above), and a mail client's RFC 8058 one-click unsubscribe: a POST with the body
 *   `List-Unsubscribe=One-Click` (form-encoded or multipart), without cookies and usually without an
 *   Origin, answered 200 (400 for a token we did not sign).
 *
 * They run here, not in the pages, because Astro's origin check refuses a form POST without this
 * site's Origin, which a mail provider's one-click request does not carry. The token is the only
 * authority (signed under SESSION_SECRET for one member and one address: src/server/notifications/email.ts),
 * so the Origin would add nothing; a token we did not sign is refused without asking D1. Page GETs
 * never change anything: mail scanners open links.
 */
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { findCommunity, MOVING_RETRY_SECONDS } from '@/server/channels/community';
import { communityWrites, MOVING, unlessMoving } from '@/server/databases/write-guard';
import { RESULT_MESSAGES } from '@/lib/result-codes';
import { channelPathOf } from '@/schemas/params';
import { confirmNotificationEmail, unsubscribeByToken } from '@/server/notifications/email';
import { emailLinkPaths, signedOutcome, type LinkOutcome, type LinkPage } from '@/server/notifications/email-links';

/** A one-click body is 26 bytes; a page's form is hardly more. */
const MAX_FORM_BYTES = 4 * 1024;

const limitForm = bodyLimit({ maxSize: MAX_FORM_BYTES, onError: (c) => c.text('The request is too large.', 413) });

const NO_STORE = { 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' };

/**
 * Back to the link's page, which shows `outcome` (a GET of it changes nothing): the outcome goes
 * signed (signedOutcome), so that only this answer, not a link anyone can write, makes the page say
 * it. Without SESSION_SECRET no token verified either: the page then shows its neutral text.
 */
async function backToPage(channelId: number, path: string, page: LinkPage, outcome: LinkOutcome): Promise<Response> {
	const result = await signedOutcome(page, channelId, outcome, Date.now());
	const location = result === null ? path : `${path}?result=${encodeURIComponent(result)}`;
	return new Response(null, { status: 303, headers: { ...NO_STORE, Location: location } });
}

/** While the community moves between databases (docs/reference/databases.md): try again in a moment. */
function moving(): Response {
	return new Response(RESULT_MESSAGES.CommunityMoving, {
		status: 503,
		headers: { ...NO_STORE, 'Retry-After': String(MOVING_RETRY_SECONDS), 'Content-Type': 'text/plain; charset=utf-8' },
	});
}

/** The form fields of the body, or an empty set when it is not a form. */
async function formOf(c: Context): Promise<Record<string, unknown>> {
	try {
		return await c.req.parseBody();
	} catch {
		return {};
	}
}

export const emailLinks = new Hono()
	.post('/:domain/:slug/email/confirm', limitForm, async (c, next) => {
		const path = channelPathOf(c.req.param());
		if (!path) return next();
		const community = await findCommunity(path.domain, path.slug);
		if (!community) return next();
		const { channel } = community;
		if (channel.movingTo !== null) return moving();
		const outcome = await unlessMoving(() =>
			confirmNotificationEmail(communityWrites(community.db, channel), channel.id, c.req.query('token') ?? '', Date.now()),
		);
		if (outcome === MOVING) return moving();
		return backToPage(channel.id, emailLinkPaths(channel.basePath).confirm, 'confirm', outcome);
	})
	.post('/:domain/:slug/email/unsubscribe', limitForm, async (c, next) => {
		const path = channelPathOf(c.req.param());
		if (!path) return next();
		const community = await findCommunity(path.domain, path.slug);
		if (!community) return next();
		const { channel } = community;
		if (channel.movingTo !== null) return moving();
		const form = await formOf(c);
		const outcome = await unlessMoving(() => unsubscribeByToken(communityWrites(community.db, channel), channel.id, c.req.query('token') ?? ''));
		if (outcome === MOVING) return moving();
		if (form['List-Unsubscribe'] === 'One-Click') {
			return new Response(outcome === 'done' ? 'Unsubscribed.' : 'This unsubscribe link is not valid.', {
				status: outcome === 'done' ? 200 : 400,
				headers: { ...NO_STORE, 'Content-Type': 'text/plain; charset=utf-8' },
			});
		}
		return backToPage(channel.id, emailLinkPaths(channel.basePath).unsubscribe, 'unsubscribe', outcome);
	});

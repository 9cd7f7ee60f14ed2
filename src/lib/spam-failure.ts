/**
 * What a refusal of the spam defence (docs/spam-defence.md) says to a person: the new-member
 * limits with their number (the API sends it as `limit`), and the failed Turnstile check. The
 * write screen loads this module only when a request failed; the widget's token is read from the
 * field the widget keeps (`cf-turnstile-response`), so no island bundles the widget.
 */
import { resultCodeOf } from './api-client';
import { ChallengeFailed, NewMemberCommentLimit, NewMemberPostLimit, NewMemberTooManyImages, NewMemberTooManyLinks, NewMemberTooManyMentions } from './result-codes';

export const SPAM_TEXT_KEYS = ['spam.links', 'spam.images', 'spam.mentions', 'spam.posts', 'spam.comments', 'spam.challenge'] as const;
export type SpamTexts = Record<(typeof SPAM_TEXT_KEYS)[number], string>;

const KEYS = new Map<number, (typeof SPAM_TEXT_KEYS)[number]>([
	[NewMemberTooManyLinks.code, 'spam.links'],
	[NewMemberTooManyImages.code, 'spam.images'],
	[NewMemberTooManyMentions.code, 'spam.mentions'],
	[NewMemberPostLimit.code, 'spam.posts'],
	[NewMemberCommentLimit.code, 'spam.comments'],
	[ChallengeFailed.code, 'spam.challenge'],
]);

/** The sentence for a spam-defence refusal, or null for any other failure. A failed request also resets the widget: its token is spent. */
export function spamFailureText(error: unknown, texts: SpamTexts): string | null {
	const key = KEYS.get(resultCodeOf(error) ?? 0);
	if (!key) return null;
	(window as { turnstile?: { reset: () => void } }).turnstile?.reset();
	const limit = (error as { body?: { limit?: unknown } } | null)?.body?.limit;
	return texts[key].replace('{{count}}', typeof limit === 'number' ? String(limit) : '');
}

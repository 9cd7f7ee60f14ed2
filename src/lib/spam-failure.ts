/**
 * What a refusal of the spam defence (docs/spam-defence.md) says to a person: the new-member
 * limits with their number (the API sends it as `limit`), and the failed Turnstile check; and the
 * widget's token, read from the field the widget keeps (`cf-turnstile-response`), so that no
 * island bundles the widget (src/components/common/ChallengeWidget.astro shows it).
 *
 * No runtime imports: the write screen loads this module on submit only (its page has no room in
 * its JavaScript budget), and a module without dependencies needs no preload helper. The codes are
 * the catalogue's own, checked by the type checker.
 */
import type * as Codes from './result-codes';

export const SPAM_TEXT_KEYS = ['spam.links', 'spam.images', 'spam.mentions', 'spam.posts', 'spam.comments', 'spam.challenge'] as const;
export type SpamTexts = Record<(typeof SPAM_TEXT_KEYS)[number], string>;

type Code<Name extends keyof typeof Codes> = (typeof Codes)[Name] extends { code: infer C } ? C : never;

const KEYS = new Map<number, (typeof SPAM_TEXT_KEYS)[number]>([
	[-4031462 satisfies Code<'NewMemberTooManyLinks'>, 'spam.links'],
	[-4031463 satisfies Code<'NewMemberTooManyImages'>, 'spam.images'],
	[-4031464 satisfies Code<'NewMemberTooManyMentions'>, 'spam.mentions'],
	[-4291461 satisfies Code<'NewMemberPostLimit'>, 'spam.posts'],
	[-4291462 satisfies Code<'NewMemberCommentLimit'>, 'spam.comments'],
	[-4031461 satisfies Code<'ChallengeFailed'>, 'spam.challenge'],
]);

/** The place under the page's Turnstile widget where a refused check is said (ChallengeWidget.astro). */
const checkError = () => document.querySelector<HTMLElement>('[data-challenge-error]');

/**
 * The sentence for a spam-defence refusal, or null for any other failure. A failed request also
 * resets the widget: its token is spent. A refused check is said at the check itself, under the
 * widget, which comes into view: then the answer is '' (nothing more for the form to say).
 */
export function spamFailureText(error: unknown, texts: SpamTexts): string | null {
	const failure = error as { resultCode?: number; body?: { limit?: unknown } } | null;
	const key = KEYS.get(failure?.resultCode ?? 0);
	if (!key) return null;
	(window as { turnstile?: { reset: () => void } }).turnstile?.reset();
	const limit = failure?.body?.limit;
	const text = texts[key].replace('{{count}}', typeof limit === 'number' ? String(limit) : '');
	const atCheck = key === 'spam.challenge' ? checkError() : null;
	if (!atCheck) return text;
	atCheck.textContent = text;
	atCheck.hidden = false;
	atCheck.parentElement?.scrollIntoView({ block: 'center' });
	return '';
}

/**
 * The token of the page's Turnstile widget, when the page shows one. Undefined without a widget or
 * before the person passed the check (the server then answers ChallengeFailed when it asks for one).
 */
export function challengeToken(): string | undefined {
	// A new try: the check's earlier refusal is no longer the news.
	const error = checkError();
	if (error) error.hidden = true;
	return document.querySelector<HTMLInputElement>('[name="cf-turnstile-response"]')?.value || undefined;
}

/**
 * What a refusal of the spam defence (docs/reference/spam-defence.md) says to a person: the new-member
 * limits with their number (the API sends it as `limit`), and the failed Turnstile check; and the
 * widget's token, read from the field the widget keeps (`cf-turnstile-response`), so that no
 * island bundles the widget (src/components/common/ChallengeWidget.astro shows it).
 *
 * The limits' texts have a singular and a plural form (`.one`, `.other`), chosen for the limit by
 * the language's plural rules ("up to 1 image or video", "up to 2 images or videos").
 *
 * Nothing but ./plural.ts at run time: the write screen loads this module once the writer changes
 * something (its page has no room in its JavaScript budget). The codes are the catalogue's own,
 * checked by the type checker.
 */
import type * as Codes from './result-codes';
import type { Language } from '@/schemas/channel';
import { pluralForm } from './plural';

const COUNTED = ['spam.links', 'spam.images', 'spam.mentions', 'spam.posts', 'spam.comments'] as const;

export const SPAM_TEXT_KEYS = [...COUNTED.flatMap((key) => [`${key}.one`, `${key}.other`] as const), 'spam.challenge'] as const;
export type SpamTexts = Record<(typeof SPAM_TEXT_KEYS)[number], string>;

type Code<Name extends keyof typeof Codes> = (typeof Codes)[Name] extends { code: infer C } ? C : never;

const CHALLENGE_FAILED = -4031461 satisfies Code<'ChallengeFailed'>;

const KEYS = new Map<number, (typeof COUNTED)[number] | 'spam.challenge'>([
	[-4031462 satisfies Code<'NewMemberTooManyLinks'>, 'spam.links'],
	[-4031463 satisfies Code<'NewMemberTooManyImages'>, 'spam.images'],
	[-4031464 satisfies Code<'NewMemberTooManyMentions'>, 'spam.mentions'],
	[-4291461 satisfies Code<'NewMemberPostLimit'>, 'spam.posts'],
	[-4291462 satisfies Code<'NewMemberCommentLimit'>, 'spam.comments'],
	[CHALLENGE_FAILED, 'spam.challenge'],
]);

/** The place under the page's Turnstile widget where a refused check is said (ChallengeWidget.astro). */
const checkError = () => document.querySelector<HTMLElement>('[data-challenge-error]');

/** The global function the widget calls with its token (`data-callback` of ChallengeWidget.astro). */
export const CHALLENGE_PASSED = 'onChallengePassed';

/** Says `text` at the check, under the widget, and brings the check into view. */
function sayAtCheck(atCheck: HTMLElement, text: string): void {
	atCheck.textContent = text;
	atCheck.hidden = false;
	atCheck.parentElement?.scrollIntoView({ block: 'center' });
}

/**
 * The sentence for a spam-defence refusal, or null for any other failure. A failed request also
 * resets the widget: its token is spent. A refused check is said at the check itself, under the
 * widget, which comes into view: then the answer is '' (nothing more for the form to say).
 */
export function spamFailureText(error: unknown, texts: SpamTexts, language: Language): string | null {
	const failure = error as { resultCode?: number; body?: { limit?: unknown } } | null;
	const key = KEYS.get(failure?.resultCode ?? 0);
	if (!key) return null;
	(window as { turnstile?: { reset: () => void } }).turnstile?.reset();
	if (key === 'spam.challenge') {
		const atCheck = checkError();
		if (!atCheck) return texts[key];
		sayAtCheck(atCheck, texts[key]);
		return '';
	}
	const limit = failure?.body?.limit;
	const count = typeof limit === 'number' ? limit : 0;
	return texts[`${key}.${pluralForm(language, count)}`].replace('{{count}}', String(count));
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

/** Whether `error` is the server's refusal of the human check (a missing, expired or spent token). */
export function isChallengeFailure(error: unknown): boolean {
	return (error as { resultCode?: number } | null)?.resultCode === CHALLENGE_FAILED;
}

/**
 * A sign-up or a new member's post sent before the human check gave its token (the person had not passed it yet, or its
 * token was still on its way from the widget) is refused with nothing spent. Instead of "complete
 * the check and try again" and a reset widget (which would throw away the token on its way), the
 * check says `text` and `form` is submitted again the moment the widget hands over its token (at
 * once when it has it already). So a person who presses early is never asked to do the check again
 * (NicknameForm, WriteForm).
 * False when the page shows no widget.
 */
export function submitOnChallenge(form: HTMLFormElement, text: string): boolean {
	const atCheck = checkError();
	if (!atCheck) return false;
	if (challengeToken()) {
		form.requestSubmit();
		return true;
	}
	sayAtCheck(atCheck, text);
	const global = window as unknown as Record<string, unknown>;
	global[CHALLENGE_PASSED] = () => {
		delete global[CHALLENGE_PASSED];
		form.requestSubmit();
	};
	return true;
}

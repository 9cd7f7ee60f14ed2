/**
 * The account islands' calls to the member API and what their failures mean to a person: each
 * nickname rule has its own text, an ended sign-up goes back to login, anything else is the
 * generic service error (SPEC §8).
 */
import { createApiClient, resultCodeOf } from '../../lib/api-client';
import { NICKNAME_MESSAGE_KEYS } from '../../schemas/nickname';
import type { AccountTexts } from './texts';

export const accountApi = createApiClient();

const NICKNAME_CODES: Record<number, keyof typeof NICKNAME_MESSAGE_KEYS> = {
	[-4001421]: 'required',
	[-4001422]: 'length',
	[-4001423]: 'characters',
	[-4001424]: 'unusable',
	[-4001425]: 'unchanged',
	[-4091421]: 'taken',
};
const SIGNUP_EXPIRED = -4011417;

/** A sign-up that ran out starts again at login; true when that is what `error` meant. */
export function restartWhenSignupExpired(error: unknown, loginUrl: string): boolean {
	if (resultCodeOf(error) !== SIGNUP_EXPIRED) return false;
	location.replace(loginUrl);
	return true;
}

/** The text under the nickname field for an API failure, or null when it is not about the nickname. */
export function nicknameErrorText(error: unknown, texts: AccountTexts): string | null {
	const code = resultCodeOf(error);
	const problem = code === undefined ? undefined : NICKNAME_CODES[code];
	return problem ? texts[NICKNAME_MESSAGE_KEYS[problem]] : null;
}

/** Leaves a message for the toast of the next page (src/components/layout/Toast.astro). */
export function showToastOnNextPage(message: string): void {
	try {
		sessionStorage.setItem('app:toast', message);
	} catch {
		// No storage: the page still changes, only without the toast.
	}
}

/**
 * The account islands' calls to the member API and what their failures mean to a person: each
 * nickname rule has its own text, an ended sign-up goes back to login, anything else is the
 * generic service error (SPEC §8).
 */
import { createApiClient, resultCodeOf } from '@/lib/api-client';
import { NICKNAME_MESSAGE_KEYS } from '@/schemas/nickname';
import { NicknameCharacters, NicknameLength, NicknameRequired, NicknameTaken, NicknameUnchanged, NicknameUnusable, SignupExpired } from '@/lib/result-codes';
import { TOAST_STORAGE_KEY } from '@/lib/names';
import type { AccountTexts } from './texts';

export const accountApi = createApiClient();

const NICKNAME_CODES: Record<number, keyof typeof NICKNAME_MESSAGE_KEYS> = {
	[NicknameRequired.code]: 'required',
	[NicknameLength.code]: 'length',
	[NicknameCharacters.code]: 'characters',
	[NicknameUnusable.code]: 'unusable',
	[NicknameUnchanged.code]: 'unchanged',
	[NicknameTaken.code]: 'taken',
};

/** A sign-up that ran out starts again at login; true when that is what `error` meant. */
export function restartWhenSignupExpired(error: unknown, loginUrl: string): boolean {
	if (resultCodeOf(error) !== SignupExpired.code) return false;
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
		sessionStorage.setItem(TOAST_STORAGE_KEY, message);
	} catch {
		// No storage: the page still changes, only without the toast.
	}
}

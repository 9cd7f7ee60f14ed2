/**
 * The account islands' calls to the member API and what their failures mean to a person: each
 * nickname rule has its own text, an ended sign-up goes back to login, anything else is the
 * generic service error (docs/reference/product-rules.md#errors-and-texts).
 */
import { createApiClient, resultCodeOf } from '@/lib/api-client';
import { NICKNAME_MESSAGE_KEYS } from '@/schemas/nickname';
import {
	NicknameChangeTooSoon,
	NicknameCharacters,
	NicknameLength,
	NicknameRequired,
	NicknameTaken,
	NicknameUnchanged,
	NicknameUnusable,
	SignupExpired,
	TooManyRequests,
} from '@/lib/result-codes';
import { formatFullDate } from '@/lib/format-date';
import type { Language } from '@/schemas/channel';
import type { AccountTexts } from './texts';

/** The member API of the channel, for the account islands (the session cookie says who). */
export const accountApi = (domain: string, slug: string) => createApiClient({ channel: { domain, slug } }).member;

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
export function nicknameErrorText(error: unknown, texts: AccountTexts, language: Language): string | null {
	const code = resultCodeOf(error);
	if (code === NicknameChangeTooSoon.code) {
		const retryAt = (error as { body?: { retryAt?: unknown } }).body?.retryAt;
		return typeof retryAt === 'number'
			? texts['nickname.message.tooSoon'].replace('{{date}}', formatFullDate(retryAt, language))
			: texts['nickname.message.tooSoonNoDate'];
	}
	const problem = code === undefined ? undefined : NICKNAME_CODES[code];
	return problem ? texts[NICKNAME_MESSAGE_KEYS[problem]] : null;
}

/** The text for a failure that is about no field: a request made too often, or the generic error. */
export function failureText(error: unknown, texts: Pick<AccountTexts, 'common.message.error' | 'common.message.tooManyRequests'>): string {
	return resultCodeOf(error) === TooManyRequests.code ? texts['common.message.tooManyRequests'] : texts['common.message.error'];
}

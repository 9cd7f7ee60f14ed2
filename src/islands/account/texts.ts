import { SPAM_TEXT_KEYS } from '@/lib/spam-failure';
/** The texts the account islands need, resolved on the server and passed as props. */
export const ACCOUNT_TEXT_KEYS = [
	...SPAM_TEXT_KEYS,
	'common.button.confirm',
	'common.button.next',
	'common.button.logout',
	'common.message.alert',
	'common.message.error',
	'common.message.tooManyRequests',
	'common.message.loggedOut',
	'signup.terms.all',
	'signup.terms.service',
	'signup.terms.privacy',
	'signup.terms.serviceText',
	'signup.terms.privacyText',
	'signup.terms.required',
	'signup.nickname.submit',
	'spam.challengeWait',
	'signup.expired',
	'signup.welcome',
	'nickname.label',
	'nickname.hint',
	'nickname.submit',
	'nickname.changed',
	'nickname.message.required',
	'nickname.message.length',
	'nickname.message.characters',
	'nickname.message.unusable',
	'nickname.message.unchanged',
	'nickname.message.taken',
	'nickname.message.tooSoon',
	'nickname.message.tooSoonNoDate',
	'withdraw.agree',
	'withdraw.submit',
	'withdraw.done',
] as const;

export type AccountTexts = Record<(typeof ACCOUNT_TEXT_KEYS)[number], string>;

/** The avatar's texts in My Page (AvatarForm.tsx); the limits' numbers are filled in by the page (UPLOAD_LIMIT_LABELS, IMAGE_MAX_SIZE_LABEL). */
export const AVATAR_TEXT_KEYS = [
	'avatar.choose',
	'avatar.remove',
	'avatar.removed',
	'avatar.saved',
	'avatar.saving',
	'avatar.crop.title',
	'avatar.crop.hint',
	'avatar.crop.area',
	'avatar.crop.zoom',
	'avatar.crop.save',
	'avatar.message.invalid',
	'avatar.message.dailyLimit',
	'editor.message.imageTooLarge',
	'editor.message.imageResolution',
	'common.button.cancel',
	'common.message.error',
	'common.message.tooManyRequests',
] as const;

export type AvatarTexts = Record<(typeof AVATAR_TEXT_KEYS)[number], string>;

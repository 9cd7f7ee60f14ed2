/**
 * Which catalogue code (src/lib/result-codes.ts) answers a body, query or path field that breaks
 * its schema, so that a client learns the failure by its own code and text, never by the
 * validator's words. One table per kind of input; a field not listed, and any failure of the
 * input's shape (an array for an object, an unknown field), answers InvalidParameter naming at most
 * the field (a top-level key of the route's schema, as docs/reference/api-errors.md lists them).
 *
 * A new code slots in with one entry: the field's path (`*` stands for any array index) and which
 * of its failures the code answers. A refinement may also name its code itself, with
 * `params: { resultCode: 'Name' }` (see src/schemas/report.ts).
 */
import type { ResultCodeName } from '@/lib/result-codes';

/**
 * The codes of one field: `missing` when it is absent, `wrongType` when it is not of its JSON type,
 * `tooBig` when it is too long or has too many items (also for any too-big value inside it), and
 * `invalid` for any other failure (also inside it). Each defaults to `invalid`, then to InvalidParameter.
 */
export interface FieldCodes {
	missing?: ResultCodeName;
	wrongType?: ResultCodeName;
	tooBig?: ResultCodeName;
	invalid?: ResultCodeName;
}

/** A post body, as POST and PUT posts and the drafts routes take it (src/schemas/post-write.ts, content.ts). */
export const POST_FIELDS: Readonly<Record<string, FieldCodes>> = {
	title: { missing: 'TitleRequired', tooBig: 'TitleTooLong' },
	content: { missing: 'ContentRequired', tooBig: 'ContentTooLarge' },
	// A new member's Turnstile token (src/server/spam/turnstile.ts): a malformed one fails the check.
	challengeToken: { invalid: 'ChallengeFailed' },
	'content.blocks.*.src': { missing: 'InvalidImage', wrongType: 'InvalidImage', invalid: 'ImageNotUploaded' },
	'content.blocks.*.alt': { invalid: 'InvalidImage' },
	'content.blocks.*.width': { invalid: 'InvalidImage' },
	'content.blocks.*.height': { invalid: 'InvalidImage' },
	'content.blocks.*.videoId': { invalid: 'InvalidVideoUrl' },
};

/** An address for notification emails (functions/api/routers/email.ts); its own rules are the service's (EmailAddressInvalid). */
export const EMAIL_FIELDS: Readonly<Record<string, FieldCodes>> = {
	address: { tooBig: 'EmailAddressInvalid', invalid: 'EmailAddressInvalid' },
};

/** A comment (src/schemas/comment.ts); its text's own rules are the service's (CommentRequired, CommentTooLong). */
export const COMMENT_FIELDS: Readonly<Record<string, FieldCodes>> = {
	content: { missing: 'CommentRequired' },
};

/** A report (src/schemas/report.ts); the detail's refinements name their codes. */
export const REPORT_FIELDS: Readonly<Record<string, FieldCodes>> = {
	reason: { invalid: 'ReportReasonRequired' },
};

/** Sign-up's and the nickname change's nickname (its rules are the service's, each with its code). */
export const NICKNAME_FIELDS: Readonly<Record<string, FieldCodes>> = {
	nickname: { missing: 'NicknameRequired', tooBig: 'NicknameLength' },
	// Sign-up's Turnstile token (src/server/spam/turnstile.ts): a malformed one fails the check.
	challengeToken: { invalid: 'ChallengeFailed' },
};

/** Sign-up's terms. */
export const TERMS_FIELDS: Readonly<Record<string, FieldCodes>> = {
	terms: { missing: 'TermsRequired' },
	privacy: { missing: 'TermsRequired' },
};

/** Withdrawal's confirmation. */
export const WITHDRAWAL_FIELDS: Readonly<Record<string, FieldCodes>> = {
	agree: { missing: 'WithdrawalUnconfirmed' },
};

/** The login request (a provider the community does not offer, or no such provider). */
export const LOGIN_FIELDS: Readonly<Record<string, FieldCodes>> = {
	provider: { invalid: 'ProviderNotOffered' },
};

/** An administrator's ban order. */
export const BAN_FIELDS: Readonly<Record<string, FieldCodes>> = {
	endsAt: { invalid: 'BanEndInvalid' },
};

/** The moderation settings. */
export const SETTINGS_FIELDS: Readonly<Record<string, FieldCodes>> = {
	autoHideReports: { invalid: 'AutoHideThresholdInvalid' },
	reportMinAgeHours: { invalid: 'ReportMinAgeInvalid' },
};

/** What one failure of a field answers: the exact path's entry, or the codes of the nearest listed field that holds it. */
export function fieldCode(
	table: Readonly<Record<string, FieldCodes>>,
	path: readonly PropertyKey[],
	kind: 'missing' | 'wrongType' | 'tooBig' | 'invalid',
): ResultCodeName {
	const names = path.map((segment) => (typeof segment === 'number' ? '*' : String(segment)));
	const exact = table[names.join('.')];
	if (exact) return exact[kind] ?? exact.invalid ?? 'InvalidParameter';
	// A failure inside a listed field (a block inside the content): only its size and its own invalid code apply.
	for (let length = names.length - 1; length > 0; length -= 1) {
		const holder = table[names.slice(0, length).join('.')];
		if (holder) return (kind === 'tooBig' ? holder.tooBig : undefined) ?? holder.invalid ?? 'InvalidParameter';
	}
	return 'InvalidParameter';
}

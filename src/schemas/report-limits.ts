/**
 * What can be reported and why, and the detail's limit: shared by the report dialog and the
 * server. No zod here: the dialog loads this module, and the schema of ./report.ts re-exports it.
 */

/** What can be reported. */
export const REPORT_TARGET_TYPES = ['POST', 'COMMENT'] as const;
export type ReportTargetType = (typeof REPORT_TARGET_TYPES)[number];

/**
 * The reasons a game community's moderators sort reports by, in the dialog's order; each has its
 * label under `report.reason.{CODE}` in src/i18n. Stored as `reports.reason_code`.
 * - SPAM: advertising, scams, phishing links, fake giveaways, repeated posts;
 * - ABUSE: harassment, insults, hate speech, threats;
 * - CHEATING: hacks, bots, exploits, account selling and real-money trading;
 * - SPOILER: story or event spoilers without a warning;
 * - INAPPROPRIATE: sexual or violent content;
 * - PERSONAL_INFO: someone's personal information (doxxing, private messages, account details);
 * - OTHER: anything else, told in the detail (required then).
 */
export const REPORT_REASONS = ['SPAM', 'ABUSE', 'CHEATING', 'SPOILER', 'INAPPROPRIATE', 'PERSONAL_INFO', 'OTHER'] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];

/**
 * The longest detail, in characters (an emoji is one). 500 is a few sentences: enough to say which
 * part of a long post, which player or which exploit is meant, and short enough for a moderator to
 * read each report in a queue of many. (A body of 500 characters, each escaped, is still far
 * below the API's 16 KB body limit.)
 */
export const REPORT_DETAIL_MAX_LENGTH = 500;

/** The length of a detail as the dialog counts it: in code points, so that an emoji counts one. */
export function reportDetailLength(detail: string): number {
	let length = 0;
	for (const _ of detail) length += 1;
	return length;
}

/** Whether the reason needs a detail: OTHER says in the detail what is wrong. */
export function detailRequired(reason: ReportReason, detail: string): boolean {
	return reason === 'OTHER' && detail.trim().length === 0;
}

/**
 * What a member sends to report a post or a comment: the body of POST /v1/{domain}/{slug}/reports,
 * shared by the report dialog (which checks it before sending) and the API (which checks it again).
 */
import './zod-config';
import { z } from 'zod';

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

const TargetIdSchema = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);

export const CreateReportSchema = z
	.strictObject({
		targetType: z.enum(REPORT_TARGET_TYPES),
		targetId: TargetIdSchema,
		reason: z.enum(REPORT_REASONS),
		/** Free text, stored as it is sent (it is only ever shown as text); '' for none. */
		detail: z.string().refine((detail) => reportDetailLength(detail) <= REPORT_DETAIL_MAX_LENGTH, `must be at most ${REPORT_DETAIL_MAX_LENGTH} characters`),
	})
	.refine((report) => report.reason !== 'OTHER' || report.detail.trim().length > 0, { path: ['detail'], message: 'is required when the reason is OTHER' });
export type CreateReportInput = z.infer<typeof CreateReportSchema>;

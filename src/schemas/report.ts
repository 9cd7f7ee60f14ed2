/**
 * What a member sends to report a post or a comment: the body of POST /v1/{domain}/{slug}/reports,
 * checked by the API; the report dialog checks the same rules (./report-limits.ts) before sending.
 */
import './zod-config';
import { z } from 'zod';
import { REPORT_DETAIL_MAX_LENGTH, REPORT_REASONS, REPORT_TARGET_TYPES, detailRequired, reportDetailLength } from './report-limits';

export { REPORT_DETAIL_MAX_LENGTH, REPORT_REASONS, reportDetailLength, type ReportTargetType } from './report-limits';

const TargetIdSchema = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);

export const CreateReportSchema = z
	.strictObject({
		targetType: z.enum(REPORT_TARGET_TYPES),
		targetId: TargetIdSchema,
		reason: z.enum(REPORT_REASONS),
		/** Free text, stored as it is sent (it is only ever shown as text); '' for none. */
		detail: z.string().refine((detail) => reportDetailLength(detail) <= REPORT_DETAIL_MAX_LENGTH, {
			message: `must be at most ${REPORT_DETAIL_MAX_LENGTH} characters`,
			params: { resultCode: 'ReportDetailTooLong' },
		}),
	})
	.refine((report) => !detailRequired(report.reason, report.detail), {
		path: ['detail'],
		message: 'is required when the reason is OTHER',
		params: { resultCode: 'ReportDetailRequired' },
	});
export type CreateReportInput = z.infer<typeof CreateReportSchema>;

import { describe, expect, it } from 'vitest';
import en from '@/i18n/en.json';
import { CreateReportSchema, REPORT_DETAIL_MAX_LENGTH, REPORT_REASONS } from '@/schemas/report';

const texts: Record<string, string> = en;

describe('the report schema the dialog and the API share', () => {
	it('has a label for every reason (and the dialog texts)', () => {
		for (const reason of REPORT_REASONS) expect(texts[`report.reason.${reason}`], reason).toBeTruthy();
		for (const key of ['title', 'detail', 'submit', 'done', 'failed']) expect(texts[`report.${key}`], key).toBeTruthy();
		expect(texts['report.done']).toBe('It has been reported.');
		expect(texts['report.failed']).toBe('Failed to report.');
	});

	it('takes a detail for OTHER only when it has text, and up to the limit in code points', () => {
		const parse = (reason: string, detail: string) => CreateReportSchema.safeParse({ targetType: 'COMMENT', targetId: 7, reason, detail }).success;
		expect(parse('SPAM', '')).toBe(true);
		expect(parse('OTHER', ' \n')).toBe(false);
		expect(parse('OTHER', 'Posting spoilers in titles.')).toBe(true);
		expect(parse('SPAM', '😀'.repeat(REPORT_DETAIL_MAX_LENGTH))).toBe(true);
		expect(parse('SPAM', 'a'.repeat(REPORT_DETAIL_MAX_LENGTH + 1))).toBe(false);
		expect(CreateReportSchema.safeParse({ targetType: 'POST', targetId: 7, reason: 'SPAM', detail: '', extra: 1 }).success).toBe(false);
	});
});

/**
 * Members report (/v1/{domain}/{slug}): POST reports. The rules (what may be reported, once) live
 * in src/server/reports/reports.ts. The report that reaches the community's threshold hides its
 * target in the same request, which moves the post's versions (src/server/moderation/hide.ts): the
 * channel middleware drops this isolate's channel row after it, as after every write.
 */
import { Hono } from 'hono';
import type { ApiEnv } from '@functions/api/context';
import { createReport } from '@/server/reports/reports';
import { ok } from '@/server/platform/envelope';
import { CreateReportSchema } from '@/schemas/report';
import { methodNotAllowed } from '@functions/api/middleware/errors';
import { requireMember } from '@functions/api/middleware/session';
import { rateLimit } from '@functions/api/middleware/rate-limit';
import { NoQuerySchema, zv, zvJson } from '@functions/api/validate';
import { REPORT_FIELDS } from '@functions/api/input-codes';

export const reportsRouter = new Hono<ApiEnv>()
	.post('/reports', zv('query', NoQuerySchema), rateLimit('report'), zvJson(CreateReportSchema, REPORT_FIELDS), async (c) => {
		const member = requireMember(c);
		const { reportId } = await createReport(c.var.db, c.var.channel.id, member, c.req.valid('json'), Date.now());
		return c.json(ok({ content: { reportId } }));
	})
	.on(['GET', 'PUT', 'PATCH', 'DELETE'], '/reports', methodNotAllowed);

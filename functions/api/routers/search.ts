/**
 * GET search: a page of the posts that contain the query, as the results page shows them.
 * A search that reaches D1 counts against the `search` rate limit (a guest's edge-cache hit never
 * gets here); a refused keyword costs nothing and is not counted.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import type { ApiEnv } from '@functions/api/context';
import { ok } from '@/server/platform/envelope';
import { AppError } from '@/server/platform/errors';
import { searchPosts } from '@/server/search/search';
import { matchExcerpt } from '@/server/search-index/search-text';
import { DEFAULT_SEARCH_TYPE, SEARCH_TYPES, searchKeywordProblem } from '@/schemas/search';
import { PageSchema } from '@/schemas/params';
import { zv } from '@functions/api/validate';
import { checkRateLimit } from '@functions/api/middleware/rate-limit';

const SearchQuerySchema = z.strictObject({
	q: z.string().max(400),
	searchType: z.enum(SEARCH_TYPES).default(DEFAULT_SEARCH_TYPE),
	page: PageSchema.default(1),
});

export const searchRouter = new Hono<ApiEnv>().get('/search', zv('query', SearchQuerySchema), async (c) => {
	const { q, searchType, page } = c.req.valid('query');
	const problem = searchKeywordProblem(q);
	if (problem)
		throw new AppError(
			'InvalidParameter',
			problem === 'search.message.required'
				? 'The request has an invalid parameter: q is required.'
				: 'The request has an invalid parameter: q must be 2 to 20 characters.',
		);
	await checkRateLimit(c, 'search');
	const { bodies, notices: _notices, ...results } = await searchPosts(c.var.db, c.var.channel.id, q.trim(), searchType, page);
	const posts = results.posts.map((post) => ({
		...post,
		excerpt:
			matchExcerpt(bodies.get(post.postId) ?? '', q.trim())
				?.map((part) => part.text)
				.join('') ?? null,
	}));
	return c.json(ok({ content: { ...results, posts, query: q.trim(), searchType } }));
});

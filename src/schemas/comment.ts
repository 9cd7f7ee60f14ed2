/**
 * What a member sends to write or edit a comment: the bodies of POST and PATCH
 * /v1/{domain}/{slug}/posts/{postId}/comments[/{commentId}], and the query of the public read.
 * The text's own rules (required, at most COMMENT_MAX_LENGTH code points after trimming) are the
 * service's, answered with CommentRequired and CommentTooLong; the schema only refuses what is not
 * a comment at all.
 */
import './zod-config';
import { z } from 'zod';
import { IdSchema } from './params';

export * from './comment-limits';

/** A comment or post id in a JSON body: a positive whole number within 2^53. */
const JsonIdSchema = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);

/**
 * POST comments. `parentId` names the comment replied to (a reply to a reply is stored under its
 * top-level comment); `requestId`, a UUID the comment box makes once per comment, makes a retried
 * request create one comment.
 */
export const CreateCommentSchema = z.strictObject({
	content: z.string(),
	parentId: JsonIdSchema.nullable().optional(),
	requestId: z.uuid().optional(),
});
export type CreateCommentInput = z.infer<typeof CreateCommentSchema>;

/** PATCH comments/{commentId}. */
export const EditCommentSchema = z.strictObject({ content: z.string() });

/**
 * GET comments: `after` the item a page follows (none for the first page; in the Best order, a
 * top-level comment), `sort` the order (oldest first when absent).
 */
export const CommentPageQuerySchema = z.strictObject({
	after: IdSchema.optional(),
	sort: z
		.string()
		.refine((value) => value === 'oldest' || value === 'best', { params: { resultCode: 'CommentOrderInvalid' } })
		.transform((value) => value as 'oldest' | 'best')
		.optional(),
});

export const CommentParamSchema = z.object({ postId: IdSchema, commentId: IdSchema });

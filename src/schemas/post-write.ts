/**
 * What a member sends to write, edit and draft a post: the bodies of POST/PUT /v1/{domain}/{slug}/posts
 * and of the drafts routes, shared by the editor island (which checks them before sending) and
 * the API (which checks them again). Rules whose failure has its own text (a title too long, an
 * empty body) are checked by the services, so that each answers its own result code.
 */
import './zod-config';
import { z } from 'zod';
import { DocumentSchema } from './content';

/**
 * The longest title, in characters (code points). 100 fits a list row on a desktop and two lines on
 * a phone; peers that allow 300 (Reddit) get paragraphs as titles, and 40 (DCInside) cuts ordinary
 * Korean and Japanese titles short.
 */
export const TITLE_MAX_LENGTH = 100;

/** How many drafts a member keeps in one community; saving one more is refused (DraftLimitReached). */
export const DRAFT_LIMIT = 100;

/** The largest image upload, in bytes (10 MB: a phone photo at full size fits). */
export const IMAGE_MAX_BYTES = 10 * 1024 * 1024;
export const IMAGE_MAX_SIZE_LABEL = { size: 10, unit: 'MB' } as const;

const BoardIdSchema = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);

/** The fields of a post as the editor has them. */
export const PostFieldsSchema = z.strictObject({
	boardId: BoardIdSchema,
	/** null for 'None'. */
	subjectId: BoardIdSchema.nullable(),
	title: z.string().max(4000),
	content: DocumentSchema,
	/** The owner made the post private: only the author and administrators read it. */
	isPrivate: z.boolean(),
	/** Pinned above the board's pages; administrators only. */
	isNotice: z.boolean(),
});
export type PostFields = z.infer<typeof PostFieldsSchema>;

/** POST posts: `requestId` (a UUID the editor makes once per post) makes a retried request create one post. */
export const CreatePostSchema = PostFieldsSchema.extend({ requestId: z.uuid() });
export type CreatePostInput = z.infer<typeof CreatePostSchema>;

/** PUT posts/{postId}: `version` is the one the editor opened; a post changed since is refused (PostChanged). */
export const EditPostSchema = PostFieldsSchema.extend({ version: z.number().int().positive().max(Number.MAX_SAFE_INTEGER) });
export type EditPostInput = z.infer<typeof EditPostSchema>;

/** POST drafts and PUT drafts/{draftId}: everything may still be empty. */
export const DraftFieldsSchema = z.strictObject({
	boardId: BoardIdSchema.nullable(),
	subjectId: BoardIdSchema.nullable(),
	title: z.string().max(4000),
	content: DocumentSchema,
});
export type DraftFields = z.infer<typeof DraftFieldsSchema>;

/** The title's length as a person counts it: code points, so an emoji or a CJK character is one. */
export function titleLength(title: string): number {
	return [...title].length;
}

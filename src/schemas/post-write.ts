/**
 * What a member sends to write, edit and draft a post: the bodies of POST/PUT /v1/{domain}/{slug}/posts
 * and of the drafts routes, shared by the editor island (which checks them before sending) and
 * the API (which checks them again). Rules whose failure has its own text (a title too long, an
 * empty body) are checked by the services, so that each answers its own result code.
 */
import './zod-config';
import { z } from 'zod';
import { DocumentSchema } from './content';

// The limits live apart, without zod, so that the write screen's island checks them without
// loading zod (about 25 KB of the page's 150 KB budget).
export { DRAFT_LIMIT, IMAGE_MAX_BYTES, TITLE_MAX_LENGTH, titleLength } from './post-limits';

const BoardIdSchema = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);

/** The fields of a post as the editor has them. */
const PostFieldsSchema = z.strictObject({
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

/**
 * POST posts: `requestId` (a UUID the editor makes once per post) makes a retried request create one
 * post; `draftId`, the member's draft the post was written from, is deleted with the post's creation.
 */
export const CreatePostSchema = PostFieldsSchema.extend({
	requestId: z.uuid(),
	draftId: BoardIdSchema.optional(),
	/** A new member's Turnstile token (src/server/spam/turnstile.ts); its checks answer ChallengeFailed. */
	challengeToken: z.string().max(10_000).optional(),
});
export type CreatePostInput = z.infer<typeof CreatePostSchema>;

/** PUT posts/{postId}: `version` is the one the editor opened; a post changed since is refused (PostChanged). */
export const EditPostSchema = PostFieldsSchema.extend({ version: z.number().int().positive().max(Number.MAX_SAFE_INTEGER) });
export type EditPostInput = z.infer<typeof EditPostSchema>;

/** POST drafts and PUT drafts/{draftId}: a post's text and place, where everything may still be empty (no board chosen yet). */
export const DraftFieldsSchema = PostFieldsSchema.omit({ isPrivate: true, isNotice: true }).extend({ boardId: BoardIdSchema.nullable() });
export type DraftFields = z.infer<typeof DraftFieldsSchema>;

/**
 * The fields as the write form holds them (and its local safety net keeps them): a post's, with the
 * board perhaps not chosen yet, as a draft keeps it.
 */
export type FormFields = Omit<PostFields, 'boardId'> & Pick<DraftFields, 'boardId'>;

/** The fields as the write and edit screens open (src/server/loaders/write-page.ts): a board's template, if any, is the content. */
export type OpeningFields = Omit<FormFields, 'content'> & { content: PostFields['content'] | null };

/** A draft as the list shows it (GET drafts), shared by the drafts service and the drafts dialog. */
export interface DraftSummary extends Omit<DraftFields, 'content'> {
	draftId: number;
	/** Epoch ms of the last save. */
	updatedAt: number;
}

/** A draft as the editor loads it (GET drafts/{draftId}). */
export interface Draft extends DraftSummary, Pick<DraftFields, 'content'> {}

/** A page of the member's drafts, newest first, with their count. */
export interface DraftPage {
	drafts: DraftSummary[];
	totalCount: number;
	page: number;
	pageSize: number;
	totalPages: number;
}

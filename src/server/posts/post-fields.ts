/**
 * What a post's fields must be, checked the same way when it is written and when it is edited
 * (./writing.ts): the title and body and their limits, the notice flag (administrators only), the
 * thumbnail its first image gives, and where it goes in its lists.
 */
import { AppError } from '@/server/platform/errors';
import type { SessionMember } from '@/server/sign-in/sessions';
import { documentText, isImageSrc, uploadKeyOf, uploadSrc, type ContentDocument } from '@/schemas/content';
import { postThumbnailOf } from '@/lib/thumbnails';
import { isAdmin } from '@/lib/roles';
import { TITLE_MAX_LENGTH, titleLength, type PostFields } from '@/schemas/post-write';
import type { WritingBoard } from '@/server/boards/writable';
import type { ListPlacement } from '@/server/list-positions/list-positions';

/** The longest body, in characters of its plain text (a long guide fits; a dumped log does not). */
const CONTENT_MAX_CHARACTERS = 40_000;

/** A title as stored: one line, trimmed. */
function normalizeTitle(title: string): string {
	return title.replace(/[\r\n\t\u2028\u2029]+/g, ' ').trim();
}

function hasContent(doc: ContentDocument): boolean {
	return doc.blocks.some((block) => block.type === 'image' || block.type === 'youtube') || documentText(doc).trim().length > 0;
}

interface CheckedFields {
	title: string;
	content: string;
	contentText: string;
	hasImage: number;
	hasVideo: number;
}

/** @throws AppError TitleRequired, TitleTooLong, ContentRequired, ContentTooLarge, Forbidden (notice by a member) */
export function checkFields(fields: PostFields, member: SessionMember, wasNotice: boolean): CheckedFields {
	const title = normalizeTitle(fields.title);
	if (title.length === 0) throw new AppError('TitleRequired');
	if (titleLength(title) > TITLE_MAX_LENGTH) throw new AppError('TitleTooLong');
	if (!hasContent(fields.content)) throw new AppError('ContentRequired');
	const contentText = documentText(fields.content);
	if (contentText.length > CONTENT_MAX_CHARACTERS) throw new AppError('ContentTooLarge');
	if (fields.isNotice !== wasNotice && !isAdmin(member)) throw new AppError('Forbidden');
	return {
		title,
		content: JSON.stringify(fields.content),
		contentText,
		hasImage: fields.content.blocks.some((block) => block.type === 'image') ? 1 : 0,
		hasVideo: fields.content.blocks.some((block) => block.type === 'youtube') ? 1 : 0,
	};
}

/**
 * What the post's list row shows (posts.thumbnail, src/lib/thumbnails.ts): its first upload that has
 * a small variant (`thumbKeys`, read with the uploads uploadsOf checked), demo image or
 * video. An upload without a variant (made before thumbnails, or whose variant the browser could
 * not make) is passed over: its full size is no thumbnail.
 */
export function thumbnailOf(doc: ContentDocument, thumbKeys: Map<string, string | null>): string | null {
	return postThumbnailOf(doc.blocks, (src) => {
		const key = uploadKeyOf(src);
		if (key === null) return isImageSrc(src) ? src : null;
		const thumbKey = thumbKeys.get(key);
		return thumbKey ? uploadSrc(thumbKey) : null;
	});
}

export function placementOf(fields: PostFields, board: WritingBoard): ListPlacement {
	return {
		boardId: board.id,
		subjectId: fields.subjectId,
		boardPublic: board.is_public === 1,
		isNotice: fields.isNotice,
		visible: !fields.isPrivate,
	};
}

/**
 * A check made early, because what it finds shapes the reads, whose error is thrown later, in its
 * turn among the checks (`get`).
 */
export function early<T>(check: () => T): { value: T | null; get: () => T } {
	try {
		const value = check();
		return { value, get: () => value };
	} catch (error) {
		return {
			value: null,
			get: () => {
				throw error;
			},
		};
	}
}

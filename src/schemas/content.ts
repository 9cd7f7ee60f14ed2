/**
 * A post body as stored: a small document of blocks, never HTML. The server renders it
 * (src/server/content-html.ts), so nothing a member writes reaches the page as markup.
 */
import './zod-config';
import { z } from 'zod';
import { SafeLinkSchema } from './link';

const InlineSchema = z.object({
	text: z.string().max(10000),
	bold: z.boolean().optional(),
	italic: z.boolean().optional(),
	underline: z.boolean().optional(),
	strike: z.boolean().optional(),
	link: SafeLinkSchema.optional(),
});
export type Inline = z.infer<typeof InlineSchema>;

const InlinesSchema = z.array(InlineSchema).max(500);

export const YOUTUBE_ID = /^[A-Za-z0-9_-]{11}$/;

/**
 * The key of an upload (src/server/uploads/): 128 random bits in base64url (22 characters) and the
 * extension of the type sniffed from its bytes. Never derived from a file name.
 */
export const UPLOAD_KEY = /^[A-Za-z0-9_-]{22}\.(?:jpg|png|gif|webp)$/;
const UPLOADS_PREFIX = '/uploads/';
/** The demo's own images in public/demo/, which the seeded posts show. */
const DEMO_IMAGE = /^\/demo\/[a-z0-9][a-z0-9-]*\.(?:svg|png|jpg|gif|webp)$/;

/** The path an upload is served at. */
export function uploadSrc(key: string): string {
	return `${UPLOADS_PREFIX}${key}`;
}

/** The upload key of an image `src`, or null when it is not an upload of this site. */
export function uploadKeyOf(src: string): string | null {
	if (!src.startsWith(UPLOADS_PREFIX)) return null;
	const key = src.slice(UPLOADS_PREFIX.length);
	return UPLOAD_KEY.test(key) ? key : null;
}

/**
 * Where an image block may point: an upload of this site or a demo file, never an absolute URL,
 * so that readers' browsers never fetch from a host a writer chose (and the page's img-src is 'self').
 */
export function isImageSrc(src: string): boolean {
	return uploadKeyOf(src) !== null || DEMO_IMAGE.test(src);
}

/** The longest guidance hint of a template (src/schemas/guidance.ts), in UTF-16 code units. */
export const GUIDANCE_HINT_MAX_LENGTH = 500;

const ImageSrcSchema = z.string().max(2048).refine(isImageSrc, 'must be an image uploaded to this site');

function blockSchema<S extends z.ZodType<string>>(imageSrc: S) {
	return z.discriminatedUnion('type', [
		z.object({ type: z.literal('paragraph'), children: InlinesSchema }),
		z.object({ type: z.literal('heading'), level: z.union([z.literal(2), z.literal(3)]), children: InlinesSchema }),
		z.object({ type: z.literal('quote'), children: InlinesSchema }),
		z.object({ type: z.literal('list'), ordered: z.boolean(), items: z.array(InlinesSchema).max(200) }),
		z.object({
			type: z.literal('image'),
			src: imageSrc,
			alt: z.string().max(300),
			width: z.number().int().positive().max(10000).optional(),
			height: z.number().int().positive().max(10000).optional(),
		}),
		z.object({ type: z.literal('youtube'), videoId: z.string().regex(YOUTUBE_ID) }),
		// A template's guidance (src/schemas/guidance.ts): the hint shown greyed in an empty block and
		// what the writer wrote in it; publishing drops the hint, and the block when left empty.
		z.object({ type: z.literal('guidance'), hint: z.string().min(1).max(GUIDANCE_HINT_MAX_LENGTH), children: InlinesSchema.default([]) }),
	]);
}

export const BlockSchema = blockSchema(ImageSrcSchema);
export type Block = z.infer<typeof BlockSchema>;

/** A body as it is written now: what the API accepts and the editor produces. */
export const DocumentSchema = z.object({ type: z.literal('doc'), blocks: z.array(BlockSchema).max(1000) });
export type ContentDocument = z.infer<typeof DocumentSchema>;

/**
 * A body as rows of any age hold it: an image may point wherever the URL rule of its day allowed
 * (an https URL). Readers of stored rows parse with this, and the renderer shows only the images
 * isImageSrc allows, so an old row neither breaks its page nor makes readers fetch from elsewhere.
 */
const StoredDocumentSchema = z.object({ type: z.literal('doc'), blocks: z.array(blockSchema(SafeLinkSchema)).max(1000) });
export type StoredDocument = z.infer<typeof StoredDocumentSchema>;

const PARSED_ENTRIES = 32;
const parsedDocuments = new Map<string, StoredDocument | null>();

/**
 * A stored body read with StoredDocumentSchema, or null when it is not a content document (text
 * from before documents, or a row that breaks the schema). A post page reads its body twice (the
 * page and its description) and popular posts are read again and again, so the last few results
 * are remembered by their text: treat the answer as read-only.
 */
export function parseStoredDocument(stored: string): StoredDocument | null {
	const known = parsedDocuments.get(stored);
	if (known !== undefined) return known;
	let document: StoredDocument | null = null;
	try {
		const parsed = StoredDocumentSchema.safeParse(JSON.parse(stored));
		if (parsed.success) document = parsed.data;
	} catch {
		// Not JSON: text from before documents.
	}
	if (parsedDocuments.size >= PARSED_ENTRIES) parsedDocuments.delete(parsedDocuments.keys().next().value as string);
	parsedDocuments.set(stored, document);
	return document;
}

/**
 * The text of a document without markup. Search reads it with each image's alt text (a reader may
 * look for what a picture shows); previews read it without (`imageAlts: false`), so that no alt is
 * spliced between two sentences of the body.
 */
export function documentText(doc: StoredDocument, { imageAlts = true }: { imageAlts?: boolean } = {}): string {
	const inlineText = (inlines: Inline[]) => inlines.map((inline) => inline.text).join('');
	return doc.blocks
		.map((block) => {
			switch (block.type) {
				case 'paragraph':
				case 'heading':
				case 'quote':
				case 'guidance':
					return inlineText(block.children);
				case 'list':
					return block.items.map(inlineText).join('\n');
				case 'image':
					return imageAlts ? block.alt : '';
				case 'youtube':
					return '';
			}
		})
		.filter(Boolean)
		.join('\n');
}

/**
 * A post body as stored: a small document of blocks, never HTML. The server renders it
 * (src/server/content-html.ts), so nothing a member writes reaches the page as markup.
 */
import './zod-config';
import { z } from 'zod';
import { SafeLinkSchema } from './link';

export const InlineSchema = z.object({
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

export const BlockSchema = z.discriminatedUnion('type', [
	z.object({ type: z.literal('paragraph'), children: InlinesSchema }),
	z.object({ type: z.literal('heading'), level: z.union([z.literal(2), z.literal(3)]), children: InlinesSchema }),
	z.object({ type: z.literal('quote'), children: InlinesSchema }),
	z.object({ type: z.literal('list'), ordered: z.boolean(), items: z.array(InlinesSchema).max(200) }),
	z.object({
		type: z.literal('image'),
		src: SafeLinkSchema,
		alt: z.string().max(300),
		width: z.number().int().positive().max(10000).optional(),
		height: z.number().int().positive().max(10000).optional(),
	}),
	z.object({ type: z.literal('youtube'), videoId: z.string().regex(YOUTUBE_ID) }),
]);
export type Block = z.infer<typeof BlockSchema>;

export const DocumentSchema = z.object({ type: z.literal('doc'), blocks: z.array(BlockSchema).max(1000) });
export type ContentDocument = z.infer<typeof DocumentSchema>;

/** The text of a document without markup, for search and previews. */
export function documentText(doc: ContentDocument): string {
	const inlineText = (inlines: Inline[]) => inlines.map((inline) => inline.text).join('');
	return doc.blocks
		.map((block) => {
			switch (block.type) {
				case 'paragraph':
				case 'heading':
				case 'quote':
					return inlineText(block.children);
				case 'list':
					return block.items.map(inlineText).join('\n');
				case 'image':
					return block.alt;
				case 'youtube':
					return '';
			}
		})
		.filter(Boolean)
		.join('\n');
}

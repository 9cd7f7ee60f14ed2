/**
 * Template guidance (docs/reference/template-guidance.md). A board's write template may
 * hold guidance blocks, `{ "type": "guidance", "hint": "What went wrong, in one sentence." }`: the
 * editor shows the hint greyed in an empty line, like a form field's placeholder, and what the
 * writer types goes into that line. Publishing keeps what the writer wrote there as a paragraph and
 * drops the hint, and the whole block when it was left empty: the browser does so before sending,
 * the server again on every post it writes, so no body, however it was made, publishes guidance.
 * Drafts keep guidance blocks as they are, so a draft opened again still shows its hints.
 * No zod here: the write page's browser code uses it within its JavaScript budget.
 */
import type { Block, ContentDocument, Inline } from './content';

const blank = (inlines: readonly Inline[]) => inlines.every((inline) => inline.text.trim() === '');

/** A document as it is published: each guidance block the writer filled in becomes a paragraph of their text, each one left empty goes. */
export function publishedDocument(doc: ContentDocument): ContentDocument {
	if (!doc.blocks.some((block) => block.type === 'guidance')) return doc;
	const blocks = doc.blocks.flatMap((block): Block[] => {
		if (block.type !== 'guidance') return [block];
		return blank(block.children) ? [] : [{ type: 'paragraph', children: block.children }];
	});
	return { ...doc, blocks };
}

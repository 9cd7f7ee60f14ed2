/**
 * A board template's sections (docs/reference/template-guidance.md): each heading of the template with what
 * lies under it, up to the next heading of the same or a higher level. Two uses:
 *
 * - Before publishing, the write form names the sections the writer left empty
 *   (`emptySections`): nothing under the heading but white space, guidance left as it was, or the
 *   template's own labels ("Platform:") with nothing written after them.
 * - When a post is opened for editing, each empty section gets its template's guidance back, and a
 *   heading with nothing under it an empty line (`withSectionLines`): a tap under a heading then
 *   lands in a line of its own, never at the start of the next heading.
 *
 * No zod and no other runtime import: the write form loads this module when it publishes, and the
 * edit screen's loader runs it on the server.
 */
import type { Block, ContentDocument, Inline } from './content';

const textOf = (inlines: readonly Inline[]) =>
	inlines
		.map((inline) => inline.text)
		.join('')
		.trim();

type Heading = Extract<Block, { type: 'heading' }>;

/** Where the section of the heading at `index` ends: the next heading of the same or a higher level, or the end. */
function sectionEnd(blocks: readonly Block[], index: number): number {
	const level = (blocks[index] as Heading).level;
	const next = blocks.findIndex((block, at) => at > index && block.type === 'heading' && block.level <= level);
	return next === -1 ? blocks.length : next;
}

interface TemplateSection {
	/** The template's guidance under the heading, put back under an empty section on edit. */
	guidance: Block[];
	/** The texts the template itself puts under the heading (its labels): left as they are, they are not an answer. */
	labels: Set<string>;
}

/** The template's sections by their heading's text (the first of two headings with the same text). */
function templateSections(template: ContentDocument): Map<string, TemplateSection> {
	const sections = new Map<string, TemplateSection>();
	template.blocks.forEach((block, index) => {
		if (block.type !== 'heading') return;
		const text = textOf(block.children);
		if (text === '' || sections.has(text)) return;
		const under = template.blocks.slice(index + 1, sectionEnd(template.blocks, index));
		const labels = new Set(
			under.flatMap((part) =>
				part.type === 'list' ? part.items.map(textOf) : 'children' in part && part.type !== 'guidance' ? [textOf(part.children)] : [],
			),
		);
		sections.set(text, { guidance: under.filter((part) => part.type === 'guidance').map((part) => ({ ...part, children: [] })), labels });
	});
	return sections;
}

/** Nothing written: white space, or a label of the template's section left as it was. */
function unwritten(block: Block, labels: Set<string>): boolean {
	const blank = (inlines: readonly Inline[]) => {
		const text = textOf(inlines);
		return text === '' || labels.has(text);
	};
	if (block.type === 'list') return block.items.every(blank);
	return 'children' in block && blank(block.children);
}

export interface EmptySection {
	/** The heading's text, as the writer sees it. */
	heading: string;
	/** Which heading of the document it is (0 for the first heading), for the editor to put the caret under it. */
	headingIndex: number;
}

/** The template's sections that `doc` (as written, guidance included) leaves empty, in the document's order. */
export function emptySections(doc: ContentDocument, template: ContentDocument | null): EmptySection[] {
	if (!template) return [];
	const sections = templateSections(template);
	const empty: EmptySection[] = [];
	let headingIndex = -1;
	doc.blocks.forEach((block, index) => {
		if (block.type !== 'heading') return;
		headingIndex += 1;
		const heading = textOf(block.children);
		const section = sections.get(heading);
		if (!section) return;
		const under = doc.blocks.slice(index + 1, sectionEnd(doc.blocks, index));
		if (under.every((part) => unwritten(part, section.labels))) empty.push({ heading, headingIndex });
	});
	return empty;
}

/**
 * A stored post as the edit screen opens it: under each template heading whose section is empty,
 * the template's guidance for it (its hint shown again, dropped again on publishing if left empty);
 * under any other heading with nothing under it (the next block a heading, or none), an empty line,
 * which is guidance with a blank hint so that, left empty, it is not published either.
 */
export function withSectionLines(doc: ContentDocument, template: ContentDocument | null): ContentDocument {
	const sections = template ? templateSections(template) : new Map<string, TemplateSection>();
	const blocks = doc.blocks.flatMap((block, index): Block[] => {
		if (block.type !== 'heading') return [block];
		const section = sections.get(textOf(block.children));
		const under = doc.blocks.slice(index + 1, sectionEnd(doc.blocks, index));
		const lines = section && under.every((part) => unwritten(part, section.labels)) ? section.guidance : [];
		const next = doc.blocks[index + 1];
		if (lines.length === 0 && (next === undefined || next.type === 'heading')) return [block, { type: 'guidance', hint: ' ', children: [] }];
		return [block, ...lines];
	});
	return blocks.length === doc.blocks.length ? doc : { ...doc, blocks };
}

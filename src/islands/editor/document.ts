/**
 * The editor's content both ways: Lexical's tree to the stored document (src/schemas/content.ts)
 * and back. What the editor may hold that the document does not allow is flattened or dropped:
 * nested list items join their list, h1 becomes a heading 2 and h4–h6 a heading 3, any other
 * block becomes a paragraph of its text, line breaks stay as "\n" in the text, links that break
 * the URL rule lose their link, images that are not this site's uploads and unknown embeds go.
 * `$exportDocument` always answers a document that `DocumentSchema.parse` accepts: runs, blocks
 * and list items over the schema's counts are split, never cut, except past the last block the
 * schema allows. A template's guidance block (src/schemas/guidance.ts) stays one both ways, its
 * hint with it, so a draft or a kept copy shows its hints again; the form publishes without them.
 */
import {
	$createLineBreakNode,
	$createParagraphNode,
	$createTextNode,
	$getRoot,
	$isDecoratorNode,
	$isElementNode,
	$isLineBreakNode,
	$isTabNode,
	$isTextNode,
	type LexicalNode,
	type TextFormatType,
} from 'lexical';
import { $createHeadingNode, $createQuoteNode, $isHeadingNode, $isQuoteNode } from '@lexical/rich-text';
import { $createListItemNode, $createListNode, $isListItemNode, $isListNode, type ListNode } from '@lexical/list';
import { $createLinkNode, $isLinkNode, type LinkNode } from '@lexical/link';
import type { Block, ContentDocument, Inline } from '@/schemas/content';
import { YOUTUBE_VIDEO_ID } from '@/lib/youtube-url';
import { $createImageNode, $createYouTubeNode, $isImageNode, $isYouTubeNode, ALT_MAX_LENGTH, imagePathOnSite } from './media-nodes';
import { normalizeLink } from './link-url';
import { $createGuidanceNode, $isGuidanceNode, GUIDANCE_HINT_MAX_LENGTH } from './guidance-node';

/** The schema's limits (src/schemas/content.ts). */
const MAX_TEXT = 10000;
const MAX_INLINES = 500;
const MAX_ITEMS = 200;
const MAX_BLOCKS = 1000;

export function emptyDocument(): ContentDocument {
	return { type: 'doc', blocks: [] };
}

const blank = (inlines: Inline[]) => inlines.every((inline) => inline.text.trim() === '');

/** No text (white space does not count), no image and no video. */
export function documentIsEmpty(doc: ContentDocument): boolean {
	return doc.blocks.every((block) => {
		switch (block.type) {
			case 'paragraph':
			case 'heading':
			case 'quote':
			case 'guidance':
				return blank(block.children);
			case 'list':
				return block.items.every(blank);
			case 'image':
			case 'youtube':
				return false;
		}
	});
}

type Marks = Omit<Inline, 'text'>;
const FORMATS = [
	['bold', 'bold'],
	['italic', 'italic'],
	['underline', 'underline'],
	['strike', 'strikethrough'],
] as const satisfies readonly (readonly [keyof Marks, TextFormatType])[];

const sameMarks = (a: Marks, b: Marks) =>
	a.bold === b.bold && a.italic === b.italic && a.underline === b.underline && a.strike === b.strike && a.link === b.link;

/** Appends a run, joining it to the previous one when they look the same. */
function pushRun(runs: Inline[], text: string, marks: Marks): void {
	if (text === '') return;
	const last = runs.at(-1);
	if (last && sameMarks(last, marks)) last.text += text;
	else runs.push({ text, ...marks });
}

function collect(nodes: LexicalNode[], runs: Inline[], link: string | undefined): void {
	for (const node of nodes) {
		if ($isLinkNode(node)) {
			collect(node.getChildren(), runs, normalizeLink(node.getURL()) ?? link);
		} else if ($isTabNode(node)) {
			pushRun(runs, '\t', link ? { link } : {});
		} else if ($isTextNode(node)) {
			const marks: Marks = {};
			for (const [mark, format] of FORMATS) if (node.hasFormat(format)) marks[mark] = true;
			if (link) marks.link = link;
			pushRun(runs, node.getTextContent(), marks);
		} else if ($isLineBreakNode(node)) {
			pushRun(runs, '\n', {});
		} else if ($isElementNode(node)) {
			// A block inside a block (a paragraph inside a list item) starts on its own line.
			if (!node.isInline() && runs.length > 0 && !runs.at(-1)?.text.endsWith('\n')) pushRun(runs, '\n', {});
			collect(node.getChildren(), runs, link);
		}
	}
}

/** Splits a text at `size` code units without cutting a surrogate pair in two. */
function splitText(text: string, size: number): string[] {
	const parts: string[] = [];
	let rest = text;
	while (rest.length > size) {
		let cut = size;
		const code = rest.charCodeAt(cut - 1);
		if (code >= 0xd800 && code <= 0xdbff) cut -= 1;
		parts.push(rest.slice(0, cut));
		rest = rest.slice(cut);
	}
	parts.push(rest);
	return parts;
}

function chunk<T>(values: T[], size: number): T[][] {
	const chunks: T[][] = [];
	for (let start = 0; start < values.length; start += size) chunks.push(values.slice(start, start + size));
	return chunks.length > 0 ? chunks : [[]];
}

/** The inlines of `nodes`, in groups that each fit one block (or list item) of the schema. */
function inlineGroups(nodes: LexicalNode[]): Inline[][] {
	const runs: Inline[] = [];
	collect(nodes, runs, undefined);
	// Line breaks at the very end of a block show nothing but an empty line.
	const last = runs.at(-1);
	if (last) {
		last.text = last.text.replace(/\n+$/, '');
		if (last.text === '') runs.pop();
	}
	return chunk(
		runs.flatMap((run) => splitText(run.text, MAX_TEXT).map((text) => ({ ...run, text }))),
		MAX_INLINES,
	);
}

/** The items of a list with nested lists flattened into it, in reading order. */
function listItems(list: ListNode): Inline[][] {
	const items: Inline[][] = [];
	for (const item of list.getChildren()) {
		if (!$isListItemNode(item)) continue;
		const nested = item.getChildren().filter($isListNode);
		const own = item.getChildren().filter((child) => !$isListNode(child));
		if (own.length > 0 || nested.length === 0) items.push(...inlineGroups(own));
		for (const child of nested) items.push(...listItems(child));
	}
	return items;
}

function headingLevel(tag: string): 2 | 3 {
	return tag === 'h1' || tag === 'h2' ? 2 : 3;
}

function blocksOf(node: LexicalNode): Block[] {
	if ($isImageNode(node)) {
		const { src, alt, width, height } = node.getPayload();
		const path = imagePathOnSite(src);
		if (!path) return [];
		return [{ type: 'image', src: path, alt: alt.slice(0, ALT_MAX_LENGTH), ...(width && height ? { width, height } : {}) }];
	}
	if ($isYouTubeNode(node)) {
		const videoId = node.getVideoId();
		return YOUTUBE_VIDEO_ID.test(videoId) ? [{ type: 'youtube', videoId }] : [];
	}
	if ($isDecoratorNode(node)) return [];
	if ($isListNode(node)) {
		const ordered = node.getListType() === 'number';
		return chunk(listItems(node), MAX_ITEMS).map((items) => ({ type: 'list', ordered, items }));
	}
	if ($isHeadingNode(node)) {
		const level = headingLevel(node.getTag());
		return inlineGroups(node.getChildren()).map((children) => ({ type: 'heading', level, children }));
	}
	if ($isQuoteNode(node)) return inlineGroups(node.getChildren()).map((children) => ({ type: 'quote', children }));
	if ($isGuidanceNode(node)) {
		// Past the schema's count of inlines, the writer's text goes on in paragraphs.
		const hint = node.getHint().slice(0, GUIDANCE_HINT_MAX_LENGTH) || ' ';
		return inlineGroups(node.getChildren()).map(
			(children, index): Block => (index === 0 ? { type: 'guidance', hint, children } : { type: 'paragraph', children }),
		);
	}
	if ($isElementNode(node)) {
		// A block holding blocks (none of the registered nodes does; a future one might) keeps them as blocks.
		if (node.getChildren().some((child) => $isElementNode(child) && !child.isInline() && !$isLinkNode(child))) {
			return node.getChildren().flatMap(blocksOf);
		}
		return inlineGroups(node.getChildren()).map((children) => ({ type: 'paragraph', children }));
	}
	return inlineGroups([node]).map((children) => ({ type: 'paragraph', children }));
}

/** The editor's content as a stored document. Call inside `editor.read` or `editor.update`. */
export function $exportDocument(): ContentDocument {
	const blocks = $getRoot().getChildren().flatMap(blocksOf);
	// The editor always holds a paragraph; empty ones at the end are not part of the post.
	while (blocks.length > 0) {
		const last = blocks.at(-1);
		if (last?.type === 'paragraph' && last.children.length === 0) blocks.pop();
		else break;
	}
	return { type: 'doc', blocks: blocks.slice(0, MAX_BLOCKS) };
}

function textNodes(inline: Inline): LexicalNode[] {
	const nodes: LexicalNode[] = [];
	inline.text.split('\n').forEach((line, index) => {
		if (index > 0) nodes.push($createLineBreakNode());
		if (line === '') return;
		const text = $createTextNode(line);
		for (const [mark, format] of FORMATS) if (inline[mark]) text.toggleFormat(format);
		nodes.push(text);
	});
	return nodes;
}

/** The Lexical nodes of a block's inlines; neighbouring runs with the same link share one link node. */
function inlineNodes(inlines: Inline[]): LexicalNode[] {
	const nodes: LexicalNode[] = [];
	let link: LinkNode | null = null;
	for (const inline of inlines) {
		const url = inline.link ? normalizeLink(inline.link) : null;
		if (!url) {
			link = null;
			nodes.push(...textNodes(inline));
			continue;
		}
		if (!link || link.getURL() !== url) {
			link = $createLinkNode(url);
			nodes.push(link);
		}
		link.append(...textNodes(inline));
	}
	return nodes;
}

function nodeOf(block: Block): LexicalNode {
	switch (block.type) {
		case 'paragraph':
			return $createParagraphNode().append(...inlineNodes(block.children));
		case 'heading':
			return $createHeadingNode(`h${block.level}`).append(...inlineNodes(block.children));
		case 'quote':
			return $createQuoteNode().append(...inlineNodes(block.children));
		case 'list':
			return $createListNode(block.ordered ? 'number' : 'bullet').append(
				...block.items.map((item) => $createListItemNode().append(...inlineNodes(item))),
			);
		case 'image':
			return $createImageNode({ src: block.src, alt: block.alt, width: block.width, height: block.height });
		case 'youtube':
			return $createYouTubeNode(block.videoId);
		case 'guidance':
			return $createGuidanceNode(block.hint).append(...inlineNodes(block.children));
	}
}

/** Replaces the editor's content with `doc`. Call inside `editor.update`. */
export function $importDocument(doc: ContentDocument): void {
	const root = $getRoot();
	root.clear();
	for (const block of doc.blocks) {
		if (block.type === 'image' && !imagePathOnSite(block.src)) continue;
		root.append(nodeOf(block));
	}
	// A caret needs a paragraph to stand in: one at the end when the post ends with a block of its own kind.
	const last = root.getLastChild();
	if (!last || $isDecoratorNode(last) || $isListNode(last)) root.append($createParagraphNode());
}

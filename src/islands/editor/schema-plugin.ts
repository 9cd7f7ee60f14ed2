/**
 * Keeps the editor to what a stored document can hold, whatever arrives (a paste from a web page,
 * Word or Google Docs, a drop, Lexical's own clipboard): node transforms clear inline styles,
 * alignment and indentation, keep only bold, italic, underline and strike, fold h1/h4–h6 into
 * the two heading levels, flatten nested lists, make check lists bulleted, unwrap links that
 * break the URL rule and remove images that are not this site's uploads. So what the member
 * sees while writing is what readers will see. Pasted HTML is made plain before Lexical reads it
 * (plainPastedHtml): Word's list paragraphs (`mso-list`) become real lists, meaningful styles tags.
 */
import {
	$getSelection,
	IS_BOLD,
	IS_ITALIC,
	IS_STRIKETHROUGH,
	IS_UNDERLINE,
	ParagraphNode,
	TextNode,
	type ElementNode,
	type LexicalEditor,
} from 'lexical';
import { HeadingNode, QuoteNode } from '@lexical/rich-text';
import { $isListItemNode, ListItemNode, ListNode } from '@lexical/list';
import { LinkNode } from '@lexical/link';
import { $generateNodesFromDOM } from '@lexical/html';
import { $insertGeneratedNodes } from '@lexical/clipboard';
import { mergeRegister } from '@lexical/utils';
import { ImageNode, imagePathOnSite } from './media-nodes';
import { normalizeLink } from './link-url';

const ALLOWED_FORMATS = IS_BOLD | IS_ITALIC | IS_UNDERLINE | IS_STRIKETHROUGH;

function $plainBlock(node: ElementNode): void {
	if (node.getFormatType() !== '') node.setFormat('');
	if (node.getIndent() !== 0 && !$isListItemNode(node)) node.setIndent(0);
	if (node.getStyle() !== '') node.setStyle('');
}

export function registerSchemaTransforms(editor: LexicalEditor, origin: string | undefined): () => void {
	return mergeRegister(
		editor.registerNodeTransform(TextNode, (node) => {
			if (node.getStyle() !== '') node.setStyle('');
			const format = node.getFormat();
			if ((format & ALLOWED_FORMATS) !== format) node.setFormat(format & ALLOWED_FORMATS);
		}),
		editor.registerNodeTransform(ParagraphNode, $plainBlock),
		editor.registerNodeTransform(QuoteNode, $plainBlock),
		editor.registerNodeTransform(ListItemNode, $plainBlock),
		editor.registerNodeTransform(HeadingNode, (node) => {
			$plainBlock(node);
			const tag = node.getTag();
			if (tag === 'h1') node.setTag('h2');
			else if (tag !== 'h2' && tag !== 'h3') node.setTag('h3');
		}),
		editor.registerNodeTransform(ListNode, (node) => {
			if (node.getListType() === 'check') node.setListType('bullet');
			const holder = node.getParent();
			if (!$isListItemNode(holder)) return;
			// A nested list: its items join the outer list right after the item that held it.
			let anchor: ElementNode = holder;
			for (const item of node.getChildren()) {
				anchor.insertAfter(item);
				if ($isListItemNode(item)) anchor = item;
			}
			node.remove();
			if (holder.isEmpty()) holder.remove();
		}),
		editor.registerNodeTransform(LinkNode, (node) => {
			const url = normalizeLink(node.getURL(), origin);
			if (url === null) {
				for (const child of node.getChildren()) node.insertBefore(child);
				node.remove();
			} else if (url !== node.getURL()) {
				node.setURL(url);
			}
		}),
		editor.registerNodeTransform(ImageNode, (node) => {
			if (!imagePathOnSite(node.getPayload().src, origin)) node.remove();
		}),
	);
}

/** Image files on the clipboard with no text beside them (a copied picture, a screenshot) are uploaded. */
export function shouldUploadPastedFiles(data: DataTransfer): boolean {
	const images = [...data.files].filter((file) => file.type.startsWith('image/') || file.type === '');
	return images.length > 0 && data.getData('text/plain').trim() === '';
}

/**
 * Pasted HTML is parsed with its style attributes renamed and its style sheets made inert
 * elements: parsing them as they are would make the browser check them against the page's
 * Content-Security-Policy, which refuses (and reports) every one, even in a detached document.
 * Tags are matched as text, so a `>` inside an attribute value would end the rename early; the
 * attribute is then parsed as it came, refused by the policy and dropped by Lexical's import.
 */
const STYLE_ATTRIBUTE = 'data-paste-style';
export function inertPastedHtml(html: string): string {
	return html
		.replace(/<[a-z][^>]*>/gi, (tag) => tag.replace(/\sstyle\s*=/gi, ` ${STYLE_ATTRIBUTE}=`))
		.replace(/<(\/?)(style|link)\b/gi, '<$1paste-$2');
}

/** Word marks list paragraphs with `mso-list` and draws the bullet or number as text in a span it tags `mso-list:Ignore`. */
const WORD_LIST = /mso-list:\s*l\d+/i;
const ORDERED_MARKER = /^\s*(?:\d+|[a-z]{1,3}|[ivxlc]+)[.)]/i;

/** Turns Word's list paragraphs into <ul>/<ol> (levels are flattened, as the document has one). */
export function convertWordLists(dom: Document): void {
	const paragraphs = [...dom.querySelectorAll('p')].filter((paragraph) => WORD_LIST.test(paragraph.getAttribute(STYLE_ATTRIBUTE) ?? ''));
	let list: HTMLElement | null = null;
	for (const paragraph of paragraphs) {
		const marker = paragraph.querySelector(`span[${STYLE_ATTRIBUTE}*="mso-list:Ignore" i]`);
		const ordered = ORDERED_MARKER.test(marker?.textContent ?? '');
		marker?.remove();
		const continues = list !== null && paragraph.previousElementSibling === list && (list.tagName === 'OL') === ordered;
		if (!continues) {
			list = dom.createElement(ordered ? 'ol' : 'ul');
			paragraph.parentNode?.insertBefore(list, paragraph);
		}
		const item = dom.createElement('li');
		while (paragraph.firstChild) item.appendChild(paragraph.firstChild);
		list?.appendChild(item);
		// The list now stands where the paragraph was: a next list paragraph right after it continues it.
		paragraph.remove();
	}
}

const BOLD_WEIGHT = /^(?:bold|bolder|[6-9]00)$/;
const NORMAL_WEIGHT = /^(?:normal|lighter|[1-5]00)$/;

/**
 * The declarations of a style attribute, read as text (an element's `style` object would parse it
 * under the page's policy, which refuses it).
 */
function declarations(text: string): Map<string, string> {
	const found = new Map<string, string>();
	for (const part of text.split(';')) {
		const colon = part.indexOf(':');
		if (colon > 0) found.set(part.slice(0, colon).trim().toLowerCase(), part.slice(colon + 1).trim().toLowerCase());
	}
	return found;
}

/** Puts `element`'s children into a new `tag` element inside it. */
function wrapChildren(dom: Document, element: Element, tag: string): void {
	const wrapper = dom.createElement(tag);
	while (element.firstChild) wrapper.appendChild(element.firstChild);
	element.appendChild(wrapper);
}

/**
 * Makes pasted HTML plain before Lexical reads it: the styles that mean something to a post (bold,
 * italic, underline, strike: how Google Docs marks them) become tags, Google Docs' `<b style=
 * "font-weight:normal">` wrapper stops meaning bold, and then every style attribute and style
 * sheet goes, so Lexical carries no fonts, colours or sizes in. `dom` comes from inertPastedHtml.
 */
export function plainPastedHtml(dom: Document): void {
	convertWordLists(dom);
	for (const element of [...dom.querySelectorAll(`[${STYLE_ATTRIBUTE}]`)]) {
		const style = declarations(element.getAttribute(STYLE_ATTRIBUTE) ?? '');
		const weight = style.get('font-weight') ?? '';
		const tag = element.tagName.toLowerCase();
		if ((tag === 'b' || tag === 'strong') && NORMAL_WEIGHT.test(weight)) {
			const span = dom.createElement('span');
			while (element.firstChild) span.appendChild(element.firstChild);
			element.parentNode?.replaceChild(span, element);
			continue;
		}
		const decoration = `${style.get('text-decoration-line') ?? ''} ${style.get('text-decoration') ?? ''}`;
		const fontStyle = style.get('font-style') ?? '';
		if (BOLD_WEIGHT.test(weight) && !/^(?:b|strong|h[1-6])$/.test(tag)) wrapChildren(dom, element, 'b');
		if (fontStyle === 'italic' || fontStyle === 'oblique') wrapChildren(dom, element, 'i');
		// A link's own underline is how links look, not an underline the writer chose.
		if (/underline/.test(decoration) && !element.closest('a')) wrapChildren(dom, element, 'u');
		if (/line-through/.test(decoration)) wrapChildren(dom, element, 's');
		element.removeAttribute(STYLE_ATTRIBUTE);
	}
	for (const element of [...dom.querySelectorAll('paste-style, paste-link, style, link, meta, script, template, title')]) element.remove();
	for (const element of [...dom.querySelectorAll('[class]')]) element.removeAttribute('class');
}

/** Inserts pasted HTML at the selection, made plain first (plainPastedHtml). Call inside `editor.update`. */
export function $insertPastedHtml(editor: LexicalEditor, html: string): void {
	const dom = new DOMParser().parseFromString(inertPastedHtml(html), 'text/html');
	plainPastedHtml(dom);
	const nodes = $generateNodesFromDOM(editor, dom);
	const selection = $getSelection();
	if (selection) $insertGeneratedNodes(editor, nodes, selection);
}

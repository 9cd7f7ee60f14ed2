/**
 * Pasted HTML made plain before Lexical reads it (see ./schema-plugin.ts for what the editor keeps).
 * Loaded when the writer first pastes HTML or focuses the editor, not with the editor: the write
 * page's JavaScript before the editor is usable has a budget (tests/e2e/budget.spec.ts). It uses
 * no Lexical module (the editor turns the document into nodes), so the editor's chunk is not split.
 */

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
		if (colon > 0)
			found.set(
				part.slice(0, colon).trim().toLowerCase(),
				part
					.slice(colon + 1)
					.trim()
					.toLowerCase(),
			);
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

/** Pasted HTML as a document made plain (inertPastedHtml, then plainPastedHtml), for Lexical's $generateNodesFromDOM. */
export function plainPastedDocument(html: string): Document {
	const dom = new DOMParser().parseFromString(inertPastedHtml(html), 'text/html');
	plainPastedHtml(dom);
	return dom;
}

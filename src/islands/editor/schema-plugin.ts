/**
 * Keeps the editor to what a stored document can hold, whatever arrives (a paste from a web page,
 * Word or Google Docs, a drop, Lexical's own clipboard): node transforms clear inline styles,
 * alignment and indentation, keep only bold, italic, underline and strike, fold h1/h4–h6 into
 * the two heading levels, flatten nested lists, make check lists bulleted, unwrap links that
 * break the URL rule and remove images that are not this site's uploads. So what the member
 * sees while writing is what readers will see. Pasted HTML is made plain before Lexical reads it
 * (plainPastedHtml of ./paste-html.ts): Word's list paragraphs (`mso-list`) become real lists,
 * meaningful styles tags.
 */
import { IS_BOLD, IS_ITALIC, IS_STRIKETHROUGH, IS_UNDERLINE, ParagraphNode, TextNode, type ElementNode, type LexicalEditor } from 'lexical';
import { HeadingNode, QuoteNode } from '@lexical/rich-text';
import { $isListItemNode, ListItemNode, ListNode } from '@lexical/list';
import { LinkNode } from '@lexical/link';
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

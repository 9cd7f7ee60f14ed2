/** Selections in the rich-text editor: where a block goes, one kept across an async step, the one the page shows. */
import {
	$createParagraphNode,
	$createRangeSelectionFromDom,
	$getNodeByKey,
	$getRoot,
	$getSelection,
	$isNodeSelection,
	$isRangeSelection,
	type BaseSelection,
	type LexicalEditor,
	type LexicalNode,
	type RangeSelection,
} from 'lexical';
import { $insertNodeToNearestRoot } from '@lexical/utils';

/** The range selection, or null: for the @ suggestions, which take Lexical's functions from the editor (src/islands/mentions/EditorMentions.tsx). */
export function $rangeSelection(): RangeSelection | null {
	const selection = $getSelection();
	return $isRangeSelection(selection) ? selection : null;
}

/** Puts a block (image, video) where the caret is, or after the selected block, or at the end. */
export function $insertBlock(node: LexicalNode): void {
	const selection = $getSelection();
	if ($isRangeSelection(selection)) {
		$insertNodeToNearestRoot(node);
		return;
	}
	const selected = $isNodeSelection(selection) ? selection.getNodes().at(-1) : undefined;
	const top = selected?.getTopLevelElement() ?? selected;
	if (top && top.getParent() === $getRoot()) top.insertAfter(node);
	else $getRoot().append(node);
	if (!node.getNextSibling()) node.insertAfter($createParagraphNode());
	node.getNextSibling()?.selectStart();
}

/** A copy of `selection` when every node it names still exists, to restore after an async step. */
export function $stillValid(selection: BaseSelection | null): BaseSelection | null {
	if (!selection) return null;
	if ($isRangeSelection(selection)) return $getNodeByKey(selection.anchor.key) && $getNodeByKey(selection.focus.key) ? selection.clone() : null;
	return selection.getNodes().every((node) => $getNodeByKey(node.getKey())) ? selection.clone() : null;
}

/**
 * The selection the page shows inside the editor, read from the DOM: a key pressed or a button
 * used right after selecting (Shift+Home, then Ctrl+K) comes before the selectionchange event that
 * brings Lexical's own copy up to date. Null unless the editor has the focus (a person on the
 * toolbar by keyboard left the text long before, and Lexical's copy is current; taking the DOM's
 * then would also pull the focus back into the text).
 */
export function $selectionFromDom(editor: LexicalEditor): BaseSelection | null {
	const dom = window.getSelection();
	const root = editor.getRootElement();
	if (!dom?.anchorNode || !root?.contains(dom.anchorNode) || !root.contains(document.activeElement)) return null;
	return $createRangeSelectionFromDom(dom, editor);
}

/**
 * The toolbar of ./RichEditor.tsx: what it shows of the selection (./Toolbar.tsx draws it) and what
 * each of its buttons does.
 */
import type { LexicalEditor } from 'lexical';
import { $createParagraphNode, $getSelection, $isRangeSelection, $setSelection, FORMAT_TEXT_COMMAND, REDO_COMMAND, UNDO_COMMAND } from 'lexical';
import { $createHeadingNode, $createQuoteNode, $isHeadingNode, $isQuoteNode } from '@lexical/rich-text';
import { INSERT_ORDERED_LIST_COMMAND, INSERT_UNORDERED_LIST_COMMAND, ListNode, REMOVE_LIST_COMMAND } from '@lexical/list';
import { $isLinkNode } from '@lexical/link';
import { $setBlocksType } from '@lexical/selection';
import { $getNearestNodeOfType } from '@lexical/utils';
import type { ToolbarAction, ToolbarState } from './Toolbar';
import { $selectionFromDom } from './selection';

export const EMPTY_TOOLBAR: ToolbarState = {
	bold: false,
	italic: false,
	underline: false,
	strike: false,
	link: false,
	block: 'paragraph',
	canUndo: false,
	canRedo: false,
};

export function $toolbarState(): Omit<ToolbarState, 'canUndo' | 'canRedo'> {
	const selection = $getSelection();
	if (!$isRangeSelection(selection)) return { ...EMPTY_TOOLBAR, block: 'other' };
	const anchor = selection.anchor.getNode();
	const top = anchor.getKey() === 'root' ? null : anchor.getTopLevelElement();
	const list = $getNearestNodeOfType(anchor, ListNode);
	let block: ToolbarState['block'] = 'paragraph';
	if (list) block = list.getListType() === 'number' ? 'number' : 'bullet';
	else if ($isHeadingNode(top)) block = top.getTag() === 'h2' ? 'h2' : top.getTag() === 'h3' ? 'h3' : 'other';
	else if ($isQuoteNode(top)) block = 'quote';
	const inLink = selection.getNodes().some((node) => $isLinkNode(node) || $isLinkNode(node.getParent()));
	return {
		bold: selection.hasFormat('bold'),
		italic: selection.hasFormat('italic'),
		underline: selection.hasFormat('underline'),
		strike: selection.hasFormat('strikethrough'),
		link: inLink,
		block,
	};
}

/** Turns the selected blocks into `kind`, or back into paragraphs when they are that already. */
function setBlock(editor: LexicalEditor, kind: 'h2' | 'h3' | 'quote', block: ToolbarState['block']): void {
	editor.update(() => {
		const selection = $getSelection();
		if (!$isRangeSelection(selection)) return;
		const off = block === kind;
		$setBlocksType(selection, () => (off ? $createParagraphNode() : kind === 'quote' ? $createQuoteNode() : $createHeadingNode(kind)));
	});
}

/** Runs a toolbar button on the selection the person sees; `block` is what the toolbar shows now. */
export function runToolbarAction(
	editor: LexicalEditor,
	action: ToolbarAction,
	block: ToolbarState['block'],
	{ openDialog, chooseImage }: { openDialog: (dialog: 'link' | 'youtube') => void; chooseImage: () => void },
): void {
	// The toolbar acts on what the person sees selected, even if Lexical has not caught up yet.
	editor.update(() => {
		const current = $selectionFromDom(editor);
		if (current) $setSelection(current);
	});
	switch (action) {
		case 'bold':
		case 'italic':
		case 'underline':
			editor.dispatchCommand(FORMAT_TEXT_COMMAND, action);
			break;
		case 'strike':
			editor.dispatchCommand(FORMAT_TEXT_COMMAND, 'strikethrough');
			break;
		case 'link':
			openDialog('link');
			return;
		case 'h2':
		case 'h3':
		case 'quote':
			setBlock(editor, action, block);
			break;
		case 'bullet':
			editor.dispatchCommand(block === 'bullet' ? REMOVE_LIST_COMMAND : INSERT_UNORDERED_LIST_COMMAND, undefined);
			break;
		case 'number':
			editor.dispatchCommand(block === 'number' ? REMOVE_LIST_COMMAND : INSERT_ORDERED_LIST_COMMAND, undefined);
			break;
		case 'image':
			chooseImage();
			return;
		case 'youtube':
			openDialog('youtube');
			return;
		case 'undo':
			editor.dispatchCommand(UNDO_COMMAND, undefined);
			break;
		case 'redo':
			editor.dispatchCommand(REDO_COMMAND, undefined);
			break;
	}
}

/**
 * The link and video dialogs of the rich-text editor: which is open, the selection they act on
 * (kept from when they opened), and inserting, changing or removing a link.
 */
import { useCallback, useRef, useState } from 'react';
import { $createTextNode, $getRoot, $getSelection, $isRangeSelection, $setSelection, type BaseSelection, type LexicalEditor } from 'lexical';
import { $createLinkNode, $isLinkNode, $toggleLink, LinkNode } from '@lexical/link';
import { $getNearestNodeOfType } from '@lexical/utils';
import { normalizeLink } from './link-url';
import { $selectionFromDom, $stillValid } from './selection';
import type { EditorTexts } from './texts';

function currentLinkUrl(editor: LexicalEditor): string {
	return editor.read(() => {
		const selection = $getSelection();
		if (!$isRangeSelection(selection)) return '';
		const node = selection.anchor.getNode();
		const link = $isLinkNode(node) ? node : $getNearestNodeOfType(node, LinkNode);
		return link?.getURL() ?? '';
	});
}

type DialogKind = 'link' | 'youtube' | null;

/** `inLink`: the selection is in a link now (the toolbar's state). */
export function useLinkDialog(editor: LexicalEditor, texts: EditorTexts, inLink: boolean) {
	const [dialog, setDialog] = useState<DialogKind>(null);
	// Whether a dialog was ever opened (the dialogs are mounted, and their code loaded, from then on).
	const [dialogsShown, setDialogsShown] = useState(false);
	const [linkValue, setLinkValue] = useState('');
	const savedSelection = useRef<BaseSelection | null>(null);

	const openDialog = useCallback(
		(kind: Exclude<DialogKind, null>) => {
			savedSelection.current = editor.read(() => $selectionFromDom(editor) ?? $getSelection()?.clone() ?? null);
			if (kind === 'link') setLinkValue(currentLinkUrl(editor));
			setDialogsShown(true);
			setDialog(kind);
		},
		[editor],
	);

	const restoreSelection = () => {
		const restored = $stillValid(savedSelection.current);
		if (restored) $setSelection(restored);
		else if (!$getSelection()) $getRoot().selectEnd();
	};

	const applyLink = (value: string): string | null => {
		const url = normalizeLink(value, location.origin);
		if (!url) return texts['editor.message.invalidUrl'];
		editor.update(() => {
			restoreSelection();
			const selection = $getSelection();
			if ($isRangeSelection(selection) && selection.isCollapsed() && !inLink) {
				// Nothing selected: the address itself becomes the linked text.
				const link = $createLinkNode(url).append($createTextNode(value.trim()));
				selection.insertNodes([link]);
				link.selectNext();
				return;
			}
			$toggleLink(url);
		});
		editor.focus();
		return null;
	};

	const removeLink = () => {
		editor.update(() => {
			restoreSelection();
			$toggleLink(null);
		});
		editor.focus();
	};

	return { dialog, setDialog, dialogsShown, linkValue, openDialog, restoreSelection, applyLink, removeLink };
}

/**
 * What the editor of ./RichEditor.tsx does on its own commands: undo and redo availability for the
 * toolbar, the shortcuts Lexical lacks (strike, link), a selected image or video removed like a
 * character, files dropped or pasted uploaded, pasted HTML cleaned (./paste-html.ts, loaded when
 * needed) and the schema's transforms (./schema-plugin.ts).
 */
import type { Dispatch, SetStateAction } from 'react';
import type { LexicalEditor } from 'lexical';
import {
	$getRoot,
	$getSelection,
	$isNodeSelection,
	$setSelection,
	CAN_REDO_COMMAND,
	CAN_UNDO_COMMAND,
	COMMAND_PRIORITY_HIGH,
	COMMAND_PRIORITY_LOW,
	FORMAT_TEXT_COMMAND,
	KEY_BACKSPACE_COMMAND,
	KEY_DELETE_COMMAND,
	KEY_DOWN_COMMAND,
	PASTE_COMMAND,
} from 'lexical';
import { DRAG_DROP_PASTE } from '@lexical/rich-text';
import { $generateNodesFromDOM } from '@lexical/html';
import { $insertGeneratedNodes } from '@lexical/clipboard';
import { mergeRegister } from '@lexical/utils';
import { registerSchemaTransforms, shouldUploadPastedFiles } from './schema-plugin';
import type { ToolbarState } from './Toolbar';
import { $stillValid } from './selection';

/** The paste cleaner, loaded on the editor's first focus or first paste (the write page's budget). */
export const pasteCode = () => import('./paste-html');

interface CommandActions {
	setToolbar: Dispatch<SetStateAction<ToolbarState>>;
	openDialog: (dialog: 'link' | 'youtube') => void;
	uploadFiles: (files: File[]) => void;
	/** The paste cleaner could not be loaded. */
	pasteFailed: () => void;
}

/** Registers the commands on `editor`; answers the function that removes them. */
export function registerEditorCommands(editor: LexicalEditor, { setToolbar, openDialog, uploadFiles, pasteFailed }: CommandActions): () => void {
	return mergeRegister(
		editor.registerCommand(
			CAN_UNDO_COMMAND,
			(canUndo) => {
				setToolbar((state) => ({ ...state, canUndo }));
				return false;
			},
			COMMAND_PRIORITY_LOW,
		),
		editor.registerCommand(
			CAN_REDO_COMMAND,
			(canRedo) => {
				setToolbar((state) => ({ ...state, canRedo }));
				return false;
			},
			COMMAND_PRIORITY_LOW,
		),
		// Ctrl/Cmd+Shift+X (strike) and Ctrl/Cmd+K (link); Lexical has B, I, U, Z, Shift+Z and Y.
		editor.registerCommand(
			KEY_DOWN_COMMAND,
			(event) => {
				if (event.isComposing || event.keyCode === 229) return false;
				const mod = event.ctrlKey || event.metaKey;
				if (!mod || event.altKey) return false;
				const key = event.key.toLowerCase();
				if (key === 'x' && event.shiftKey) {
					event.preventDefault();
					editor.dispatchCommand(FORMAT_TEXT_COMMAND, 'strikethrough');
					return true;
				}
				if (key === 'k' && !event.shiftKey) {
					event.preventDefault();
					openDialog('link');
					return true;
				}
				return false;
			},
			COMMAND_PRIORITY_HIGH,
		),
		// A selected image or video goes with Backspace or Delete, like a character.
		...[KEY_BACKSPACE_COMMAND, KEY_DELETE_COMMAND].map((command) =>
			editor.registerCommand(
				command,
				(event) => {
					const selection = $getSelection();
					if (!$isNodeSelection(selection)) return false;
					event.preventDefault();
					const nodes = selection.getNodes();
					const next = nodes.at(-1)?.getNextSibling() ?? nodes[0]?.getPreviousSibling() ?? null;
					for (const node of nodes) node.remove();
					if (next) next.selectStart();
					else $getRoot().selectEnd();
					return true;
				},
				COMMAND_PRIORITY_LOW,
			),
		),
		editor.registerCommand(
			DRAG_DROP_PASTE,
			(files) => {
				uploadFiles(files);
				return true;
			},
			COMMAND_PRIORITY_LOW,
		),
		editor.registerCommand(
			PASTE_COMMAND,
			(event) => {
				if (!(event instanceof ClipboardEvent) || !event.clipboardData) return false;
				const files = [...event.clipboardData.files];
				if (shouldUploadPastedFiles(event.clipboardData)) {
					event.preventDefault();
					uploadFiles(files);
					return true;
				}
				const html = event.clipboardData.getData('text/html');
				if (!html || event.clipboardData.types.includes('application/x-lexical-editor')) return false;
				event.preventDefault();
				// Pasted where the caret was, once the paste cleaner is in (loaded on focus, so at once as a rule).
				const at = editor.read(() => $getSelection()?.clone() ?? null);
				pasteCode().then(
					({ plainPastedDocument }) =>
						editor.update(() => {
							const restored = $stillValid(at);
							if (restored) $setSelection(restored);
							const nodes = $generateNodesFromDOM(editor, plainPastedDocument(html));
							const selection = $getSelection();
							if (selection) $insertGeneratedNodes(editor, nodes, selection);
						}),
					pasteFailed,
				);
				return true;
			},
			COMMAND_PRIORITY_HIGH,
		),
		registerSchemaTransforms(editor, typeof location === 'undefined' ? undefined : location.origin),
	);
}

/**
 * The post body's rich-text editor (Lexical): paragraphs with bold, italic, underline, strike and
 * links, headings, quotes, lists, uploaded images and YouTube videos, with undo and redo, keyboard
 * shortcuts and IME composition. Its content goes out as the stored document (./document.ts),
 * never as HTML, and only what that document allows stays in the editor: pasted styles, fonts,
 * colours, nested lists and foreign images are normalised away as they arrive (./schema-plugin.ts).
 * An @ being typed suggests members (src/islands/mentions/, loaded on the first @ written).
 * Lexical mounts only in the browser; the server render is a still frame of the same size.
 */
import type { ChannelRef } from '@/lib/urls';
import { lazy, Suspense, useEffect, useId, useImperativeHandle, useMemo, useRef, useState, type Ref } from 'react';
import {
	$createParagraphNode,
	$getRoot,
	$getSelection,
	$isElementNode,
	$isNodeSelection,
	$isRangeSelection,
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
	REDO_COMMAND,
	UNDO_COMMAND,
} from 'lexical';
import { LexicalComposer } from '@lexical/react/LexicalComposer';
import { useLexicalComposerContext } from '@lexical/react/LexicalComposerContext';
import { RichTextPlugin } from '@lexical/react/LexicalRichTextPlugin';
import { ContentEditable } from '@lexical/react/LexicalContentEditable';
import { HistoryPlugin } from '@lexical/react/LexicalHistoryPlugin';
import { ListPlugin } from '@lexical/react/LexicalListPlugin';
import { LinkPlugin } from '@lexical/react/LexicalLinkPlugin';
import { LexicalErrorBoundary } from '@lexical/react/LexicalErrorBoundary';
import { $createHeadingNode, $createQuoteNode, $isHeadingNode, $isQuoteNode, DRAG_DROP_PASTE, HeadingNode, QuoteNode } from '@lexical/rich-text';
import { $isListNode, INSERT_ORDERED_LIST_COMMAND, INSERT_UNORDERED_LIST_COMMAND, ListItemNode, ListNode, REMOVE_LIST_COMMAND } from '@lexical/list';
import { $isLinkNode, LinkNode } from '@lexical/link';
import { $setBlocksType } from '@lexical/selection';
import { $generateNodesFromDOM } from '@lexical/html';
import { $insertGeneratedNodes } from '@lexical/clipboard';
import { $getNearestNodeOfType, mergeRegister } from '@lexical/utils';
import { youTubeVideoId } from '@/lib/youtube-url';
import type { ContentDocument } from '@/schemas/content';
import { useHydrated } from '@/islands/common/use-hydrated';
import { $exportDocument, $importDocument, documentIsEmpty } from './document';
import { normalizeLink } from './link-url';
import { $createYouTubeNode, IMAGE_ACCEPT, ImageNode, MediaLabelsContext, YouTubeNode } from './media-nodes';
import { registerSchemaTransforms, shouldUploadPastedFiles } from './schema-plugin';
import { GuidanceNode } from './guidance-node';
import Toolbar, { type ToolbarAction, type ToolbarState } from './Toolbar';
import { $insertBlock, $rangeSelection, $selectionFromDom, $stillValid } from './selection';
import { interpolate, uploadCode, useUploads } from './use-uploads';
import { useLinkDialog } from './use-link';
import type { EditorTexts } from './texts';
import './editor.css';
// The @ suggestions' popup is styled with the page; its code loads on the first @.
import '@/islands/mentions/mentions.css';

export interface RichEditorHandle {
	/** Replaces the whole content (a template or a draft being loaded). */
	setDocument(doc: ContentDocument): void;
	getDocument(): ContentDocument;
	/** No text, no image, no video. */
	isEmpty(): boolean;
	focus(): void;
	/** Puts the caret in the first line under the document's heading number `index` (0 for the first), making one if none is there. */
	focusUnder(index: number): void;
}

/** A new member's limit of images and videos in one post, with its texts (filled in on the server). */
export interface MediaLimit {
	max: number;
	/** Beside the image button: "1 image or video per post for new members". */
	note: string;
	/** An image or video past the limit, refused at once. */
	refused: string;
}

export interface RichEditorProps {
	initialDocument: ContentDocument | null;
	/** Called after every change with the converted document (the form debounces). */
	onChange?: (doc: ContentDocument) => void;
	/** The channel whose member API takes the uploads (POST uploads) and suggests the @ mentions. */
	channel: ChannelRef;
	texts: EditorTexts;
	/** The id of the visible label of the body field (aria-labelledby). */
	labelledBy: string;
	/** An upload refused because the session ended / the member is banned: the form runs the forced-login / ban flow of docs/reference/product-rules.md#errors-and-texts. */
	onAuthFailure?: (error: unknown) => void;
	/** A new member's limit (docs/reference/uploads.md); null or left out for anyone else. */
	mediaLimit?: MediaLimit | null;
	handleRef?: Ref<RichEditorHandle>;
}

/**
 * What the writer needs only once they act, loaded then (or when they first focus the editor), not
 * with the editor: the link and video dialogs, the upload code and the paste cleaner. The write
 * page's JavaScript before the editor is usable has a budget (tests/e2e/budget.spec.ts).
 */
const PromptDialog = lazy(() => import('./PromptDialog'));
const pasteCode = () => import('./paste-html');
/** The @ suggestions, loaded once an @ is written (src/islands/mentions/EditorMentions.tsx). */
const EditorMentions = lazy(() => import('@/islands/mentions/EditorMentions'));
let preloaded = false;
function preloadActions(): void {
	if (preloaded) return;
	preloaded = true;
	for (const load of [() => import('./PromptDialog'), uploadCode, pasteCode]) load().catch(() => undefined);
}

const NODES = [HeadingNode, QuoteNode, ListNode, ListItemNode, LinkNode, ImageNode, YouTubeNode, GuidanceNode];

/** Class names Lexical puts on what it renders, styled in editor.css like the post page's body. */
const THEME = {
	paragraph: 'editor-paragraph',
	quote: 'editor-quote',
	heading: { h2: 'editor-h2', h3: 'editor-h3' },
	list: { ul: 'editor-ul', ol: 'editor-ol', listitem: 'editor-li', nested: { listitem: 'editor-nested-li' } },
	link: 'editor-link',
	text: {
		bold: 'editor-bold',
		italic: 'editor-italic',
		underline: 'editor-underline',
		strikethrough: 'editor-strike',
		underlineStrikethrough: 'editor-underline-strike',
	},
};

const EMPTY_TOOLBAR: ToolbarState = {
	bold: false,
	italic: false,
	underline: false,
	strike: false,
	link: false,
	block: 'paragraph',
	canUndo: false,
	canRedo: false,
};

function $toolbarState(): Omit<ToolbarState, 'canUndo' | 'canRedo'> {
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

/** Everything that needs the Lexical editor: the toolbar, shortcuts, paste, uploads, dialogs and the handle. */
function EditorShell({ initialDocument, onChange, channel, texts, labelledBy, onAuthFailure, mediaLimit, handleRef }: RichEditorProps) {
	const [editor] = useLexicalComposerContext();
	const contentId = useId();
	const [toolbar, setToolbar] = useState<ToolbarState>(EMPTY_TOOLBAR);
	const [message, setMessage] = useState<string | null>(null);
	const [mentions, setMentions] = useState(false);
	const fileInput = useRef<HTMLInputElement>(null);
	const { uploads, uploadFiles, mediaFull } = useUploads(editor, { channel, texts, onAuthFailure, mediaLimit, setMessage });
	const { dialog, setDialog, dialogsShown, linkValue, openDialog, restoreSelection, applyLink, removeLink } = useLinkDialog(
		editor,
		texts,
		toolbar.link,
	);
	const onChangeRef = useRef(onChange);
	onChangeRef.current = onChange;
	const lastEmitted = useRef(JSON.stringify(initialDocument ?? null));

	useImperativeHandle(
		handleRef,
		() => ({
			setDocument(doc) {
				editor.update(() => $importDocument(doc), { discrete: true });
			},
			getDocument() {
				return editor.read(() => $exportDocument());
			},
			isEmpty() {
				return documentIsEmpty(editor.read(() => $exportDocument()));
			},
			focus() {
				editor.focus();
			},
			focusUnder(index) {
				editor.update(() => {
					const heading = $getRoot().getChildren().filter($isHeadingNode)[index];
					if (!heading) return;
					let line = heading.getNextSibling();
					if (!$isElementNode(line) || $isHeadingNode(line)) heading.insertAfter((line = $createParagraphNode()));
					($isListNode(line) ? line.getFirstChild() : line)?.selectEnd();
				});
				editor.focus();
			},
		}),
		[editor],
	);

	// Changes go out as documents, once per real change (not per caret move or normalisation).
	useEffect(
		() =>
			editor.registerUpdateListener(({ editorState, dirtyElements, dirtyLeaves }) => {
				const selectionState = editorState.read(() => $toolbarState(), { editor });
				setToolbar((state) => ({ ...state, ...selectionState }));
				if (dirtyElements.size === 0 && dirtyLeaves.size === 0) return;
				const doc = editorState.read(() => $exportDocument(), { editor });
				const json = JSON.stringify(doc);
				if (json === lastEmitted.current) return;
				lastEmitted.current = json;
				if (json.includes('@')) setMentions(true);
				onChangeRef.current?.(doc);
			}),
		[editor],
	);

	useEffect(
		() =>
			mergeRegister(
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
							() => setMessage(texts['common.message.error']),
						);
						return true;
					},
					COMMAND_PRIORITY_HIGH,
				),
				registerSchemaTransforms(editor, typeof location === 'undefined' ? undefined : location.origin),
			),
		[editor, openDialog, uploadFiles, texts],
	);

	const setBlock = (kind: 'h2' | 'h3' | 'quote') => {
		editor.update(() => {
			const selection = $getSelection();
			if (!$isRangeSelection(selection)) return;
			const off = toolbar.block === kind;
			$setBlocksType(selection, () => (off ? $createParagraphNode() : kind === 'quote' ? $createQuoteNode() : $createHeadingNode(kind)));
		});
	};

	const onAction = (action: ToolbarAction) => {
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
				setBlock(action);
				break;
			case 'bullet':
				editor.dispatchCommand(toolbar.block === 'bullet' ? REMOVE_LIST_COMMAND : INSERT_UNORDERED_LIST_COMMAND, undefined);
				break;
			case 'number':
				editor.dispatchCommand(toolbar.block === 'number' ? REMOVE_LIST_COMMAND : INSERT_ORDERED_LIST_COMMAND, undefined);
				break;
			case 'image':
				fileInput.current?.click();
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
	};

	const insertVideo = (value: string): string | null => {
		const videoId = youTubeVideoId(value);
		if (!videoId) return texts['editor.message.invalidUrl'];
		if (mediaFull()) return mediaLimit!.refused;
		editor.update(() => {
			restoreSelection();
			$insertBlock($createYouTubeNode(videoId));
		});
		editor.focus();
		return null;
	};

	const mediaLabels = useMemo(
		() => ({ alt: texts['editor.image.alt'], removeImage: texts['editor.image.remove'], removeVideo: texts['editor.video.remove'] }),
		[texts],
	);

	return (
		<MediaLabelsContext.Provider value={mediaLabels}>
			<Toolbar state={toolbar} texts={texts} controls={contentId} disabled={false} mediaNote={mediaLimit?.note} onAction={onAction} />
			<div
				className="editor-frame"
				onDragOver={(event) => {
					if (event.dataTransfer.types.includes('Files')) event.preventDefault();
				}}
				onDrop={(event) => {
					// Files dropped beside the text (on the padding) are uploaded too, not opened by the browser.
					if (event.defaultPrevented || event.dataTransfer.files.length === 0) return;
					event.preventDefault();
					uploadFiles([...event.dataTransfer.files]);
				}}
			>
				<RichTextPlugin
					contentEditable={
						<ContentEditable
							id={contentId}
							className="editor-content"
							aria-labelledby={labelledBy}
							aria-multiline
							aria-placeholder={texts['editor.placeholder']}
							placeholder={<div className="editor-placeholder">{texts['editor.placeholder']}</div>}
						/>
					}
					ErrorBoundary={LexicalErrorBoundary}
				/>
			</div>
			{uploads.length > 0 && (
				<ul className="editor-uploads" aria-live="polite">
					{uploads.map((upload) => (
						<li key={upload.id}>
							<label>
								<span>{interpolate(texts['editor.upload.progress'], { name: upload.name })}</span>
								<progress value={upload.loaded} max={upload.total || 1} />
							</label>
						</li>
					))}
				</ul>
			)}
			{message && (
				<div className="editor-message" role="alert">
					<span>{message}</span>
					<button type="button" className="editor-message-dismiss" aria-label={texts['editor.message.dismiss']} onClick={() => setMessage(null)}>
						×
					</button>
				</div>
			)}
			<input
				ref={fileInput}
				type="file"
				accept={IMAGE_ACCEPT}
				multiple
				hidden
				data-editor-file-input
				onChange={(event) => {
					const files = [...(event.target.files ?? [])];
					event.target.value = '';
					uploadFiles(files);
				}}
			/>
			{mentions && (
				<Suspense fallback={null}>
					<EditorMentions editor={editor} range={$rangeSelection} channel={channel} texts={texts} />
				</Suspense>
			)}
			{dialogsShown && (
				<Suspense fallback={null}>
					<PromptDialog
						name="link"
						open={dialog === 'link'}
						title={texts['editor.link.title']}
						label={texts['editor.link.label']}
						initialValue={linkValue}
						submitLabel={texts['editor.dialog.apply']}
						cancelLabel={texts['common.button.cancel']}
						extraAction={toolbar.link ? { label: texts['editor.unlink'], run: removeLink } : undefined}
						onSubmit={applyLink}
						onClose={() => setDialog(null)}
					/>
					<PromptDialog
						name="youtube"
						open={dialog === 'youtube'}
						title={texts['editor.youtube.title']}
						label={texts['editor.youtube.label']}
						initialValue=""
						submitLabel={texts['editor.dialog.insert']}
						cancelLabel={texts['common.button.cancel']}
						onSubmit={insertVideo}
						onClose={() => setDialog(null)}
					/>
				</Suspense>
			)}
		</MediaLabelsContext.Provider>
	);
}

export default function RichEditor(props: RichEditorProps) {
	const hydrated = useHydrated();
	const { initialDocument } = props;
	const initialConfig = useMemo(
		() => ({
			namespace: 'post-body',
			nodes: NODES,
			theme: THEME,
			onError: (error: Error) => console.error(error),
			editorState: () => $importDocument(initialDocument ?? { type: 'doc', blocks: [] }),
		}),
		// The initial document is read once; later ones go through the handle's setDocument.
		[],
	);
	return (
		// The writer's first focus in the editor (its text or toolbar) fetches what their actions need.
		<div className="rich-editor" data-rich-editor={hydrated ? 'ready' : 'loading'} onFocus={hydrated ? preloadActions : undefined}>
			{hydrated ? (
				<LexicalComposer initialConfig={initialConfig}>
					<EditorShell {...props} />
					<HistoryPlugin />
					<ListPlugin />
					<LinkPlugin validateUrl={(url) => normalizeLink(url, location.origin) !== null} />
				</LexicalComposer>
			) : (
				<>
					<div className="editor-toolbar" aria-hidden="true" />
					<div className="editor-frame">
						<div className="editor-content" aria-labelledby={props.labelledBy} aria-busy="true" />
					</div>
				</>
			)}
		</div>
	);
}

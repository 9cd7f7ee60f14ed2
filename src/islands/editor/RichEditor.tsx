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
import { $createParagraphNode, $getRoot, $isElementNode } from 'lexical';
import { LexicalComposer } from '@lexical/react/LexicalComposer';
import { useLexicalComposerContext } from '@lexical/react/LexicalComposerContext';
import { RichTextPlugin } from '@lexical/react/LexicalRichTextPlugin';
import { ContentEditable } from '@lexical/react/LexicalContentEditable';
import { HistoryPlugin } from '@lexical/react/LexicalHistoryPlugin';
import { ListPlugin } from '@lexical/react/LexicalListPlugin';
import { LinkPlugin } from '@lexical/react/LexicalLinkPlugin';
import { LexicalErrorBoundary } from '@lexical/react/LexicalErrorBoundary';
import { $isHeadingNode, HeadingNode, QuoteNode } from '@lexical/rich-text';
import { $isListNode, ListItemNode, ListNode } from '@lexical/list';
import { LinkNode } from '@lexical/link';
import { youTubeVideoId } from '@/lib/youtube-url';
import type { ContentDocument } from '@/schemas/content';
import { useHydrated } from '@/islands/common/use-hydrated';
import { $exportDocument, $importDocument, documentIsEmpty } from './document';
import { normalizeLink } from './link-url';
import { $createYouTubeNode, IMAGE_ACCEPT, ImageNode, MediaLabelsContext, YouTubeNode } from './media-nodes';
import { GuidanceNode } from './guidance-node';
import Toolbar, { type ToolbarAction, type ToolbarState } from './Toolbar';
import { $insertBlock, $rangeSelection } from './selection';
import { interpolate, uploadCode, useUploads } from './use-uploads';
import { useLinkDialog } from './use-link';
import type { EditorTexts } from './texts';
import { registerEditorCommands, pasteCode } from './editor-commands';
import { $toolbarState, EMPTY_TOOLBAR, runToolbarAction } from './toolbar-actions';
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
		() => registerEditorCommands(editor, { setToolbar, openDialog, uploadFiles, pasteFailed: () => setMessage(texts['common.message.error']) }),
		[editor, openDialog, uploadFiles, texts],
	);

	const onAction = (action: ToolbarAction) =>
		runToolbarAction(editor, action, toolbar.block, { openDialog, chooseImage: () => fileInput.current?.click() });

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

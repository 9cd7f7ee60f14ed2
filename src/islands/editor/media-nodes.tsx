/**
 * The editor's two block decorators: an uploaded image (with its size, so nothing shifts, and an
 * editable description) and a YouTube video (a card with the video id: no iframe and no thumbnail
 * from i.ytimg.com, because the page's policy only loads images from this site). Both are
 * selectable and deletable with the keyboard like any block. A pasted `<img>` is kept only when it
 * is one of this site's uploads; a pasted YouTube iframe becomes a video.
 */
import { createContext, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import {
	$applyNodeReplacement,
	$getNodeByKey,
	DecoratorNode,
	type DOMConversionMap,
	type DOMConversionOutput,
	type DOMExportOutput,
	type EditorConfig,
	type LexicalEditor,
	type LexicalNode,
	type NodeKey,
	type SerializedLexicalNode,
	type Spread,
} from 'lexical';
import { useLexicalComposerContext } from '@lexical/react/LexicalComposerContext';
import { useLexicalNodeSelection } from '@lexical/react/useLexicalNodeSelection';
import { isSitePath } from '@/lib/safe-url';
import { YOUTUBE_VIDEO_ID, youTubeVideoId } from '@/lib/youtube-url';

/**
 * Where post images may come from: this site's uploads and the demo's own files for seeded posts.
 * The rule of `isImageSrc` in src/schemas/content.ts (a unit test holds them equal), repeated
 * because that module loads zod.
 */
const IMAGE_PATH = /^\/(?:uploads\/[A-Za-z0-9_-]{22}\.(?:jpg|png|gif|webp)|demo\/[a-z0-9][a-z0-9-]*\.(?:svg|png|jpg|gif|webp))$/;
const MAX_DIMENSION = 10000;
export const ALT_MAX_LENGTH = 300;

/** The editor's file picker's types: IMAGE_TYPES of ./upload.ts (a unit test holds them equal), repeated so the upload code loads only when used. */
export const IMAGE_ACCEPT = 'image/jpeg,image/png,image/gif,image/webp';

/**
 * The path of an image on this site, or null: `/uploads/…` (or `/demo/…`) as a path, or as an
 * absolute URL of `origin` (what the browser puts on the clipboard when copying from a post).
 */
export function imagePathOnSite(raw: string, origin?: string): string | null {
	let path = raw.trim();
	if (origin && path.startsWith(`${origin}/`)) path = path.slice(origin.length);
	return isSitePath(path) && IMAGE_PATH.test(path) ? path : null;
}

function dimension(value: unknown): number | undefined {
	const number = typeof value === 'string' ? Number(value) : value;
	return typeof number === 'number' && Number.isInteger(number) && number > 0 && number <= MAX_DIMENSION ? number : undefined;
}

/**
 * Events inside a decorator's own field (the image description) belong to that field: Lexical
 * listens on the editable root above it and would otherwise treat Backspace there as deleting
 * the image, or a paste there as a paste into the post.
 */
const FIELD_EVENTS = [
	'keydown',
	'keyup',
	'keypress',
	'beforeinput',
	'input',
	'paste',
	'cut',
	'copy',
	'drop',
	'compositionstart',
	'compositionupdate',
	'compositionend',
] as const;

function useOwnEvents<T extends HTMLElement>() {
	const ref = useRef<T>(null);
	useEffect(() => {
		const field = ref.current;
		if (!field) return;
		const stop = (event: Event) => event.stopPropagation();
		for (const name of FIELD_EVENTS) field.addEventListener(name, stop);
		return () => {
			for (const name of FIELD_EVENTS) field.removeEventListener(name, stop);
		};
	}, []);
	return ref;
}

/** The labels the decorators show; decorators render inside the editor's React tree, so a context reaches them. */
export interface MediaLabels {
	alt: string;
	removeImage: string;
	removeVideo: string;
}
export const MediaLabelsContext = createContext<MediaLabels>({ alt: 'Image description', removeImage: 'Remove image', removeVideo: 'Remove video' });

function removeNode(editor: LexicalEditor, nodeKey: NodeKey): void {
	editor.update(() => {
		const node = $getNodeByKey(nodeKey);
		if (!node) return;
		// The caret goes where the block was, so typing continues there.
		const next = node.getNextSibling() ?? node.getPreviousSibling();
		node.remove();
		if (next) next.selectStart();
	});
	editor.focus();
}

function MediaFrame({
	nodeKey,
	className,
	removeLabel,
	children,
}: {
	nodeKey: NodeKey;
	className: string;
	removeLabel: string;
	children: ReactNode;
}) {
	const [editor] = useLexicalComposerContext();
	const [isSelected, setSelected, clearSelection] = useLexicalNodeSelection(nodeKey);
	return (
		<div
			className={`editor-media ${className}${isSelected ? ' is-selected' : ''}`}
			data-selected={isSelected || undefined}
			onClick={(event) => {
				if ((event.target as Element).closest('input, button')) return;
				if (!event.shiftKey) clearSelection();
				setSelected(true);
			}}
		>
			{children}
			<button type="button" className="editor-media-remove" aria-label={removeLabel} title={removeLabel} onClick={() => removeNode(editor, nodeKey)}>
				<svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">
					<path d="M6 6l12 12M18 6L6 18" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" fill="none" />
				</svg>
			</button>
		</div>
	);
}

function ImageView({
	nodeKey,
	src,
	alt,
	width,
	height,
}: {
	nodeKey: NodeKey;
	src: string;
	alt: string;
	width: number | undefined;
	height: number | undefined;
}) {
	const [editor] = useLexicalComposerContext();
	const [value, setValue] = useState(alt);
	const fieldRef = useOwnEvents<HTMLInputElement>();
	const labels = useContext(MediaLabelsContext);
	useEffect(() => setValue(alt), [alt]);
	const commit = (next: string) => {
		setValue(next);
		editor.update(() => {
			const node = $getNodeByKey(nodeKey);
			if ($isImageNode(node)) node.setAlt(next);
		});
	};
	return (
		<MediaFrame nodeKey={nodeKey} className="editor-image" removeLabel={labels.removeImage}>
			<img src={src} alt={value} width={width} height={height} draggable={false} />
			<label className="editor-image-alt">
				<span>{labels.alt}</span>
				<input ref={fieldRef} type="text" value={value} maxLength={ALT_MAX_LENGTH} onChange={(event) => commit(event.target.value)} />
			</label>
		</MediaFrame>
	);
}

function VideoView({ nodeKey, videoId }: { nodeKey: NodeKey; videoId: string }) {
	const labels = useContext(MediaLabelsContext);
	return (
		<MediaFrame nodeKey={nodeKey} className="editor-video" removeLabel={labels.removeVideo}>
			<span className="youtube-play" aria-hidden="true" />
			<span className="editor-video-label">
				<strong>YouTube</strong> <span data-video-id>{videoId}</span>
			</span>
		</MediaFrame>
	);
}

export interface ImagePayload {
	src: string;
	alt: string;
	width?: number | undefined;
	height?: number | undefined;
}

export type SerializedImageNode = Spread<{ src: string; alt: string; width?: number; height?: number }, SerializedLexicalNode>;

/**
 * A block of the document the editor shows as a React part inside a `<figure>` of the rendered
 * post's class: never inline, selectable with the keyboard, drawn by React rather than the DOM.
 */
abstract class MediaBlockNode extends DecoratorNode<ReactNode> {
	/** The rendered post's class of this block's figure (src/server/posts/content-html.ts). */
	protected abstract figureClass(): string;

	override createDOM(_config: EditorConfig): HTMLElement {
		const element = document.createElement('figure');
		element.className = this.figureClass();
		return element;
	}

	override updateDOM(): boolean {
		return false;
	}

	override isInline(): boolean {
		return false;
	}

	override isKeyboardSelectable(): boolean {
		return true;
	}
}

export class ImageNode extends MediaBlockNode {
	__src: string;
	__alt: string;
	__width: number | undefined;
	__height: number | undefined;

	static override getType(): string {
		return 'image';
	}

	static override clone(node: ImageNode): ImageNode {
		return new ImageNode({ src: node.__src, alt: node.__alt, width: node.__width, height: node.__height }, node.__key);
	}

	static override importJSON(json: SerializedImageNode): ImageNode {
		return $createImageNode(json);
	}

	static override importDOM(): DOMConversionMap | null {
		return {
			img: () => ({ conversion: convertImageElement, priority: 0 }),
		};
	}

	constructor(payload: ImagePayload, key?: NodeKey) {
		super(key);
		this.__src = payload.src;
		this.__alt = payload.alt.slice(0, ALT_MAX_LENGTH);
		this.__width = dimension(payload.width);
		this.__height = dimension(payload.height);
	}

	override exportJSON(): SerializedImageNode {
		return {
			...super.exportJSON(),
			src: this.__src,
			alt: this.__alt,
			...(this.__width ? { width: this.__width } : {}),
			...(this.__height ? { height: this.__height } : {}),
		};
	}

	override exportDOM(): DOMExportOutput {
		const image = document.createElement('img');
		image.src = this.__src;
		image.alt = this.__alt;
		if (this.__width) image.width = this.__width;
		if (this.__height) image.height = this.__height;
		return { element: image };
	}

	protected figureClass(): string {
		return 'content-image';
	}

	getPayload(): ImagePayload {
		const node = this.getLatest();
		return { src: node.__src, alt: node.__alt, width: node.__width, height: node.__height };
	}

	setAlt(alt: string): this {
		const writable = this.getWritable();
		writable.__alt = alt.slice(0, ALT_MAX_LENGTH);
		return writable;
	}

	override getTextContent(): string {
		return '';
	}

	override decorate(): ReactNode {
		return <ImageView nodeKey={this.getKey()} src={this.__src} alt={this.__alt} width={this.__width} height={this.__height} />;
	}
}

function convertImageElement(element: HTMLElement): DOMConversionOutput {
	const image = element as HTMLImageElement;
	const src = imagePathOnSite(image.getAttribute('src') ?? '', typeof location === 'undefined' ? undefined : location.origin);
	if (!src) return { node: null };
	return {
		node: $createImageNode({
			src,
			alt: image.getAttribute('alt') ?? '',
			width: dimension(image.getAttribute('width')),
			height: dimension(image.getAttribute('height')),
		}),
	};
}

export function $createImageNode(payload: ImagePayload): ImageNode {
	return $applyNodeReplacement(new ImageNode(payload));
}

export function $isImageNode(node: LexicalNode | null | undefined): node is ImageNode {
	return node instanceof ImageNode;
}

export type SerializedYouTubeNode = Spread<{ videoId: string }, SerializedLexicalNode>;

export class YouTubeNode extends MediaBlockNode {
	__videoId: string;

	static override getType(): string {
		return 'youtube';
	}

	static override clone(node: YouTubeNode): YouTubeNode {
		return new YouTubeNode(node.__videoId, node.__key);
	}

	static override importJSON(json: SerializedYouTubeNode): YouTubeNode {
		return $createYouTubeNode(json.videoId);
	}

	static override importDOM(): DOMConversionMap | null {
		return {
			iframe: () => ({ conversion: convertVideoElement, priority: 1 }),
		};
	}

	constructor(videoId: string, key?: NodeKey) {
		super(key);
		this.__videoId = videoId;
	}

	override exportJSON(): SerializedYouTubeNode {
		return { ...super.exportJSON(), videoId: this.__videoId };
	}

	override exportDOM(): DOMExportOutput {
		const link = document.createElement('a');
		link.href = `https://www.youtube.com/watch?v=${this.__videoId}`;
		link.textContent = link.href;
		return { element: link };
	}

	protected figureClass(): string {
		return 'content-video';
	}

	getVideoId(): string {
		return this.getLatest().__videoId;
	}

	override getTextContent(): string {
		return '';
	}

	override decorate(): ReactNode {
		return <VideoView nodeKey={this.getKey()} videoId={this.__videoId} />;
	}
}

function convertVideoElement(element: HTMLElement): DOMConversionOutput {
	const videoId = youTubeVideoId(element.getAttribute('src') ?? '');
	return { node: videoId ? $createYouTubeNode(videoId) : null };
}

export function $createYouTubeNode(videoId: string): YouTubeNode {
	if (!YOUTUBE_VIDEO_ID.test(videoId)) throw new Error('not a YouTube video id');
	return $applyNodeReplacement(new YouTubeNode(videoId));
}

export function $isYouTubeNode(node: LexicalNode | null | undefined): node is YouTubeNode {
	return node instanceof YouTubeNode;
}

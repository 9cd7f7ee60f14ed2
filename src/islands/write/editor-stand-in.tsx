/**
 * A stand-in for the rich editor (src/islands/editor/RichEditor.tsx, built on its own branch) with
 * the same props and handle: a textarea whose lines are paragraphs. Removed when the editor lands.
 */
import { useImperativeHandle, useState, type Ref } from 'react';
import type { ContentDocument } from '@/schemas/content';

export interface RichEditorHandle {
	setDocument(doc: ContentDocument): void;
	getDocument(): ContentDocument;
	isEmpty(): boolean;
	focus(): void;
}

export const EDITOR_TEXT_KEYS = [] as const;
export type EditorTexts = Record<(typeof EDITOR_TEXT_KEYS)[number], string>;

export interface RichEditorProps {
	initialDocument: ContentDocument | null;
	onChange?: (doc: ContentDocument) => void;
	uploadUrl: string;
	texts: EditorTexts;
	labelledBy: string;
	onAuthFailure?: (error: unknown) => void;
	handleRef?: Ref<RichEditorHandle>;
}

export function emptyDocument(): ContentDocument {
	return { type: 'doc', blocks: [] };
}

export function documentIsEmpty(doc: ContentDocument): boolean {
	return doc.blocks.every((block) => (block.type === 'paragraph' || block.type === 'heading' || block.type === 'quote' ? block.children.every((inline) => inline.text.trim() === '') : block.type === 'list' ? block.items.every((item) => item.every((inline) => inline.text.trim() === '')) : false));
}

function toText(doc: ContentDocument | null): string {
	return (doc?.blocks ?? []).map((block) => ('children' in block ? block.children.map((inline) => inline.text).join('') : block.type === 'list' ? block.items.map((item) => item.map((inline) => inline.text).join('')).join('\n') : '')).join('\n');
}

function toDocument(text: string): ContentDocument {
	return { type: 'doc', blocks: text === '' ? [] : text.split('\n').map((line) => ({ type: 'paragraph' as const, children: line ? [{ text: line }] : [] })) };
}

export default function RichEditor({ initialDocument, onChange, labelledBy, handleRef }: RichEditorProps) {
	const [text, setText] = useState(() => toText(initialDocument));
	useImperativeHandle(handleRef, () => ({
		setDocument: (doc) => setText(toText(doc)),
		getDocument: () => toDocument(text),
		isEmpty: () => documentIsEmpty(toDocument(text)),
		focus: () => document.getElementById('editor-stand-in')?.focus(),
	}));
	return (
		<textarea
			id="editor-stand-in"
			className="editor-stand-in"
			aria-labelledby={labelledBy}
			rows={12}
			value={text}
			onChange={(event) => {
				setText(event.target.value);
				onChange?.(toDocument(event.target.value));
			}}
		/>
	);
}

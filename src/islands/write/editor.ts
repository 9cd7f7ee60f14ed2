/** The rich editor as the write form uses it: one place that names the editor's modules. */
export { default as RichEditor, type MediaLimit, type RichEditorHandle } from '@/islands/editor/RichEditor';
export { EDITOR_TEXT_KEYS, type EditorTexts } from '@/islands/editor/texts';
export { emptyDocument, documentIsEmpty } from '@/islands/editor/document';

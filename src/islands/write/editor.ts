/** The rich editor as the write form uses it: one place that names the editor's modules. */
export { default as RichEditor, EDITOR_TEXT_KEYS, emptyDocument, documentIsEmpty, type RichEditorHandle, type EditorTexts } from './editor-stand-in';

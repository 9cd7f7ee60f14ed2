/**
 * A template's guidance in the editor (src/schemas/guidance.ts): a paragraph that shows its hint
 * greyed while it is empty, like a form field's placeholder (editor.css draws the hint from
 * `data-hint`, so it is never text of the post). Typing, pasting or composing in it fills it as
 * any paragraph; Enter after it starts a plain paragraph. Turned into a heading, quote or list it
 * is no longer guidance. Publishing keeps what was written in it and drops it when left empty.
 */
import { ParagraphNode, type EditorConfig, type LexicalNode, type LexicalUpdateJSON, type SerializedParagraphNode, type Spread } from 'lexical';

/** GUIDANCE_HINT_MAX_LENGTH of src/schemas/content.ts (a unit test holds them equal), repeated because that module loads zod. */
export const GUIDANCE_HINT_MAX_LENGTH = 500;

export type SerializedGuidanceNode = Spread<{ hint: string }, SerializedParagraphNode>;

export class GuidanceNode extends ParagraphNode {
	__hint: string;

	override $config() {
		return this.config('guidance', { extends: ParagraphNode });
	}

	constructor(hint = '', key?: string) {
		super(key);
		this.__hint = hint;
	}

	override afterCloneFrom(previous: this): void {
		super.afterCloneFrom(previous);
		this.__hint = previous.__hint;
	}

	override updateFromJSON(json: LexicalUpdateJSON<SerializedGuidanceNode>): this {
		return super.updateFromJSON(json).setHint(typeof json.hint === 'string' ? json.hint : '');
	}

	override exportJSON(): SerializedGuidanceNode {
		return { ...super.exportJSON(), hint: this.getHint() };
	}

	override createDOM(config: EditorConfig): HTMLElement {
		const element = super.createDOM(config);
		element.classList.add('editor-guidance');
		element.setAttribute('data-hint', this.__hint);
		return element;
	}

	override updateDOM(previous: this, element: HTMLElement): boolean {
		if (previous.__hint !== this.__hint) element.setAttribute('data-hint', this.__hint);
		return false;
	}

	getHint(): string {
		return this.getLatest().__hint;
	}

	setHint(hint: string): this {
		const writable = this.getWritable();
		writable.__hint = hint;
		return writable;
	}
}

export function $createGuidanceNode(hint: string): GuidanceNode {
	return new GuidanceNode(hint);
}

export function $isGuidanceNode(node: LexicalNode | null | undefined): node is GuidanceNode {
	return node instanceof GuidanceNode;
}

/**
 * The editor's toolbar: one tab stop (a roving tabindex: the arrow keys, Home and End move between
 * buttons), each button labelled and, where it toggles, `aria-pressed` with the selection's state.
 */
import { useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import type { EditorTexts } from './texts';

type BlockKind = 'paragraph' | 'h2' | 'h3' | 'quote' | 'bullet' | 'number' | 'other';

export interface ToolbarState {
	bold: boolean;
	italic: boolean;
	underline: boolean;
	strike: boolean;
	link: boolean;
	block: BlockKind;
	canUndo: boolean;
	canRedo: boolean;
}

export type ToolbarAction =
	| 'bold'
	| 'italic'
	| 'underline'
	| 'strike'
	| 'link'
	| 'h2'
	| 'h3'
	| 'quote'
	| 'bullet'
	| 'number'
	| 'image'
	| 'youtube'
	| 'undo'
	| 'redo';

const ICONS: Record<string, ReactNode> = {
	link: <path d="M10 14a4 4 0 0 0 5.7 0l3-3a4 4 0 0 0-5.7-5.7l-1.2 1.2M14 10a4 4 0 0 0-5.7 0l-3 3a4 4 0 0 0 5.7 5.7l1.2-1.2" />,
	quote: <path d="M9.5 7H6a1 1 0 0 0-1 1v3.5a1 1 0 0 0 1 1h3V13c0 1.8-1 3-3 3.5M18.5 7H15a1 1 0 0 0-1 1v3.5a1 1 0 0 0 1 1h3V13c0 1.8-1 3-3 3.5" />,
	bullet: (
		<>
			<path d="M10 7h10M10 12h10M10 17h10" />
			<circle cx="5" cy="7" r="1.2" fill="currentColor" />
			<circle cx="5" cy="12" r="1.2" fill="currentColor" />
			<circle cx="5" cy="17" r="1.2" fill="currentColor" />
		</>
	),
	number: <path d="M10 7h10M10 12h10M10 17h10M4 5.5l1.5-1v5M3.8 14.2c.4-.6 2.7-.8 2.4.8-.2.9-2.4 2-2.4 3h2.6" />,
	image: (
		<>
			<rect x="3.5" y="5" width="17" height="14" rx="2" />
			<path d="M4 17l5-5 4 4 2.5-2.5L20 18" />
			<circle cx="15.5" cy="9.5" r="1.5" />
		</>
	),
	youtube: (
		<>
			<rect x="2.5" y="5.5" width="19" height="13" rx="3.5" />
			<path d="M10 9.2v5.6l4.8-2.8z" fill="currentColor" />
		</>
	),
	undo: <path d="M9 14L4 9l5-5M4 9h10a6 6 0 0 1 0 12h-3" />,
	redo: <path d="M15 14l5-5-5-5M20 9H10a6 6 0 0 0 0 12h3" />,
};

function Glyph({ action }: { action: ToolbarAction }) {
	const text = { bold: 'B', italic: 'I', underline: 'U', strike: 'S', h2: 'H2', h3: 'H3' }[action as string];
	if (text)
		return (
			<span className={`editor-glyph editor-glyph-${action}`} aria-hidden="true">
				{text}
			</span>
		);
	return (
		<svg
			viewBox="0 0 24 24"
			width="20"
			height="20"
			aria-hidden="true"
			fill="none"
			stroke="currentColor"
			strokeWidth="1.8"
			strokeLinecap="round"
			strokeLinejoin="round"
		>
			{ICONS[action]}
		</svg>
	);
}

interface ButtonSpec {
	action: ToolbarAction;
	label: string;
	pressed?: boolean;
	disabled?: boolean;
	shortcut?: string;
}

interface Props {
	state: ToolbarState;
	texts: EditorTexts;
	controls: string;
	disabled: boolean;
	/**
	 * A new member's limit of images and videos, said beside the image button (which it describes);
	 * on a phone, whose toolbar scrolls sideways, in a line under the toolbar.
	 */
	mediaNote?: string | undefined;
	onAction: (action: ToolbarAction) => void;
}

const isApple = () => typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);

export default function Toolbar({ state, texts, controls, disabled, mediaNote, onAction }: Props) {
	const [focusIndex, setFocusIndex] = useState(0);
	const noteId = useId();
	const buttons = useRef<(HTMLButtonElement | null)[]>([]);
	const mod = isApple() ? '⌘' : 'Ctrl+';
	const groups: ButtonSpec[][] = [
		[
			{ action: 'bold', label: texts['editor.bold'], pressed: state.bold, shortcut: `${mod}B` },
			{ action: 'italic', label: texts['editor.italic'], pressed: state.italic, shortcut: `${mod}I` },
			{ action: 'underline', label: texts['editor.underline'], pressed: state.underline, shortcut: `${mod}U` },
			{ action: 'strike', label: texts['editor.strike'], pressed: state.strike, shortcut: `${mod}Shift+X` },
			{ action: 'link', label: state.link ? texts['editor.unlink'] : texts['editor.link'], pressed: state.link, shortcut: `${mod}K` },
		],
		[
			// The names start with the visible text, so that a speech user can say what they see (WCAG 2.5.3).
			{ action: 'h2', label: `H2 ${texts['editor.heading2']}`, pressed: state.block === 'h2' },
			{ action: 'h3', label: `H3 ${texts['editor.heading3']}`, pressed: state.block === 'h3' },
			{ action: 'quote', label: texts['editor.quote'], pressed: state.block === 'quote' },
			{ action: 'bullet', label: texts['editor.bulletList'], pressed: state.block === 'bullet' },
			{ action: 'number', label: texts['editor.numberedList'], pressed: state.block === 'number' },
		],
		[
			{ action: 'image', label: texts['editor.image'] },
			{ action: 'youtube', label: texts['editor.youtube'] },
		],
		[
			{ action: 'undo', label: texts['editor.undo'], disabled: !state.canUndo, shortcut: `${mod}Z` },
			{ action: 'redo', label: texts['editor.redo'], disabled: !state.canRedo, shortcut: isApple() ? '⌘Shift+Z' : 'Ctrl+Y' },
		],
	];
	const flat = groups.flat();

	const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
		const moves: Record<string, number> = { ArrowRight: focusIndex + 1, ArrowLeft: focusIndex - 1, Home: 0, End: flat.length - 1 };
		const target = moves[event.key];
		if (target === undefined) return;
		event.preventDefault();
		const next = (target + flat.length) % flat.length;
		setFocusIndex(next);
		buttons.current[next]?.focus();
	};

	let index = 0;
	return (
		<>
			<div className="editor-toolbar" role="toolbar" aria-label={texts['editor.toolbar']} aria-controls={controls} onKeyDown={onKeyDown}>
				{groups.map((group, groupIndex) => (
					<div className="editor-toolbar-group" key={groupIndex}>
						{group.map((spec) => {
							const position = index++;
							return (
								<button
									key={spec.action}
									ref={(element) => {
										buttons.current[position] = element;
									}}
									type="button"
									className="editor-tool"
									data-action={spec.action}
									tabIndex={position === focusIndex ? 0 : -1}
									aria-label={spec.label}
									title={spec.shortcut ? `${spec.label} (${spec.shortcut})` : spec.label}
									aria-pressed={spec.pressed === undefined ? undefined : spec.pressed}
									aria-keyshortcuts={spec.shortcut?.replace('⌘', 'Meta+')}
									aria-describedby={mediaNote && (spec.action === 'image' || spec.action === 'youtube') ? noteId : undefined}
									disabled={disabled}
									// aria-disabled, not disabled: the button stays reachable with the arrow keys.
									aria-disabled={spec.disabled || undefined}
									// Keep the editor's selection: a click on the toolbar must not take focus from the text first.
									onMouseDown={(event) => event.preventDefault()}
									onFocus={() => setFocusIndex(position)}
									onClick={() => {
										if (!spec.disabled) onAction(spec.action);
									}}
								>
									<Glyph action={spec.action} />
								</button>
							);
						})}
						{mediaNote && groupIndex === 2 && (
							<small id={noteId} className="editor-tool-note" data-media-limit>
								{mediaNote}
							</small>
						)}
					</div>
				))}
			</div>
			{mediaNote && (
				<p className="editor-media-note" aria-hidden="true" data-media-limit>
					<Glyph action="image" />
					{mediaNote}
				</p>
			)}
		</>
	);
}

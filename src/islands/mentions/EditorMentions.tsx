/**
 * The editor's @ suggestions (src/islands/editor/RichEditor.tsx loads this module when the first @
 * is typed, not with the editor: the write page's JavaScript before the editor is usable has a
 * budget, tests/e2e/budget.spec.ts). After each change it reads the @ the caret is typing in its
 * text node, shows the members whose nickname starts like it (./use-mention-menu.ts), and on a pick
 * writes "@Nickname " as plain text: the server finds mentions in the text when the post is saved.
 * While the list is open the editor is its combobox (role, aria-expanded, aria-controls,
 * aria-activedescendant) and the arrows, Enter, Tab and Escape work the list, not the text. The
 * editor and its selection come as props (see the imports).
 */
import { useCallback, useEffect, useMemo, useState } from 'react';
// Types only: a value from Lexical here would split Lexical into a chunk of its own, shared with
// the editor's, and the write page would load that split before the editor is usable.
import type { LexicalEditor, RangeSelection, TextNode } from 'lexical';
import type { Mention } from '@/lib/mentions';
import type { ChannelRef } from '@/lib/urls';
import { $userId } from '@/stores/user-id';
import { mentionAt, withMention, type MentionCandidate } from './candidate';
import MentionList from './MentionList';
import MentionStatus from './MentionStatus';
import { mentionSource } from './suggestions';
import { menuKey, useMentionMenu } from './use-mention-menu';

interface Props {
	editor: LexicalEditor;
	/** Lexical's range selection, or null (src/islands/editor/selection.ts `$rangeSelection`). */
	range: () => RangeSelection | null;
	/** The channel whose member API suggests the members (members/suggest). */
	channel: ChannelRef;
	texts: { 'mention.suggestions': string; 'mention.none': string };
}

/** An @ being typed in one text node (offsets in that node's text). */
interface NodeCandidate extends MentionCandidate {
	nodeKey: string;
}

/** The @ the collapsed caret is typing, when it starts in the caret's text node. */
function $candidate(range: Props['range']): NodeCandidate | null {
	const selection = range();
	if (!selection?.isCollapsed() || selection.anchor.type !== 'text') return null;
	const node = selection.anchor.getNode();
	// The text just before the node (another format of the same line) decides whether the @ starts a mention.
	const before = node.getPreviousSibling()?.getTextContent() ?? '';
	const found = mentionAt(before + node.getTextContent(), before.length + selection.anchor.offset);
	if (!found || found.start < before.length) return null;
	return { start: found.start - before.length, end: found.end - before.length, query: found.query, nodeKey: node.getKey() };
}

/** The caret's line, to put the list under; the editor's box when the caret has none. */
function caretRect(root: HTMLElement | null): DOMRect | null {
	const selection = window.getSelection();
	const rect = selection && selection.rangeCount > 0 ? selection.getRangeAt(0).getBoundingClientRect() : null;
	return rect && rect.height > 0 ? rect : (root?.getBoundingClientRect() ?? null);
}

/** What the editor's root says as a text box and not as a combobox (ARIA allows neither on a combobox). */
const TEXTBOX_ONLY = ['aria-multiline', 'aria-placeholder'] as const;

export default function EditorMentions({ editor, range, channel, texts }: Props) {
	const source = useMemo(() => mentionSource(channel, () => $userId.get()), [channel]);
	const [candidate, setCandidate] = useState<NodeCandidate | null>(() => editor.getEditorState().read(() => $candidate(range)));
	const menu = useMentionMenu(source, candidate);
	const { open, listId, active } = menu;

	// After every change (and caret move) while the editor has the focus.
	useEffect(() => {
		const root = editor.getRootElement();
		let focused = root !== null && root === document.activeElement;
		const read = () => setCandidate(focused ? editor.getEditorState().read(() => $candidate(range)) : null);
		const focus = (event: FocusEvent) => {
			focused = event.type === 'focus';
			read();
		};
		read();
		root?.addEventListener('focus', focus);
		root?.addEventListener('blur', focus);
		const stop = editor.registerUpdateListener(read);
		return () => {
			stop();
			root?.removeEventListener('focus', focus);
			root?.removeEventListener('blur', focus);
		};
	}, [editor, range]);

	const pick = useCallback(
		(member: Mention) => {
			if (!candidate) return;
			editor.update(() => {
				const selection = range();
				const node = selection?.anchor.getNode();
				if (node?.getKey() !== candidate.nodeKey || selection?.anchor.type !== 'text') return;
				const next = withMention(node.getTextContent(), candidate, member.nickname);
				(node as TextNode).setTextContent(next.text).select(next.caret, next.caret);
			});
		},
		[editor, range, candidate],
	);

	// The keys work the open list before the editor sees them (captured on its root: Enter starts no paragraph).
	useEffect(() => {
		const root = editor.getRootElement();
		if (!open || !root) return;
		const onKey = (event: KeyboardEvent) => {
			if (event.isComposing || event.keyCode === 229 || !menu.onKey(menuKey(event), pick)) return;
			event.preventDefault();
			event.stopPropagation();
		};
		root.addEventListener('keydown', onKey, true);
		return () => root.removeEventListener('keydown', onKey, true);
	}, [editor, open, menu, pick]);

	// The combobox pattern on the editor's root while the list is open.
	useEffect(() => {
		const root = editor.getRootElement();
		if (!open || !root) return;
		const role = root.getAttribute('role');
		const kept = TEXTBOX_ONLY.map((name) => [name, root.getAttribute(name)] as const);
		for (const [name] of kept) root.removeAttribute(name);
		root.setAttribute('role', 'combobox');
		root.setAttribute('aria-expanded', 'true');
		root.setAttribute('aria-controls', listId);
		root.setAttribute('aria-autocomplete', 'list');
		return () => {
			for (const name of ['aria-expanded', 'aria-controls', 'aria-autocomplete', 'aria-activedescendant']) root.removeAttribute(name);
			if (role === null) root.removeAttribute('role');
			else root.setAttribute('role', role);
			for (const [name, value] of kept) if (value !== null) root.setAttribute(name, value);
		};
	}, [editor, open, listId]);
	useEffect(() => {
		if (open) editor.getRootElement()?.setAttribute('aria-activedescendant', `${listId}-${active}`);
	}, [editor, open, listId, active]);

	return (
		<>
			{open && (
				<MentionList
					id={listId}
					label={texts['mention.suggestions']}
					members={menu.members}
					active={active}
					anchor={() => caretRect(editor.getRootElement())}
					onPick={pick}
					onHover={menu.setActive}
				/>
			)}
			<MentionStatus text={menu.none ? texts['mention.none'] : null} />
		</>
	);
}

/**
 * The comment box's @ suggestions (src/islands/comments/CommentForm.tsx loads this module once an
 * @ is written in the box, not with the comments island, as the editor loads ./EditorMentions.tsx).
 * It shows the members whose nickname starts like the @ the caret is typing (./use-mention-menu.ts)
 * under the box; while the list is open the box is its combobox (role, aria-expanded,
 * aria-controls, aria-activedescendant, aria-autocomplete) and the arrows, Enter, Tab and Escape
 * work the list: their key presses are taken on the box itself, before the form's own handler
 * (which sees them prevented). The form owns the text, the caret and the replacement.
 */
import { useEffect, useRef, type RefObject } from 'react';
import type { Mention } from '@/lib/mentions';
import type { MentionCandidate } from './candidate';
import MentionList from './MentionList';
import type { MentionSource } from './suggestions';
import { menuKey, useMentionMenu } from './use-mention-menu';

interface Props {
	box: RefObject<HTMLTextAreaElement | null>;
	source: MentionSource;
	/** The @ the caret is typing, or null. */
	candidate: MentionCandidate | null;
	label: string;
	onPick: (member: Mention) => void;
	/** Whether the candidate's query was answered with nobody (the form's live region says so). */
	onNone: (none: boolean) => void;
}

export default function CommentMentions({ box, source, candidate, label, onPick, onNone }: Props) {
	const menu = useMentionMenu(source, candidate);
	const { open, listId, active, none } = menu;
	// The key listener is set once; it reads the menu and the pick of the last render.
	const latest = useRef({ menu, onPick });
	latest.current = { menu, onPick };

	useEffect(() => {
		const element = box.current;
		if (!element) return;
		const onKey = (event: KeyboardEvent) => {
			const composing = event.isComposing || event.keyCode === 229;
			if (!composing && latest.current.menu.onKey(menuKey(event), latest.current.onPick)) event.preventDefault();
		};
		element.addEventListener('keydown', onKey);
		return () => element.removeEventListener('keydown', onKey);
	}, [box]);

	useEffect(() => {
		const element = box.current;
		if (!element || !open) return;
		element.setAttribute('role', 'combobox');
		element.setAttribute('aria-expanded', 'true');
		element.setAttribute('aria-controls', listId);
		element.setAttribute('aria-autocomplete', 'list');
		return () => {
			for (const name of ['role', 'aria-expanded', 'aria-controls', 'aria-autocomplete', 'aria-activedescendant']) element.removeAttribute(name);
		};
	}, [box, open, listId]);
	useEffect(() => {
		if (open) box.current?.setAttribute('aria-activedescendant', `${listId}-${active}`);
	}, [box, open, listId, active]);
	useEffect(() => onNone(none), [onNone, none]);

	return open ? (
		<MentionList
			id={listId}
			label={label}
			members={menu.members}
			active={active}
			anchor={() => box.current?.getBoundingClientRect() ?? null}
			onPick={onPick}
			onHover={menu.setActive}
		/>
	) : null;
}

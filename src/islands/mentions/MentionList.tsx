/**
 * The @ suggestions popup of the comment box and the editor: a listbox (the WAI-ARIA combobox
 * pattern; the field keeps the focus and points at the option with aria-activedescendant), fixed
 * under its anchor (the comment box, or the editor's caret line), above it when there is more room
 * there, always inside the visible viewport (an on-screen keyboard shrinks it), scrolling past its
 * height. A press picks without taking the focus from the field. Its styles (./mentions.css) come
 * with the page: the comments section's (CommentList.astro) and the editor's.
 */
import { useEffect, useLayoutEffect, useRef } from 'react';
import type { Mention } from '@/lib/mentions';

/** Space kept between the popup and its anchor, and between the popup and the viewport's edges. */
const GAP = 4;
const MARGIN = 8;

interface Props {
	id: string;
	label: string;
	members: readonly Mention[];
	active: number;
	/** The rectangle to sit under (or over), read again on every scroll and resize. */
	anchor: () => DOMRect | null;
	onPick: (member: Mention) => void;
	onHover: (index: number) => void;
}

/** Puts `list` under or over `anchor`, inside the visible viewport. */
function place(list: HTMLElement, anchor: DOMRect): void {
	const view = window.visualViewport;
	const top = view?.offsetTop ?? 0;
	const bottom = top + (view?.height ?? window.innerHeight);
	const right = (view?.offsetLeft ?? 0) + (view?.width ?? document.documentElement.clientWidth);
	const below = bottom - anchor.bottom - GAP - MARGIN;
	const above = anchor.top - top - GAP - MARGIN;
	const natural = list.scrollHeight + list.offsetHeight - list.clientHeight;
	const down = below >= natural || below >= above;
	const room = Math.max(down ? below : above, 0);
	list.style.maxHeight = `${room}px`;
	const height = Math.min(natural, room);
	list.style.top = `${down ? anchor.bottom + GAP : anchor.top - GAP - height}px`;
	list.style.left = `${Math.max(MARGIN, Math.min(anchor.left, right - list.offsetWidth - MARGIN))}px`;
}

export default function MentionList({ id, label, members, active, anchor, onPick, onHover }: Props) {
	const list = useRef<HTMLUListElement>(null);

	useLayoutEffect(() => {
		const element = list.current;
		if (!element) return;
		let frame = 0;
		const update = () => {
			const rect = anchor();
			if (rect) place(element, rect);
		};
		const later = () => {
			cancelAnimationFrame(frame);
			frame = requestAnimationFrame(update);
		};
		update();
		const view = window.visualViewport;
		window.addEventListener('scroll', later, true);
		window.addEventListener('resize', later);
		view?.addEventListener('resize', later);
		view?.addEventListener('scroll', later);
		return () => {
			cancelAnimationFrame(frame);
			window.removeEventListener('scroll', later, true);
			window.removeEventListener('resize', later);
			view?.removeEventListener('resize', later);
			view?.removeEventListener('scroll', later);
		};
	});
	useEffect(() => {
		list.current?.children[active]?.scrollIntoView({ block: 'nearest' });
	}, [active]);

	return (
		<ul ref={list} id={id} className="mention-list" role="listbox" aria-label={label} data-mention-list>
			{members.map((member, index) => (
				<li
					key={member.userId}
					id={`${id}-${index}`}
					className="mention-option"
					role="option"
					aria-selected={index === active}
					// The field keeps the focus (and the caret) through a press.
					onMouseDown={(event) => event.preventDefault()}
					// A real move only: the list opening under a still pointer leaves the arrows' choice alone.
					onMouseMove={(event) => {
						if (event.movementX || event.movementY) onHover(index);
					}}
					onClick={() => onPick(member)}
				>
					@{member.nickname}
				</li>
			))}
		</ul>
	);
}

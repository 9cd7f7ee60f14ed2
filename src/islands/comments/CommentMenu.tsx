/**
 * A comment's menu: a button that opens a list of actions (Copy link; Report for someone else's
 * comment; Edit and Delete for one's own, Delete for an administrator). Keyboard: the first item
 * takes focus, arrows move, Escape closes and returns focus to the button, Tab or a press outside
 * closes.
 */
import { useEffect, useLayoutEffect, useRef } from 'react';

export interface MenuAction {
	key: string;
	label: string;
	/** Set when the action cannot be used now: the id of the element that says why. */
	blockedBy?: string | undefined;
	/** Done already and not to be repeated (a comment the member reported): shown, aria-disabled. */
	done?: boolean;
	run: () => void;
}

interface Props {
	commentId: number;
	label: string;
	open: boolean;
	actions: MenuAction[];
	onOpenChange: (open: boolean) => void;
}

export default function CommentMenu({ commentId, label, open, actions, onOpenChange }: Props) {
	const button = useRef<HTMLButtonElement>(null);
	const list = useRef<HTMLUListElement>(null);
	const menuId = `comment-menu-${commentId}`;

	// Focus moves in the same commit that opens the menu, so a key pressed right after the one that
	// opened it already lands in the menu.
	useLayoutEffect(() => {
		if (open) list.current?.querySelector<HTMLButtonElement>('button')?.focus();
	}, [open]);

	useEffect(() => {
		if (!open) return;
		const away = (event: PointerEvent) => {
			if (!list.current?.contains(event.target as Node) && !button.current?.contains(event.target as Node)) onOpenChange(false);
		};
		document.addEventListener('pointerdown', away);
		return () => document.removeEventListener('pointerdown', away);
	}, [open, onOpenChange]);

	const close = () => {
		onOpenChange(false);
		button.current?.focus();
	};

	return (
		<div className="comment-menu">
			<button
				ref={button}
				className="comment-menu-button"
				type="button"
				aria-label={label}
				aria-haspopup="menu"
				aria-expanded={open ? 'true' : 'false'}
				aria-controls={open ? menuId : undefined}
				data-action="menu"
				data-comment-id={commentId}
				onClick={() => onOpenChange(!open)}
			>
				⋯
			</button>
			{open && (
				<ul
					ref={list}
					className="comment-menu-list"
					id={menuId}
					role="menu"
					aria-label={label}
					onKeyDown={(event) => {
						const items = [...(list.current?.querySelectorAll<HTMLButtonElement>('button') ?? [])];
						const at = items.indexOf(document.activeElement as HTMLButtonElement);
						if (event.key === 'Escape') {
							event.preventDefault();
							close();
						} else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
							event.preventDefault();
							items[(at + (event.key === 'ArrowDown' ? 1 : items.length - 1)) % items.length]?.focus();
						} else if (event.key === 'Home' || event.key === 'End') {
							event.preventDefault();
							items[event.key === 'Home' ? 0 : items.length - 1]?.focus();
						} else if (event.key === 'Tab') {
							onOpenChange(false);
						}
					}}
				>
					{actions.map((action) => (
						<li key={action.key} role="none">
							<button
								type="button"
								role="menuitem"
								data-menu-action={action.key}
								aria-disabled={action.blockedBy || action.done ? true : undefined}
								aria-describedby={action.blockedBy}
								onClick={() => {
									if (action.blockedBy || action.done) return;
									close();
									action.run();
								}}
							>
								{action.label}
							</button>
						</li>
					))}
				</ul>
			)}
		</div>
	);
}

/**
 * An alert modal on the native <dialog>: focus moves into it, Escape closes it, and the page
 * behind is inert while it is open. With `cancelLabel` it is a confirm modal (Cancel and Confirm,
 * as the login-required modal). `onClosed` runs after it has closed, however it was closed, and
 * says whether the confirm button closed it (Escape and Cancel do not). `items` are listed under
 * the message (the write form's empty sections).
 */
import { useEffect, useId, useRef } from 'react';
import { useModalNow } from './use-modal';

interface Props {
	open: boolean;
	title: string;
	message: string;
	confirmLabel: string;
	cancelLabel?: string | undefined;
	items?: readonly string[] | undefined;
	onClosed: (confirmed: boolean) => void;
}

export default function AlertDialog({ open, title, message, confirmLabel, cancelLabel, items, onClosed }: Props) {
	// Told at once in the press that closes it (not from the later `close` event): Escape, then Enter on
	// what opens it again, finds it closed already and opens it again.
	const modal = useModalNow(open, (value) => onClosed(value === 'confirm'));
	const id = useId();
	const confirm = useRef<HTMLButtonElement>(null);
	// The confirm button has the focus at each opening, not only the first (autoFocus acts on mounting).
	useEffect(() => {
		if (open) confirm.current?.focus();
	}, [open]);

	return (
		<dialog {...modal} className="dialog-panel alert-dialog" aria-labelledby={`${id}-title`} aria-describedby={`${id}-message`}>
			<h2 id={`${id}-title`}>{title}</h2>
			<p id={`${id}-message`}>{message}</p>
			{items && items.length > 0 && (
				<ul className="alert-dialog-items">
					{items.map((item, index) => (
						<li key={index}>{item}</li>
					))}
				</ul>
			)}
			<form method="dialog" className="dialog-actions">
				{cancelLabel && (
					<button className="button secondary" type="submit" value="cancel">
						{cancelLabel}
					</button>
				)}
				<button ref={confirm} className="button" type="submit" value="confirm">
					{confirmLabel}
				</button>
			</form>
		</dialog>
	);
}

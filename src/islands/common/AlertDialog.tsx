/**
 * An alert modal on the native <dialog>: focus moves into it, Escape closes it, and the page
 * behind is inert while it is open. `onClosed` runs after it has closed, however it was closed.
 */
import { useEffect, useRef } from 'react';

interface Props {
	open: boolean;
	title: string;
	message: string;
	confirmLabel: string;
	onClosed: () => void;
}

export default function AlertDialog({ open, title, message, confirmLabel, onClosed }: Props) {
	const ref = useRef<HTMLDialogElement>(null);

	useEffect(() => {
		const dialog = ref.current;
		if (!dialog) return;
		if (open && !dialog.open) dialog.showModal();
		if (!open && dialog.open) dialog.close();
	}, [open]);

	return (
		<dialog ref={ref} className="alert-dialog" aria-labelledby="alert-dialog-title" onClose={onClosed}>
			<h2 id="alert-dialog-title">{title}</h2>
			<p>{message}</p>
			<form method="dialog">
				<button className="button" type="submit" autoFocus>
					{confirmLabel}
				</button>
			</form>
		</dialog>
	);
}

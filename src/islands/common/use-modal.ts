/**
 * A native <dialog> shown as a modal while `open` (focus moves in, Escape closes it, the page
 * behind is inert, focus returns when it closes) and closed otherwise. Its returnValue is cleared
 * on each opening, so that the one closing tells which button closed it ('' for Escape).
 */
import { useEffect, useRef } from 'react';

export function useModal(open: boolean) {
	const ref = useRef<HTMLDialogElement>(null);
	useEffect(() => {
		const dialog = ref.current;
		if (!dialog) return;
		if (open && !dialog.open) {
			dialog.returnValue = '';
			dialog.showModal();
		}
		if (!open && dialog.open) dialog.close();
	}, [open]);
	return ref;
}

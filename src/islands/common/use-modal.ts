/**
 * A native <dialog> shown as a modal while `open` (focus moves in, Escape closes it, the page
 * behind is inert, focus returns when it closes) and closed otherwise. Its returnValue is cleared
 * on each opening, so that the one closing tells which button closed it ('' for Escape).
 */
import { useEffect, useRef, type FormEvent, type SyntheticEvent } from 'react';

function useModal(open: boolean, onOpened?: () => void) {
	const ref = useRef<HTMLDialogElement>(null);
	useEffect(() => {
		const dialog = ref.current;
		if (!dialog) return;
		if (open && !dialog.open) {
			dialog.returnValue = '';
			onOpened?.();
			dialog.showModal();
		}
		if (!open && dialog.open) dialog.close();
	}, [open]);
	return ref;
}

/**
 * useModal whose `onClosed` gets the value of the button that closed it ('' for Escape) at once,
 * in the press that closes it, rather than from the `close` event, which comes a task later: a
 * press right after (Escape, then Enter on the button that opens it again) finds the state closed
 * already, and a late `close` of a dialog opened again is ignored. Spread the props on the <dialog>.
 */
export function useModalNow(open: boolean, onClosed: (returnValue: string) => void) {
	const told = useRef(true);
	const ref = useModal(open, () => (told.current = false));
	const tell = (value: string) => {
		if (told.current) return;
		told.current = true;
		onClosed(value);
	};
	return {
		ref,
		onCancel: () => tell(''),
		onSubmit: (event: FormEvent<HTMLDialogElement>) => {
			const form = event.target as HTMLFormElement;
			if (event.defaultPrevented || form.method !== 'dialog') return;
			tell(((event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null)?.value ?? '');
		},
		onClose: (event: SyntheticEvent<HTMLDialogElement>) => {
			if (!event.currentTarget.open) tell(event.currentTarget.returnValue);
		},
	};
}

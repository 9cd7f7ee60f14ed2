/**
 * The write form's confirmations and alerts as promises: `ask` answers whether the member
 * confirmed, `tell` once they closed it. WriteForm.tsx shows `dialog` with the alert dialog
 * (loaded the first time one is needed) and calls `closed` when it closes.
 */
import { useCallback, useState } from 'react';
import type { WriteTexts } from './texts';

export interface DialogState {
	open: boolean;
	title: string;
	message: string;
	confirmLabel: string;
	cancelLabel?: string | undefined;
	/** A list under the message (the empty sections' headings). */
	items?: string[] | undefined;
	resolve: (confirmed: boolean) => void;
}

export function useAsk(texts: WriteTexts) {
	const [dialog, setDialog] = useState<DialogState | null>(null);
	const ask = useCallback(
		(message: string, confirmLabel = texts['common.button.confirm'], more: Partial<DialogState> = {}) =>
			new Promise<boolean>((resolve) =>
				setDialog({
					open: true,
					title: texts['write.confirm.title'],
					message,
					confirmLabel,
					cancelLabel: texts['common.button.cancel'],
					...more,
					resolve,
				}),
			),
		[texts],
	);
	const tell = useCallback(
		(message: string, title = texts['common.message.alert']) =>
			new Promise<boolean>((resolve) => setDialog({ open: true, title, message, confirmLabel: texts['common.button.confirm'], resolve })),
		[texts],
	);
	const closed = (confirmed: boolean) => {
		setDialog((current) => (current ? { ...current, open: false } : current));
		dialog?.resolve(confirmed);
	};
	return { dialog, ask, tell, closed };
}

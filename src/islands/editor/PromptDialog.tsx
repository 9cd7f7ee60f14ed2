/**
 * A small modal that asks for one address (a link, a YouTube video) on the native <dialog>: the
 * page behind is inert and Tab stays inside, Escape closes it, and focus goes back to where it
 * was. It renders in <body>, outside the form around the editor. `onSubmit` answers an error text to show under the field, or null when it took the value.
 */
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { createPortal } from 'react-dom';

interface Props {
	open: boolean;
	title: string;
	label: string;
	initialValue: string;
	submitLabel: string;
	cancelLabel: string;
	/** A second action beside submit (remove the link), when there is one. */
	extraAction?: { label: string; run: () => void } | undefined;
	onSubmit: (value: string) => string | null;
	onClose: () => void;
	name: string;
}

export default function PromptDialog({ open, title, label, initialValue, submitLabel, cancelLabel, extraAction, onSubmit, onClose, name }: Props) {
	const ref = useRef<HTMLDialogElement>(null);
	const inputRef = useRef<HTMLInputElement>(null);
	const returnFocus = useRef<HTMLElement | null>(null);
	const [value, setValue] = useState(initialValue);
	const [error, setError] = useState<string | null>(null);
	const id = useId();

	useEffect(() => {
		const dialog = ref.current;
		if (!dialog) return;
		if (open && !dialog.open) {
			returnFocus.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
			setValue(initialValue);
			setError(null);
			dialog.showModal();
			inputRef.current?.focus();
			inputRef.current?.select();
		}
		if (!open && dialog.open) dialog.close();
	}, [open, initialValue]);

	const submit = (event: FormEvent<HTMLFormElement>) => {
		event.preventDefault();
		// The editor sits inside the write form: this submit must not reach that form's handler.
		event.stopPropagation();
		const problem = onSubmit(value);
		if (problem) {
			setError(problem);
			inputRef.current?.focus();
			return;
		}
		ref.current?.close();
	};

	// In <body>, not inside the write form: a form may not hold another.
	return createPortal(
		<dialog
			ref={ref}
			className="dialog-panel editor-dialog"
			aria-labelledby={`${id}-title`}
			data-editor-dialog={name}
			onClose={() => {
				onClose();
				returnFocus.current?.focus();
				returnFocus.current = null;
			}}
		>
			<form onSubmit={submit} noValidate>
				<h2 id={`${id}-title`}>{title}</h2>
				<div className="field">
					<label htmlFor={`${id}-value`}>{label}</label>
					<input
						ref={inputRef}
						id={`${id}-value`}
						type="url"
						inputMode="url"
						autoComplete="off"
						spellCheck={false}
						value={value}
						aria-invalid={error ? true : undefined}
						aria-describedby={error ? `${id}-error` : undefined}
						onChange={(event) => {
							setValue(event.target.value);
							setError(null);
						}}
					/>
					{error && (
						<p id={`${id}-error`} className="field-error" role="alert">
							{error}
						</p>
					)}
				</div>
				<div className="editor-dialog-actions">
					{extraAction && (
						<button
							type="button"
							className="button secondary"
							onClick={() => {
								extraAction.run();
								ref.current?.close();
							}}
						>
							{extraAction.label}
						</button>
					)}
					<button type="button" className="button secondary" onClick={() => ref.current?.close()}>
						{cancelLabel}
					</button>
					<button type="submit" className="button">
						{submitLabel}
					</button>
				</div>
			</form>
		</dialog>,
		document.body,
	);
}

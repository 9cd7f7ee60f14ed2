/**
 * A comment box: the new comment, a reply or an edit. A visible count of characters against
 * COMMENT_MAX_LENGTH, the validation text under the box, Post (or Save) and, for a reply or an
 * edit, Cancel. The new-comment box is the same markup as CommentForm.astro.
 */
import { useEffect, useRef, type ReactNode } from 'react';
import { COMMENT_MAX_LENGTH, commentLength } from '@/schemas/comment-limits';
import { formatCount } from '@/lib/format-date';
import { fill, type CommentTexts } from './texts';
import type { TextProblem } from './model';

interface Props {
	/** new, reply-{parentId} or edit-{commentId}: names the box and its parts. */
	name: string;
	label: string;
	text: string;
	problem: TextProblem | null;
	busy: boolean;
	/** Why the box cannot be sent now (the edit under way), as the id of the element that says so. */
	blockedBy?: string | undefined;
	submitLabel: string;
	placeholder?: string | undefined;
	focusOnOpen?: boolean;
	/** A guest's box: the page's loader answers any use of it with the login-required modal. */
	readOnly?: boolean;
	texts: CommentTexts;
	onChange: (text: string) => void;
	onSubmit: () => void;
	onCancel?: (() => void) | undefined;
	/** Above the box: what it answers (a reply's "Replying to @nickname" with its own cancel). */
	context?: ReactNode;
	children?: ReactNode;
}

export default function CommentForm({
	name,
	label,
	text,
	problem,
	busy,
	blockedBy,
	submitLabel,
	placeholder,
	focusOnOpen = false,
	readOnly = false,
	texts,
	onChange,
	onSubmit,
	onCancel,
	context,
	children,
}: Props) {
	const box = useRef<HTMLTextAreaElement>(null);
	const id = `comment-box-${name}`;
	const length = commentLength(text);

	useEffect(() => {
		if (focusOnOpen) {
			box.current?.focus();
			box.current?.setSelectionRange(box.current.value.length, box.current.value.length);
		}
	}, [focusOnOpen]);
	useEffect(() => {
		if (problem) box.current?.focus();
	}, [problem]);

	const describedBy = [`${id}-length`, problem ? `${id}-error` : null, blockedBy ?? null].filter(Boolean).join(' ');
	return (
		<form
			className="comment-form"
			data-comment-form={name}
			noValidate
			onSubmit={(event) => {
				event.preventDefault();
				if (!busy && !blockedBy) onSubmit();
			}}
		>
			{context}
			<label className="visually-hidden" htmlFor={id}>
				{label}
			</label>
			<textarea
				ref={box}
				id={id}
				className="comment-box"
				name="content"
				placeholder={placeholder}
				aria-describedby={describedBy}
				aria-invalid={problem ? true : undefined}
				readOnly={readOnly || undefined}
				data-action="write"
				value={text}
				onChange={(event) => onChange(event.target.value)}
				onKeyDown={(event) => {
					if (event.key === 'Escape' && onCancel) onCancel();
				}}
			/>
			{problem && (
				<p className="comment-form-error" id={`${id}-error`} role="alert">
					{problem === 'required' ? texts['comment.message.required'] : texts['comment.message.tooLong']}
				</p>
			)}
			{children}
			<div className="comment-form-foot">
				<span className={length > COMMENT_MAX_LENGTH ? 'comment-length over' : 'comment-length'} id={`${id}-length`}>
					{fill(texts['comment.length'], { count: formatCount(length), max: formatCount(COMMENT_MAX_LENGTH) })}
				</span>
				{onCancel && (
					<button className="button secondary" type="button" onClick={onCancel}>
						{texts['common.button.cancel']}
					</button>
				)}
				<button
					className="button"
					type="submit"
					data-action="post"
					disabled={busy}
					aria-busy={busy || undefined}
					aria-disabled={blockedBy ? true : undefined}
				>
					{submitLabel}
				</button>
			</div>
		</form>
	);
}

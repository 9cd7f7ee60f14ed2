/**
 * A comment box: the new comment, a reply or an edit. A visible count of characters against
 * COMMENT_MAX_LENGTH, the validation text under the box, Post (or Save) and, for a reply or an
 * edit, Cancel. The server renders the new-comment box with the section (CommentsView.tsx). A member's box
 * suggests members as an @ is typed (src/islands/mentions/CommentMentions.tsx, loaded with the
 * box's first @): the box becomes the combobox of their list while it is open, and Enter or Tab
 * picks instead of starting a new line.
 */
import { lazy, Suspense, useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { COMMENT_MAX_LENGTH, commentLength } from '@/schemas/comment-limits';
import { formatCount } from '@/lib/format-date';
import type { Mention } from '@/lib/mentions';
import { mentionAt, withMention } from '@/islands/mentions/candidate';
import MentionStatus from '@/islands/mentions/MentionStatus';
import type { MentionSource } from '@/islands/mentions/suggestions';
import { fill, type CommentTexts } from './texts';
import type { TextProblem } from './model';

/** The @ suggestions, loaded once an @ is written in a box (as the editor's). */
const CommentMentions = lazy(() => import('@/islands/mentions/CommentMentions'));

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
	/** Where a member's @ suggestions come from (one source for the whole island); none for a guest. */
	mentions?: MentionSource | null;
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
	mentions = null,
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
	// The caret while the box has the focus (null otherwise, or while a range is selected): the @ it is typing.
	const [caret, setCaret] = useState<number | null>(null);
	const candidate = mentions && caret !== null ? mentionAt(text, caret) : null;
	// From the first @ on, the suggestions' module is there (and keeps its state, such as a dismissal).
	const [mentioning, setMentioning] = useState(false);
	const wantsMentions = mentions !== null && text.includes('@');
	useEffect(() => {
		if (wantsMentions) setMentioning(true);
	}, [wantsMentions]);
	const [nobody, setNobody] = useState(false);
	/** Where the caret goes once a picked mention is in the text. */
	const pickedCaret = useRef<number | null>(null);
	const readCaret = (element: HTMLTextAreaElement) => setCaret(element.selectionStart === element.selectionEnd ? element.selectionStart : null);
	const pick = (member: Mention) => {
		if (!candidate) return;
		const next = withMention(text, candidate, member.nickname);
		pickedCaret.current = next.caret;
		onChange(next.text);
	};

	useLayoutEffect(() => {
		const at = pickedCaret.current;
		if (at === null || !box.current) return;
		pickedCaret.current = null;
		box.current.setSelectionRange(at, at);
		setCaret(at);
	}, [text]);

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
				className="control comment-box"
				name="content"
				placeholder={placeholder}
				aria-describedby={describedBy}
				aria-invalid={problem ? true : undefined}
				readOnly={readOnly || undefined}
				data-action="write"
				value={text}
				onChange={(event) => {
					readCaret(event.target);
					onChange(event.target.value);
				}}
				onSelect={(event) => readCaret(event.currentTarget)}
				onFocus={(event) => readCaret(event.currentTarget)}
				onBlur={() => setCaret(null)}
				onKeyDown={(event) => {
					// A key the open suggestions took (Escape closing them among them) is prevented there.
					if (!event.isDefaultPrevented() && event.key === 'Escape' && onCancel) onCancel();
				}}
			/>
			{mentions && mentioning && (
				<Suspense fallback={null}>
					<CommentMentions box={box} source={mentions} candidate={candidate} label={texts['mention.suggestions']} onPick={pick} onNone={setNobody} />
				</Suspense>
			)}
			{!readOnly && <MentionStatus text={nobody ? texts['mention.none'] : null} />}
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

/**
 * The write form's parts as WriteForm.tsx shows them: the board and category,
 * the title with its live count, the private and notice switches, and the actions. They show the
 * form's state and say what the member did; WriteForm.tsx decides what follows.
 */
import { TITLE_MAX_LENGTH, titleLength } from '@/schemas/post-limits';
import type { FieldErrors, WriteBoard, WriteFormState } from './form-state';
import type { FormFields } from './local-copy';
import type { WriteTexts } from './texts';

type Change = (next: Partial<FormFields>) => void;

/** The board and, when the board uses them, its category. */
export function BoardFields({
	id,
	fields,
	errors,
	boards,
	board,
	texts,
	onChooseBoard,
	onChange,
}: {
	id: string;
	fields: FormFields;
	errors: FieldErrors;
	boards: WriteBoard[];
	board: WriteBoard | undefined;
	texts: WriteTexts;
	onChooseBoard: (boardId: number) => void;
	onChange: Change;
}) {
	return (
		<div className="write-row">
			<div className="field">
				<label htmlFor={`${id}-board`}>{texts['write.field.board']}</label>
				<select
					id={`${id}-board`}
					value={fields.boardId ?? ''}
					onChange={(event) => onChooseBoard(Number(event.target.value))}
					aria-invalid={errors.board ? true : undefined}
					aria-describedby={errors.board ? `${id}-board-error` : undefined}
				>
					{fields.boardId === null && <option value="">{texts['write.message.boardRequired']}</option>}
					{boards.map((candidate) => (
						<option key={candidate.boardId} value={candidate.boardId}>
							{candidate.name}
						</option>
					))}
				</select>
				{boards.length === 0 && <p className="field-hint">{texts['write.message.noBoards']}</p>}
				{errors.board && (
					<p id={`${id}-board-error`} className="field-error" role="alert">
						{errors.board}
					</p>
				)}
			</div>
			<div className="field">
				<label htmlFor={`${id}-category`}>{texts['write.field.category']}</label>
				{board && !board.usesSubjects ? (
					<p id={`${id}-category`} className="field-hint no-category" data-no-category>
						{texts['write.message.noCategory']}
					</p>
				) : (
					<select
						id={`${id}-category`}
						value={fields.subjectId ?? ''}
						onChange={(event) => onChange({ subjectId: event.target.value === '' ? null : Number(event.target.value) })}
					>
						<option value="">{texts['board.category.none']}</option>
						{board?.subjects.map((subject) => (
							<option key={subject.subjectId} value={subject.subjectId}>
								{subject.name}
							</option>
						))}
					</select>
				)}
			</div>
		</div>
	);
}

/** The title with its live count; Enter in it never submits. */
export function TitleField({
	id,
	title,
	error,
	texts,
	onChange,
}: {
	id: string;
	title: string;
	error: string | undefined;
	texts: WriteTexts;
	onChange: (title: string) => void;
}) {
	const count = titleLength(title);
	return (
		<div className="field">
			<div className="label-row">
				<label htmlFor={`${id}-title`}>{texts['write.field.title']}</label>
				<span className={count > TITLE_MAX_LENGTH ? 'title-count over' : 'title-count'} data-title-count>
					{count}/{TITLE_MAX_LENGTH}
				</span>
			</div>
			<input
				id={`${id}-title`}
				name="title"
				value={title}
				placeholder={texts['write.field.titlePlaceholder']}
				autoComplete="off"
				aria-invalid={error || count > TITLE_MAX_LENGTH ? true : undefined}
				aria-describedby={`${id}-title-message`}
				onChange={(event) => onChange(event.target.value)}
				onKeyDown={(event) => {
					// Enter in the title (also while composing) never submits the form.
					if (event.key === 'Enter') event.preventDefault();
				}}
			/>
			<p id={`${id}-title-message`} className={error || count > TITLE_MAX_LENGTH ? 'field-error' : 'field-hint'} role={error ? 'alert' : undefined}>
				{error ?? texts['write.message.titleTooLong']}
			</p>
		</div>
	);
}

/** The private switch and, for administrators, the notice switch. */
export function WriteSwitches({ fields, admin, texts, onChange }: { fields: FormFields; admin: boolean; texts: WriteTexts; onChange: Change }) {
	return (
		<div className="write-switches">
			<label className="check">
				<input type="checkbox" checked={fields.isPrivate} onChange={(event) => onChange({ isPrivate: event.target.checked })} />
				<span>
					{texts['write.field.private']}
					<small>{texts['write.field.privateHint']}</small>
				</span>
			</label>
			{admin && (
				<label className="check">
					<input type="checkbox" checked={fields.isNotice} onChange={(event) => onChange({ isNotice: event.target.checked })} />
					<span>
						{texts['write.field.notice']}
						<small>{texts['write.field.noticeHint']}</small>
					</span>
				</label>
			)}
		</div>
	);
}

/**
 * The drafts, then Cancel, saving a draft and the submit (the hidden form's button): two parts of the form's
 * last line, the bar at the screen's foot (WriteScreen.astro). On a phone the drafts step out of the bar onto
 * a line above it, so that the bar fits one line in every language.
 */
export function WriteActions({
	formId,
	hydrated,
	busy,
	draftCount,
	submitLabel,
	texts,
	onCancel,
	onOpenDrafts,
	onSaveDraft,
}: {
	formId: string;
	hydrated: boolean;
	busy: WriteFormState['busy'];
	draftCount: number | null;
	submitLabel: string;
	texts: WriteTexts;
	onCancel: () => void;
	onOpenDrafts: () => void;
	onSaveDraft: () => void;
}) {
	return (
		<>
			<div className="write-drafts">
				<button className="button secondary" type="button" onClick={onOpenDrafts} disabled={!hydrated} data-drafts-button>
					{texts['write.button.drafts'].replace('{{count}}', String(draftCount ?? 0))}
				</button>
			</div>
			<div className="write-actions">
				<button className="button secondary write-cancel" type="button" onClick={onCancel} disabled={!hydrated}>
					{texts['common.button.cancel']}
				</button>
				<button className="button secondary" type="button" onClick={onSaveDraft} disabled={!hydrated || busy !== null} aria-busy={busy === 'draft'}>
					{texts['write.button.saveDraft']}
				</button>
				<button className="button" type="submit" form={formId} disabled={!hydrated || busy !== null} aria-busy={busy === 'submit'}>
					{submitLabel}
				</button>
			</div>
		</>
	);
}

/**
 * The admin area's modal dialogs, on the native <dialog> (focus moves in, Escape closes, the page
 * behind is inert, focus returns to the button that opened it): a confirm with an optional reason
 * for the audit log, the ban form, and a member's ban history.
 */
import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import type { Language } from '@/schemas/channel';
import { formatFullDate } from '@/lib/format-date';
import { fill } from '@/islands/comments/texts';
import { useModalNow } from '@/islands/common/use-modal';
import { inForce, type BanOrder, type MemberBans } from './api';
import { banEndsAt, banLastDay, dayFromToday, parseDay, pickerValue } from '@/lib/ban-days';
import type { AdminTexts } from './texts';

/** Longest reason the API keeps (src/server/moderation/log.ts REASON_MAX). */
const REASON_MAX = 500;

interface ModalProps {
	open: boolean;
	title: string;
	className?: string;
	/** Runs once the dialog has closed, with the value of the button that closed it ('' for Escape). */
	onClosed: (returnValue: string) => void;
	onSubmit?: (event: FormEvent<HTMLFormElement>) => void;
	children: ReactNode;
}

function Modal({ open, title, className = '', onClosed, onSubmit, children }: ModalProps) {
	const modal = useModalNow(open, onClosed);
	const id = useId();
	return (
		<dialog {...modal} className={`dialog-panel admin-dialog ${className}`} aria-labelledby={`${id}-title`}>
			{/* The dialogs check their own fields and say what is wrong beside them. */}
			<form method="dialog" noValidate onSubmit={onSubmit}>
				<h2 id={`${id}-title`}>{title}</h2>
				{children}
			</form>
		</dialog>
	);
}

/** The texts a confirm with a reason needs (the comments island passes its own). */
type ConfirmTexts = Pick<AdminTexts, 'admin.reason' | 'common.button.cancel'>;

function ReasonField({ texts, value, onChange }: { texts: ConfirmTexts; value: string; onChange: (value: string) => void }) {
	const id = useId();
	return (
		<div className="field admin-reason">
			<label htmlFor={id}>{texts['admin.reason']}</label>
			<textarea id={id} name="reason" rows={2} maxLength={REASON_MAX} value={value} onChange={(event) => onChange(event.target.value)} />
		</div>
	);
}

interface ConfirmProps {
	open: boolean;
	title: string;
	confirmLabel: string;
	danger?: boolean;
	texts: ConfirmTexts;
	/** The reason typed, or null when the moderator cancelled. */
	onClosed: (reason: string | null) => void;
}

/** Are you sure, with a reason kept in the audit log. */
export function ConfirmDialog({ open, title, confirmLabel, danger = false, texts, onClosed }: ConfirmProps) {
	const [reason, setReason] = useState('');
	useEffect(() => {
		if (open) setReason('');
	}, [open]);
	return (
		<Modal open={open} title={title} onClosed={(value) => onClosed(value === 'confirm' ? reason : null)}>
			<ReasonField texts={texts} value={reason} onChange={setReason} />
			<div className="dialog-actions">
				<button className="button secondary" type="submit" value="cancel">
					{texts['common.button.cancel']}
				</button>
				<button className={`button${danger ? ' danger' : ''}`} type="submit" value="confirm">
					{confirmLabel}
				</button>
			</div>
		</Modal>
	);
}

/** "Through 2026.12.05" for a ban that ends as its last day ends (the dialog's), "Until 2026.12.06 15:00" for another end. */
export function banUntil(endsAt: number, language: Language, texts: AdminTexts): string {
	const last = banLastDay(endsAt, language);
	return last === null
		? fill(texts['admin.bans.until'], { date: formatFullDate(endsAt, language) })
		: fill(texts['admin.bans.through'], { date: last });
}

interface BanProps {
	open: boolean;
	name: string;
	language: Language;
	texts: AdminTexts;
	/** The clock of the dialog's defaults and checks (the page's). */
	now: () => number;
	onClosed: (order: BanOrder | null) => void;
}

/**
 * The ban form: until a day (the ban ends when that day ends in the channel's time zone, the one
 * its dates are shown in; from tomorrow on) or permanently, with a reason, which the member reads
 * (their pages say the ban, docs/reference/moderation.md). The day is written as the app writes dates
 * (2026.12.05) in every language, not in the browser's own order (a date input showed 12/05/2026 to
 * an English browser); the calendar button opens the browser's date picker, whose choice is written
 * back the same way.
 */
export function BanDialog({ open, name, language, texts, now, onClosed }: BanProps) {
	const [kind, setKind] = useState<'TEMPORARY' | 'PERMANENT'>('TEMPORARY');
	const [until, setUntil] = useState('');
	const [reason, setReason] = useState('');
	const [invalid, setInvalid] = useState(false);
	const order = useRef<BanOrder | null>(null);
	const picker = useRef<HTMLInputElement>(null);
	const id = useId();
	useEffect(() => {
		if (!open) return;
		setKind('TEMPORARY');
		setUntil(dayFromToday(7, now(), language));
		setReason('');
		setInvalid(false);
		order.current = null;
	}, [open, now, language]);
	const parsed = parseDay(until);
	const tomorrow = dayFromToday(1, now(), language);

	const submit = (event: FormEvent<HTMLFormElement>) => {
		const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
		if (submitter?.value !== 'confirm') return;
		if (kind === 'PERMANENT') {
			order.current = { kind, reason };
			return;
		}
		// yyyy.MM.dd compares as text.
		if (parsed === null || parsed < tomorrow) {
			event.preventDefault();
			setInvalid(true);
			document.getElementById(`${id}-until`)?.focus();
			return;
		}
		order.current = { kind, endsAt: banEndsAt(parsed, language), reason };
	};

	return (
		<Modal
			open={open}
			title={fill(texts['admin.ban.title'], { name })}
			className="ban-dialog"
			onSubmit={submit}
			onClosed={() => onClosed(order.current)}
		>
			<p className="admin-dialog-note">{texts['admin.ban.sessions']}</p>
			<fieldset className="ban-length">
				<legend>{texts['admin.ban.length']}</legend>
				<label className="check">
					<input type="radio" name="kind" value="TEMPORARY" checked={kind === 'TEMPORARY'} onChange={() => setKind('TEMPORARY')} />
					<span>{texts['admin.ban.temporary']}</span>
				</label>
				<div className="field ban-until">
					<label htmlFor={`${id}-until`}>{texts['admin.ban.until']}</label>
					<div className="ban-until-row">
						<input
							id={`${id}-until`}
							type="text"
							inputMode="decimal"
							autoComplete="off"
							spellCheck={false}
							maxLength={14}
							value={until}
							disabled={kind !== 'TEMPORARY'}
							aria-invalid={invalid ? 'true' : undefined}
							aria-describedby={`${id}-hint${invalid ? ` ${id}-error` : ''}`}
							onChange={(event) => {
								setUntil(event.target.value);
								setInvalid(false);
							}}
							onBlur={() => {
								if (parsed !== null) setUntil(parsed);
							}}
						/>
						<button
							className="button secondary ban-calendar"
							type="button"
							disabled={kind !== 'TEMPORARY'}
							aria-label={texts['admin.ban.calendar']}
							title={texts['admin.ban.calendar']}
							onClick={() => {
								try {
									picker.current?.showPicker();
								} catch {
									document.getElementById(`${id}-until`)?.focus();
								}
							}}
						>
							<svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
								<path
									fill="none"
									stroke="currentColor"
									strokeWidth="2"
									strokeLinecap="round"
									d="M5 5h14a1 1 0 0 1 1 1v13a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V6a1 1 0 0 1 1-1zM4 10h16M8 3v4M16 3v4"
								/>
							</svg>
						</button>
						{/* The browser's calendar, never shown itself (its text would be in the browser's order): the button opens its picker. */}
						<input
							ref={picker}
							className="ban-picker"
							type="date"
							tabIndex={-1}
							aria-hidden="true"
							value={parsed === null ? '' : pickerValue(parsed)}
							min={pickerValue(tomorrow)}
							onChange={(event) => {
								const picked = parseDay(event.target.value);
								if (picked === null) return;
								setUntil(picked);
								setInvalid(false);
							}}
						/>
					</div>
					<p className="field-hint" id={`${id}-hint`}>
						{texts['admin.ban.untilHint']}
					</p>
					{invalid && (
						<p className="field-error" id={`${id}-error`} role="alert">
							{texts['admin.ban.untilInvalid']}
						</p>
					)}
				</div>
				<label className="check">
					<input type="radio" name="kind" value="PERMANENT" checked={kind === 'PERMANENT'} onChange={() => setKind('PERMANENT')} />
					<span>{texts['admin.ban.permanent']}</span>
				</label>
			</fieldset>
			<ReasonField texts={texts} value={reason} onChange={setReason} />
			<p className="field-hint">{texts['admin.reasonTold']}</p>
			<div className="dialog-actions">
				<button className="button secondary" type="submit" value="cancel">
					{texts['common.button.cancel']}
				</button>
				<button className="button danger" type="submit" value="confirm">
					{texts['admin.action.ban']}
				</button>
			</div>
		</Modal>
	);
}

interface HistoryProps {
	history: MemberBans | null;
	name: string;
	language: Language;
	texts: AdminTexts;
	now: () => number;
	onClosed: () => void;
}

/** A member's bans, oldest first: kind, start, end, reason, and whether it was lifted, ended or is in force. */
export function BanHistoryDialog({ history, name, language, texts, now, onClosed }: HistoryProps) {
	return (
		<Modal open={history !== null} title={fill(texts['admin.bans.history'], { name })} className="ban-history-dialog" onClosed={onClosed}>
			{history && history.bans.length === 0 && <p className="admin-empty">{texts['admin.bans.none']}</p>}
			{history && history.bans.length > 0 && (
				<ol className="ban-history" role="list">
					{history.bans.map((ban) => (
						<li key={ban.createdAt}>
							<p className="ban-history-head">
								<strong>{ban.kind === 'PERMANENT' ? texts['admin.bans.permanent'] : banUntil(ban.endsAt ?? 0, language, texts)}</strong>
								<span className={`admin-badge${inForce(ban, now()) ? ' danger' : ''}`}>
									{ban.liftedAt !== null
										? fill(texts['admin.bans.lifted'], { date: formatFullDate(ban.liftedAt, language) })
										: inForce(ban, now())
											? texts['admin.bans.inForce']
											: texts['admin.bans.ended']}
								</span>
							</p>
							<p className="admin-meta">{fill(texts['admin.bans.since'], { date: formatFullDate(ban.createdAt, language) })}</p>
							{ban.reason && <p className="admin-quote">{ban.reason}</p>}
						</li>
					))}
				</ol>
			)}
			<div className="dialog-actions">
				<button className="button" type="submit" value="close">
					{texts['common.button.close']}
				</button>
			</div>
		</Modal>
	);
}

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
import { inForce, type MemberBans } from './api';
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

export type BanOrder = { kind: 'TEMPORARY'; endsAt: number; reason: string } | { kind: 'PERMANENT'; reason: string };

/** A local calendar day as the date input writes it (YYYY-MM-DD). */
function dayInput(date: Date): string {
	return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
}

/** `days` after today, local time. */
function daysFromToday(days: number, now: number): Date {
	const date = new Date(now);
	return new Date(date.getFullYear(), date.getMonth(), date.getDate() + days);
}

interface BanProps {
	open: boolean;
	name: string;
	texts: AdminTexts;
	/** The clock of the dialog's defaults and checks (the page's). */
	now: () => number;
	onClosed: (order: BanOrder | null) => void;
}

/**
 * The ban form: until a day (the ban ends when that day ends, in the moderator's time zone; from
 * tomorrow on) or permanently, with a reason, which the member reads (their pages say the ban, docs/moderation.md).
 */
export function BanDialog({ open, name, texts, now, onClosed }: BanProps) {
	const [kind, setKind] = useState<'TEMPORARY' | 'PERMANENT'>('TEMPORARY');
	const [until, setUntil] = useState('');
	const [reason, setReason] = useState('');
	const [invalid, setInvalid] = useState(false);
	const order = useRef<BanOrder | null>(null);
	const id = useId();
	useEffect(() => {
		if (!open) return;
		setKind('TEMPORARY');
		setUntil(dayInput(daysFromToday(7, now())));
		setReason('');
		setInvalid(false);
		order.current = null;
	}, [open, now]);

	const submit = (event: FormEvent<HTMLFormElement>) => {
		const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
		if (submitter?.value !== 'confirm') return;
		if (kind === 'PERMANENT') {
			order.current = { kind, reason };
			return;
		}
		const [year, month, day] = until.split('-').map(Number);
		const last = year && month && day ? new Date(year, month - 1, day) : null;
		if (!last || Number.isNaN(last.getTime()) || last < daysFromToday(1, now())) {
			event.preventDefault();
			setInvalid(true);
			document.getElementById(`${id}-until`)?.focus();
			return;
		}
		order.current = { kind, endsAt: new Date(last.getFullYear(), last.getMonth(), last.getDate() + 1).getTime(), reason };
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
					<input
						id={`${id}-until`}
						type="date"
						value={until}
						min={dayInput(daysFromToday(1, now()))}
						disabled={kind !== 'TEMPORARY'}
						aria-invalid={invalid ? 'true' : undefined}
						aria-describedby={invalid ? `${id}-error` : undefined}
						onChange={(event) => {
							setUntil(event.target.value);
							setInvalid(false);
						}}
					/>
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
								<strong>
									{ban.kind === 'PERMANENT'
										? texts['admin.bans.permanent']
										: fill(texts['admin.bans.until'], { date: formatFullDate(ban.endsAt ?? 0, language) })}
								</strong>
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

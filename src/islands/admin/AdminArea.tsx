/**
 * The admin area of a community (issue 12): one island per tab, over the admin API. The page
 * renders the tab's first page on the server (the same services the API runs) and this island
 * takes it over: paging, the order of the reports queue, and every action, each confirmed in a
 * dialog with an optional reason for the audit log, then the list read again. A refusal because
 * the role was revoked reloads the page (which then answers not found); a session that ended goes
 * to login.
 */
import { useCallback, useId, useRef, useState, type ReactNode } from 'react';
import type { Language } from '@/schemas/channel';
import { formatFullDate } from '@/lib/format-date';
import { pageUrls } from '@/lib/urls';
import { FetchError, resultCodeOf } from '@/lib/api-client';
import { AutoHideThresholdInvalid, Banned, Forbidden, InvalidParameter, TooManyRequests, UserNotFound } from '@/lib/result-codes';
import { showToast } from '@/page-scripts/toast';
import AlertDialog from '@/islands/common/AlertDialog';
import { useHydrated } from '@/islands/common/use-hydrated';
import { useStore } from '@nanostores/react';
import { $session } from '@/stores/session';
import { fill } from '@/islands/comments/texts';
import { AUTO_HIDE_MAX, REPORT_MIN_AGE_MAX_HOURS, REPORT_MIN_AGE_RECOMMENDED_HOURS } from '@/schemas/moderation-limits';
import {
	adminApi,
	inForce,
	type AdminApi,
	type BansPage,
	type HistoryPage,
	type LogEntry,
	type LogPage,
	type TargetLabel,
	type MemberBans,
	type Person,
	type QueueGroup,
	type QueueOrder,
	type QueuePage,
	type Settings,
	type StoredText,
	type TargetType,
} from './api';
import { BanDialog, BanHistoryDialog, ConfirmDialog, type BanOrder } from './dialogs';
import type { AdminTextKey, AdminTexts } from './texts';

export type AdminTab = 'reports' | 'history' | 'bans' | 'log' | 'settings';

export interface AdminAreaProps {
	tab: AdminTab;
	api: string;
	channelBase: string;
	loginUrl: string;
	language: Language;
	texts: AdminTexts;
	order: QueueOrder;
	initial: QueuePage | HistoryPage | BansPage | LogPage | Settings;
}

interface Shared {
	api: AdminApi;
	urls: ReturnType<typeof pageUrls>;
	language: Language;
	texts: AdminTexts;
	/**
	 * Runs an action; on success shows `done` and calls `after`; on failure says why (`forbidden`
	 * for a refusal while the role still holds) and then calls `after`, to show the list as it is now.
	 */
	act: (action: () => Promise<unknown>, done: string, after: () => Promise<void> | void, forbidden?: string) => Promise<void>;
	busy: boolean;
	date: (ms: number) => string;
}

/** The page and order in the address, so that a reload or a shared link opens the same list. */
function remember(values: Record<string, string | number | null>): void {
	const url = new URL(location.href);
	for (const [key, value] of Object.entries(values)) {
		if (value === null || value === 1 || value === 'newest') url.searchParams.delete(key);
		else url.searchParams.set(key, String(value));
	}
	history.replaceState(history.state, '', url);
}

function Pager({ page, totalPages, texts, onGo }: { page: number; totalPages: number; texts: AdminTexts; onGo: (page: number) => void }) {
	if (totalPages <= 1) return null;
	return (
		<nav className="admin-pager" aria-label={texts['pagination.label']}>
			<button className="button secondary" type="button" disabled={page <= 1} onClick={() => onGo(page - 1)}>
				{texts['pagination.prev']}
			</button>
			<span aria-live="polite">{fill(texts['admin.page'], { page, total: totalPages })}</span>
			<button className="button secondary" type="button" disabled={page >= totalPages} onClick={() => onGo(page + 1)}>
				{texts['pagination.next']}
			</button>
		</nav>
	);
}

function Name({ person, shared }: { person: Person | null; shared: Shared }) {
	if (!person) return <span>{shared.texts['admin.log.operator']}</span>;
	if (person.nickname === null) return <span>{shared.texts['common.withdrawnMember']}</span>;
	return <a href={shared.urls.user(person.userId)}>{person.nickname}</a>;
}

/**
 * Show text / Hide text: a post's or comment's text as the database keeps it (hidden and deleted
 * ones too), read from the admin API when first opened, for an appeal or a second look.
 */
function StoredTextToggle({ type, id, shared }: { type: TargetType; id: number; shared: Shared }) {
	const { texts } = shared;
	const [open, setOpen] = useState(false);
	const [stored, setStored] = useState<StoredText | null>(null);
	const regionId = useId();
	const toggle = async () => {
		if (open || stored) {
			setOpen(!open);
			return;
		}
		setOpen(true);
		try {
			setStored(await shared.api.storedText(type, id));
		} catch (error) {
			setOpen(false);
			await shared.act(
				() => Promise.reject(error),
				'',
				() => undefined,
			);
		}
	};
	return (
		<div className="admin-stored">
			<button
				className="admin-text-toggle"
				type="button"
				aria-expanded={open ? 'true' : 'false'}
				aria-controls={regionId}
				onClick={() => void toggle()}
			>
				{texts[open ? 'admin.text.hide' : 'admin.text.show']}
			</button>
			<div
				id={regionId}
				className="admin-stored-text"
				role="region"
				aria-label={texts['admin.text.label']}
				hidden={!open}
				data-stored-text={`${type}-${id}`}
			>
				{stored ? (
					<>
						<p className="admin-meta">
							{stored.writer.withdrawn ? texts['common.withdrawnMember'] : stored.writer.nickname} · {shared.date(stored.createdAt)}
							{stored.editedAt !== null && <> · {fill(texts['admin.text.edited'], { date: shared.date(stored.editedAt) })}</>}
							{stored.deletedAt !== null && <> · {fill(texts['admin.text.deleted'], { date: shared.date(stored.deletedAt) })}</>}
						</p>
						{stored.title !== null && <p className="admin-stored-title">{stored.title}</p>}
						<p className="admin-quote">{stored.text}</p>
					</>
				) : (
					open && <p className="admin-meta">{texts['admin.loading']}</p>
				)}
			</div>
		</div>
	);
}

/** A list read a page at a time: the page shown, going to another, and reading it again. */
function usePaged<T extends { page: number; totalPages: number }>(initial: T, load: (page: number) => Promise<T>) {
	const [data, setData] = useState(initial);
	const go = useCallback(
		async (page: number) => {
			let next = await load(page);
			if (next.page > next.totalPages && next.totalPages >= 1) next = await load(next.totalPages);
			setData(next);
			remember({ page: next.page });
		},
		[load],
	);
	return { data, go, reload: () => go(data.page) };
}

interface Pending {
	title: string;
	confirmLabel: string;
	danger?: boolean;
	run: (reason: string) => Promise<unknown>;
	done: string;
}

function ReportsTab({ initial, order: initialOrder, shared }: { initial: QueuePage; order: QueueOrder; shared: Shared }) {
	const { texts } = shared;
	const [order, setOrder] = useState(initialOrder);
	const orderRef = useRef(order);
	const load = useCallback((page: number) => shared.api.queue(page, orderRef.current), [shared.api]);
	const { data, go, reload } = usePaged(initial, load);
	const [pending, setPending] = useState<Pending | null>(null);
	const [banning, setBanning] = useState<Person | null>(null);
	const heading = useRef<HTMLHeadingElement>(null);

	const changeOrder = async (next: QueueOrder) => {
		orderRef.current = next;
		setOrder(next);
		remember({ order: next });
		await go(1);
	};
	const afterAction = async () => {
		await reload();
		// The group acted on has left the list: focus goes back to the top of the list.
		if (!document.activeElement || document.activeElement === document.body) heading.current?.focus();
	};
	const confirmFor = (group: QueueGroup, what: 'hide' | 'keepHidden' | 'unhide' | 'dismiss'): Pending => {
		const type = group.targetType;
		if (what === 'dismiss')
			return {
				title: texts['admin.confirm.dismiss'],
				confirmLabel: texts['admin.action.dismiss'],
				run: (reason) => shared.api.dismiss(type, group.targetId, reason),
				done: texts['admin.done.dismissed'],
			};
		if (what === 'unhide')
			return {
				title: texts[`admin.confirm.unhide${type}`],
				confirmLabel: texts['admin.action.unhide'],
				run: (reason) => shared.api.setHidden(type, group.targetId, false, reason),
				done: texts['admin.done.shown'],
			};
		const title = what === 'keepHidden' ? texts['admin.confirm.keepHidden'] : texts[`admin.confirm.hide${type}`];
		return {
			title,
			confirmLabel: texts[what === 'keepHidden' ? 'admin.action.keepHidden' : 'admin.action.hide'],
			danger: true,
			run: (reason) => shared.api.setHidden(type, group.targetId, true, reason),
			done: texts['admin.done.hidden'],
		};
	};

	return (
		<section className="admin-section" aria-labelledby="admin-reports-title">
			<div className="admin-toolbar">
				<h2 id="admin-reports-title" ref={heading} tabIndex={-1}>
					{fill(texts['admin.reports.targets'], { count: data.totalCount })}
				</h2>
				<div className="admin-order" role="group" aria-label={texts['admin.order']}>
					{(['newest', 'most'] as const).map((key) => (
						<button
							key={key}
							type="button"
							className="admin-chip"
							aria-pressed={order === key ? 'true' : 'false'}
							onClick={() => void changeOrder(key)}
						>
							{texts[`admin.order.${key}`]}
						</button>
					))}
				</div>
			</div>
			{data.groups.length === 0 ? (
				<p className="admin-empty">{texts['admin.reports.empty']}</p>
			) : (
				<ol className="admin-list" role="list">
					{data.groups.map((group) => (
						<li
							key={`${group.targetType}-${group.targetId}`}
							className="admin-item report-group"
							data-target={`${group.targetType}-${group.targetId}`}
						>
							<QueueItem
								group={group}
								shared={shared}
								onAction={(what) => setPending(confirmFor(group, what))}
								onBan={() => group.writer && setBanning(group.writer)}
							/>
						</li>
					))}
				</ol>
			)}
			<Pager page={data.page} totalPages={data.totalPages} texts={texts} onGo={(page) => void go(page)} />
			<ConfirmDialog
				open={pending !== null}
				title={pending?.title ?? ''}
				confirmLabel={pending?.confirmLabel ?? ''}
				danger={pending?.danger ?? false}
				texts={texts}
				onClosed={(reason) => {
					const action = pending;
					setPending(null);
					if (action && reason !== null) void shared.act(() => action.run(reason), action.done, afterAction);
				}}
			/>
			<BanDialog
				open={banning !== null}
				name={banning?.nickname ?? ''}
				texts={texts}
				now={Date.now}
				onClosed={(order) => {
					const member = banning;
					setBanning(null);
					if (member && order)
						void shared.act(
							() => shared.api.ban(member.userId, order),
							fill(texts['admin.done.banned'], { name: member.nickname ?? '' }),
							reload,
							texts['admin.ban.isAdmin'],
						);
				}}
			/>
		</section>
	);
}

function QueueItem({
	group,
	shared,
	onAction,
	onBan,
}: {
	group: QueueGroup;
	shared: Shared;
	onAction: (what: 'hide' | 'keepHidden' | 'unhide' | 'dismiss') => void;
	onBan: () => void;
}) {
	const { texts, urls } = shared;
	const link = group.postId === null ? null : group.targetType === 'POST' ? urls.post(group.postId) : urls.post(group.postId, group.targetId);
	const excerpt = group.excerpt ?? texts['admin.deletedTarget'];
	return (
		<article>
			<header className="admin-item-head">
				<span className="admin-badge">{texts[`admin.target.${group.targetType}`]}</span>
				{group.hidden && <span className="admin-badge danger">{texts['admin.state.hidden']}</span>}
				{group.deleted && <span className="admin-badge">{texts['admin.state.deleted']}</span>}
				<span className="admin-count">{fill(texts['admin.reports.count'], { count: group.count })}</span>
			</header>
			<p className="admin-excerpt">{link && !group.deleted ? <a href={link}>{excerpt}</a> : excerpt}</p>
			<p className="admin-meta">
				{texts['admin.writer']}: <Name person={group.writer} shared={shared} /> ·{' '}
				{fill(texts['admin.reports.last'], { date: shared.date(group.lastReportedAt) })}
			</p>
			<ul className="admin-reports" role="list" aria-label={texts['admin.reporter']}>
				{group.reports.map((report) => (
					<li key={`${report.reporter.userId}-${report.createdAt}`}>
						<span className="admin-reason">{texts[`report.reason.${report.reasonCode}` as AdminTextKey] ?? report.reasonCode}</span>
						{report.reasonText && <span className="admin-quote">{report.reasonText}</span>}
						<span className="admin-meta">
							<Name person={report.reporter} shared={shared} /> · {shared.date(report.createdAt)}
						</span>
					</li>
				))}
			</ul>
			{group.count > group.reports.length && (
				<p className="admin-meta">{fill(texts['admin.reports.more'], { count: group.count - group.reports.length })}</p>
			)}
			<StoredTextToggle type={group.targetType} id={group.targetId} shared={shared} />
			<div className="admin-actions">
				{!group.deleted && !group.hidden && (
					<button className="button danger" type="button" disabled={shared.busy} onClick={() => onAction('hide')}>
						{texts['admin.action.hide']}
					</button>
				)}
				{!group.deleted && group.hidden && (
					<>
						<button className="button danger" type="button" disabled={shared.busy} onClick={() => onAction('keepHidden')}>
							{texts['admin.action.keepHidden']}
						</button>
						<button className="button secondary" type="button" disabled={shared.busy} onClick={() => onAction('unhide')}>
							{texts['admin.action.unhide']}
						</button>
					</>
				)}
				<button className="button secondary" type="button" disabled={shared.busy} onClick={() => onAction('dismiss')}>
					{texts['admin.action.dismiss']}
				</button>
				{group.writer && group.writer.nickname !== null && (
					<button className="button secondary" type="button" disabled={shared.busy} onClick={onBan}>
						{texts['admin.action.banWriter']}
					</button>
				)}
			</div>
		</article>
	);
}

function HistoryTab({ initial, shared }: { initial: HistoryPage; shared: Shared }) {
	const { texts, urls } = shared;
	const { data, go } = usePaged(initial, shared.api.history);
	return (
		<section className="admin-section" aria-labelledby="admin-history-title">
			<h2 id="admin-history-title" className="visually-hidden">
				{texts['admin.tab.history']}
			</h2>
			{data.reports.length === 0 ? (
				<p className="admin-empty">{texts['admin.history.empty']}</p>
			) : (
				<ol className="admin-list" role="list">
					{data.reports.map((report) => (
						<li key={report.reportId} className="admin-item">
							<p className="admin-item-head">
								<span className="admin-badge">{texts[`admin.target.${report.targetType}`]}</span>
								<TargetName type={report.targetType} id={report.targetId} target={report.target} shared={shared} />
								<span className={`admin-badge${report.status === 'RESOLVED' ? ' danger' : ''}`}>{texts[`admin.history.${report.status}`]}</span>
								<span className="admin-meta">
									{report.resolvedBy && (
										<>{fill(texts['admin.history.by'], { name: report.resolvedBy.nickname ?? texts['common.withdrawnMember'] })} · </>
									)}
									{shared.date(report.resolvedAt)}
								</span>
							</p>
							<p>
								<span className="admin-reason">{texts[`report.reason.${report.reasonCode}` as AdminTextKey] ?? report.reasonCode}</span>
								{report.reasonText && <span className="admin-quote">{report.reasonText}</span>}
							</p>
							<p className="admin-meta">
								{texts['admin.reporter']}:{' '}
								{report.reporter.nickname === null ? (
									texts['common.withdrawnMember']
								) : (
									<a href={urls.user(report.reporter.userId)}>{report.reporter.nickname}</a>
								)}{' '}
								· {shared.date(report.createdAt)}
							</p>
							<StoredTextToggle type={report.targetType} id={report.targetId} shared={shared} />
						</li>
					))}
				</ol>
			)}
			<Pager page={data.page} totalPages={data.totalPages} texts={texts} onGo={(page) => void go(page)} />
		</section>
	);
}

function BansTab({ initial, shared }: { initial: BansPage; shared: Shared }) {
	const { texts } = shared;
	const { data, go, reload } = usePaged(initial, shared.api.bans);
	const [nickname, setNickname] = useState('');
	const [found, setFound] = useState<MemberBans | null>(null);
	const [notFound, setNotFound] = useState(false);
	const [banning, setBanning] = useState<Person | null>(null);
	const [lifting, setLifting] = useState<Person | null>(null);
	const [history, setHistory] = useState<{ name: string; bans: MemberBans } | null>(null);
	const findId = 'admin-find-member';

	const find = async () => {
		setNotFound(false);
		setFound(null);
		if (!nickname.trim()) return;
		try {
			setFound(await shared.api.findMember(nickname.trim()));
		} catch (error) {
			if (resultCodeOf(error) === UserNotFound.code || resultCodeOf(error) === InvalidParameter.code) setNotFound(true);
			else
				await shared.act(
					() => Promise.reject(error),
					'',
					() => undefined,
				);
		}
	};
	const refresh = async () => {
		await reload();
		if (found) setFound(await shared.api.memberBans(found.member.userId));
	};
	const showHistory = async (person: Person) => {
		try {
			setHistory({ name: person.nickname ?? texts['common.withdrawnMember'], bans: await shared.api.memberBans(person.userId) });
		} catch (error) {
			await shared.act(
				() => Promise.reject(error),
				'',
				() => undefined,
			);
		}
	};
	const now = Date.now();
	const foundBanned = found ? found.bans.some((ban) => inForce(ban, now)) : false;

	return (
		<section className="admin-section" aria-labelledby="admin-bans-title">
			<form
				className="admin-find"
				role="search"
				onSubmit={(event) => {
					event.preventDefault();
					void find();
				}}
			>
				<div className="field">
					<label htmlFor={findId}>{texts['admin.bans.find']}</label>
					<div className="admin-find-row">
						<input
							id={findId}
							type="search"
							value={nickname}
							placeholder={texts['admin.bans.nickname']}
							maxLength={100}
							aria-describedby={notFound ? `${findId}-none` : undefined}
							onChange={(event) => setNickname(event.target.value)}
						/>
						<button className="button secondary" type="submit">
							{texts['admin.bans.search']}
						</button>
					</div>
					{notFound && (
						<p className="field-error" id={`${findId}-none`} role="status">
							{texts['admin.bans.notFound']}
						</p>
					)}
				</div>
			</form>
			{found && (
				<div className="admin-item admin-found" data-found-member={found.member.userId}>
					<p className="admin-item-head">
						<Name person={found.member} shared={shared} />
						{foundBanned && <span className="admin-badge danger">{texts['admin.bans.inForce']}</span>}
					</p>
					{found.member.admin ? (
						<p className="admin-meta">{texts['admin.ban.isAdmin']}</p>
					) : (
						<div className="admin-actions">
							<button className="button danger" type="button" disabled={shared.busy} onClick={() => setBanning(found.member)}>
								{texts['admin.action.ban']}
							</button>
							{foundBanned && (
								<button className="button secondary" type="button" disabled={shared.busy} onClick={() => setLifting(found.member)}>
									{texts['admin.action.unban']}
								</button>
							)}
							<button className="button secondary" type="button" onClick={() => setHistory({ name: found.member.nickname ?? '', bans: found })}>
								{texts['admin.action.banHistory']}
							</button>
						</div>
					)}
				</div>
			)}
			<h2 id="admin-bans-title">{texts['admin.tab.bans']}</h2>
			{data.bans.length === 0 ? (
				<p className="admin-empty">{texts['admin.bans.empty']}</p>
			) : (
				<ol className="admin-list" role="list">
					{data.bans.map((ban) => (
						<li key={ban.member.userId} className="admin-item" data-banned-member={ban.member.userId}>
							<p className="admin-item-head">
								<Name person={ban.member} shared={shared} />
								<span className="admin-badge danger">
									{ban.kind === 'PERMANENT' ? texts['admin.bans.permanent'] : fill(texts['admin.bans.until'], { date: shared.date(ban.endsAt ?? 0) })}
								</span>
								<span className="admin-meta">{fill(texts['admin.bans.since'], { date: shared.date(ban.createdAt) })}</span>
							</p>
							{ban.reason && <p className="admin-quote">{ban.reason}</p>}
							<div className="admin-actions">
								<button className="button secondary" type="button" disabled={shared.busy} onClick={() => setLifting(ban.member)}>
									{texts['admin.action.unban']}
								</button>
								<button className="button secondary" type="button" onClick={() => void showHistory(ban.member)}>
									{texts['admin.action.banHistory']}
								</button>
							</div>
						</li>
					))}
				</ol>
			)}
			<Pager page={data.page} totalPages={data.totalPages} texts={texts} onGo={(page) => void go(page)} />
			<BanDialog
				open={banning !== null}
				name={banning?.nickname ?? ''}
				texts={texts}
				now={Date.now}
				onClosed={(order: BanOrder | null) => {
					const member = banning;
					setBanning(null);
					if (member && order)
						void shared.act(
							() => shared.api.ban(member.userId, order),
							fill(texts['admin.done.banned'], { name: member.nickname ?? '' }),
							refresh,
							texts['admin.ban.isAdmin'],
						);
				}}
			/>
			<ConfirmDialog
				open={lifting !== null}
				title={fill(texts['admin.confirm.unban'], { name: lifting?.nickname ?? texts['common.withdrawnMember'] })}
				confirmLabel={texts['admin.action.unban']}
				texts={texts}
				onClosed={(reason) => {
					const member = lifting;
					setLifting(null);
					if (member && reason !== null) void shared.act(() => shared.api.unban(member.userId, reason), texts['admin.done.unbanned'], refresh);
				}}
			/>
			<BanHistoryDialog
				history={history?.bans ?? null}
				name={history?.name ?? ''}
				language={shared.language}
				texts={texts}
				now={Date.now}
				onClosed={() => setHistory(null)}
			/>
		</section>
	);
}

type Target = { type: LogEntry['targetType']; id: number; target: TargetLabel };

/**
 * How a list names a target: a post by its title, a comment by its excerpt, a member by nickname,
 * and by id (#1330) only where the API has nothing to show (deleted, withdrawn, gone).
 */
function targetName({ type, id, target }: Target, texts: AdminTexts): string {
	const quoted = (text: string) => fill(texts['admin.target.quoted'], { text });
	if (type === 'POST' && target.title !== null) return quoted(target.title);
	if (type === 'COMMENT' && target.excerpt !== null) return quoted(target.excerpt);
	if (type === 'MEMBER' && target.nickname !== null) return target.nickname;
	return `#${id}`;
}

/** Where a target's link goes: the post, the comment in its post, the member's page; none for the community. */
function targetHref({ type, id, target }: Target, urls: Shared['urls']): string | null {
	if (type === 'POST') return urls.post(target.postId ?? id);
	if (type === 'COMMENT') return target.postId === null ? null : `${urls.post(target.postId)}?commentId=${id}#comment-${id}`;
	if (type === 'MEMBER') return urls.user(id);
	return null;
}

/** A comment's post, by title, after the comment's own name. */
function InPost({ type, target, shared }: Target & { shared: Shared }) {
	if (type !== 'COMMENT' || target.title === null || target.postId === null) return null;
	return (
		<span className="admin-meta" data-target-post>
			{' · '}
			<a href={shared.urls.post(target.postId)}>{fill(shared.texts['admin.target.quoted'], { text: target.title })}</a>
		</span>
	);
}

/** A closed report's target, named and linked. */
function TargetName({ shared, ...named }: Target & { shared: Shared }) {
	const href = targetHref(named, shared.urls);
	const name = targetName(named, shared.texts);
	return (
		<span className="admin-target" data-target-name>
			{href ? <a href={href}>{name}</a> : name}
			<InPost {...named} shared={shared} />
		</span>
	);
}

/** What a log entry did, in words, with a link to its target where there is a page for it. */
function LogWhat({ entry, shared }: { entry: LogEntry; shared: Shared }) {
	const { texts, urls } = shared;
	if (entry.action === 'SETTINGS') {
		// The reason holds the values set: `autoHideReports=3 reportMinAgeHours=72` (before issue 22, the first alone).
		const value = /(?:^|\s)autoHideReports=(\d+)/.exec(entry.reason)?.[1];
		const hours = /(?:^|\s)reportMinAgeHours=(\d+)/.exec(entry.reason)?.[1];
		const parts = [
			fill(texts['admin.settings.value'], { value: value ?? texts['admin.settings.off'] }),
			...(hours === undefined ? [] : [fill(texts['admin.settings.minAgeValue'], { hours })]),
		];
		return <>{`${texts['admin.log.SETTINGS']}: ${parts.join(', ')}`}</>;
	}
	const key = `admin.log.${entry.action}` as AdminTextKey;
	const named: Target = { type: entry.targetType, id: entry.targetId, target: entry.target };
	const text = fill(texts[key] ?? entry.action, { id: targetName(named, texts), target: texts[`admin.target.${entry.targetType}`] });
	const href = targetHref(named, urls);
	return (
		<span data-target-name>
			{href ? <a href={href}>{text}</a> : text}
			<InPost {...named} shared={shared} />
		</span>
	);
}

function LogTab({ initial, shared }: { initial: LogPage; shared: Shared }) {
	const { texts } = shared;
	const { data, go } = usePaged(initial, shared.api.log);
	return (
		<section className="admin-section" aria-labelledby="admin-log-title">
			<h2 id="admin-log-title" className="visually-hidden">
				{texts['admin.tab.log']}
			</h2>
			{data.entries.length === 0 ? (
				<p className="admin-empty">{texts['admin.log.empty']}</p>
			) : (
				<div className="admin-table-wrap">
					<table className="admin-table">
						<thead>
							<tr>
								<th scope="col">{texts['admin.log.when']}</th>
								<th scope="col">{texts['admin.log.who']}</th>
								<th scope="col">{texts['admin.log.what']}</th>
								<th scope="col">{texts['admin.log.why']}</th>
							</tr>
						</thead>
						<tbody>
							{data.entries.map((entry) => (
								<tr key={entry.entryId} data-log-action={entry.action}>
									<td className="admin-nowrap">{shared.date(entry.createdAt)}</td>
									<td>
										{entry.moderator ? (
											<Name person={entry.moderator} shared={shared} />
										) : entry.action.startsWith('AUTO_') ? (
											texts['admin.log.automatic']
										) : (
											texts['admin.log.operator']
										)}
									</td>
									<td>
										<LogWhat entry={entry} shared={shared} />
										{(entry.targetType === 'POST' || entry.targetType === 'COMMENT') && (
											<StoredTextToggle type={entry.targetType} id={entry.targetId} shared={shared} />
										)}
									</td>
									<td className="admin-quote-cell">{entry.action === 'SETTINGS' ? '' : entry.reason}</td>
								</tr>
							))}
						</tbody>
					</table>
				</div>
			)}
			<Pager page={data.page} totalPages={data.totalPages} texts={texts} onGo={(page) => void go(page)} />
		</section>
	);
}

/** A whole number typed in a field, within [min, max]; null when it is not one. */
function wholeIn(text: string, min: number, max: number): number | null {
	const number = Number(text);
	return /^\d+$/.test(text) && number >= min && number <= max ? number : null;
}

function SettingsTab({ initial, shared }: { initial: Settings; shared: Shared }) {
	const { texts } = shared;
	const [value, setValue] = useState(initial.autoHideReports === null ? '' : String(initial.autoHideReports));
	const [age, setAge] = useState(String(initial.reportMinAgeHours));
	const [invalid, setInvalid] = useState<{ threshold: boolean; age: boolean }>({ threshold: false, age: false });
	const id = 'admin-auto-hide';
	const ageId = 'admin-report-age';
	const recommended = { hours: REPORT_MIN_AGE_RECOMMENDED_HOURS };
	const typedAge = wholeIn(age.trim(), 0, REPORT_MIN_AGE_MAX_HOURS);
	const save = async () => {
		const text = value.trim();
		const threshold = text === '' ? null : wholeIn(text, 1, AUTO_HIDE_MAX);
		const wrong = { threshold: text !== '' && threshold === null, age: typedAge === null };
		setInvalid(wrong);
		if (wrong.threshold || wrong.age) {
			document.getElementById(wrong.threshold ? id : ageId)?.focus();
			return;
		}
		await shared.act(
			() => shared.api.saveSettings({ autoHideReports: threshold, reportMinAgeHours: typedAge ?? 0 }),
			texts['admin.done.saved'],
			() => undefined,
		);
	};
	return (
		<section className="admin-section" aria-labelledby="admin-settings-title">
			<h2 id="admin-settings-title" className="visually-hidden">
				{texts['admin.tab.settings']}
			</h2>
			<form
				className="admin-settings"
				noValidate
				onSubmit={(event) => {
					event.preventDefault();
					void save();
				}}
			>
				<div className="field">
					<label htmlFor={id}>{texts['admin.settings.autoHide']}</label>
					<input
						id={id}
						type="number"
						inputMode="numeric"
						min={1}
						max={AUTO_HIDE_MAX}
						step={1}
						value={value}
						placeholder={texts['admin.settings.off']}
						aria-invalid={invalid.threshold ? 'true' : undefined}
						aria-describedby={`${id}-hint${invalid.threshold ? ` ${id}-error` : ''}`}
						onChange={(event) => {
							setValue(event.target.value);
							setInvalid((was) => ({ ...was, threshold: false }));
						}}
					/>
					<p className="field-hint" id={`${id}-hint`}>
						{texts['admin.settings.autoHideHint']}
					</p>
					{invalid.threshold && (
						<p className="field-error" id={`${id}-error`} role="alert">
							{texts['admin.settings.invalid']}
						</p>
					)}
				</div>
				<div className="field">
					<label htmlFor={ageId}>{texts['admin.settings.minAge']}</label>
					<input
						id={ageId}
						type="number"
						inputMode="numeric"
						min={0}
						max={REPORT_MIN_AGE_MAX_HOURS}
						step={1}
						value={age}
						aria-invalid={invalid.age ? 'true' : undefined}
						aria-describedby={`${ageId}-hint${typedAge !== null && typedAge < REPORT_MIN_AGE_RECOMMENDED_HOURS ? ` ${ageId}-low` : ''}${invalid.age ? ` ${ageId}-error` : ''}`}
						onChange={(event) => {
							setAge(event.target.value);
							setInvalid((was) => ({ ...was, age: false }));
						}}
					/>
					<p className="field-hint" id={`${ageId}-hint`}>
						{fill(texts['admin.settings.minAgeHint'], recommended)}
					</p>
					{typedAge !== null && typedAge < REPORT_MIN_AGE_RECOMMENDED_HOURS && (
						<p className="field-hint admin-warning" id={`${ageId}-low`} data-below-recommended>
							{fill(texts['admin.settings.belowRecommended'], recommended)}
						</p>
					)}
					{invalid.age && (
						<p className="field-error" id={`${ageId}-error`} role="alert">
							{texts['admin.settings.minAgeInvalid']}
						</p>
					)}
				</div>
				<button className="button" type="submit" disabled={shared.busy} aria-busy={shared.busy ? 'true' : undefined}>
					{texts['admin.settings.save']}
				</button>
			</form>
		</section>
	);
}

export default function AdminArea(props: AdminAreaProps) {
	const { tab, texts, language } = props;
	const [busy, setBusy] = useState(false);
	const hydrated = useHydrated();
	// Signed out (here or in another tab) or no longer an administrator: nothing here can act any more.
	const session = useStore($session, { ssr: 'initial' });
	const locked = session !== null && (session.kind !== 'member' || session.member.role !== 'ADMIN');
	const [alert, setAlert] = useState<{ message: string; after: () => void } | null>(null);
	const api = useRef(adminApi(props.api)).current;
	const urls = pageUrls(props.channelBase);

	const act: Shared['act'] = async (action, done, after, forbidden) => {
		setBusy(true);
		try {
			await action();
			if (done) showToast(done);
			await after();
		} catch (error) {
			const code = resultCodeOf(error);
			// The session ended, or the role was revoked (the admin API refuses even a read): the page
			// itself says so, from login or as not found.
			if (error instanceof FetchError && error.status === 401) {
				location.assign(props.loginUrl);
				return;
			}
			// A ban (the API answers it before the role): the page opens the ban dialog.
			const stillAdmin =
				code === Banned.code
					? false
					: code === Forbidden.code
						? await api.settings().then(
								() => true,
								() => false,
							)
						: true;
			if (!stillAdmin) {
				location.reload();
				return;
			}
			// Anything else (someone else acted first, the target was deleted): say so, then show the list as it is now.
			// The API's refusal of a field the area checks too (a page older than the API's rules) says the field's text.
			const fieldText = code === AutoHideThresholdInvalid.code ? texts['admin.settings.invalid'] : null;
			const message =
				code === TooManyRequests.code
					? texts['common.message.tooManyRequests']
					: (fieldText ?? (code === Forbidden.code && forbidden ? forbidden : texts['common.message.error']));
			setAlert({ message, after: () => void Promise.resolve(after()).catch(() => undefined) });
		} finally {
			setBusy(false);
		}
	};
	const shared: Shared = { api, urls, language, texts, act, busy, date: (ms) => formatFullDate(ms, language) };

	let body: ReactNode;
	if (tab === 'reports') body = <ReportsTab initial={props.initial as QueuePage} order={props.order} shared={shared} />;
	else if (tab === 'history') body = <HistoryTab initial={props.initial as HistoryPage} shared={shared} />;
	else if (tab === 'bans') body = <BansTab initial={props.initial as BansPage} shared={shared} />;
	else if (tab === 'log') body = <LogTab initial={props.initial as LogPage} shared={shared} />;
	else body = <SettingsTab initial={props.initial as Settings} shared={shared} />;

	return (
		<div className="admin-area" data-admin-tab={tab} aria-busy={busy ? 'true' : undefined}>
			{/* Every control works through the island: disabled until it has hydrated, so a press cannot be lost. */}
			<fieldset className="admin-controls" disabled={!hydrated || locked}>
				{body}
			</fieldset>
			<AlertDialog
				open={alert !== null}
				title={texts['common.message.alert']}
				message={alert?.message ?? ''}
				confirmLabel={texts['common.button.confirm']}
				onClosed={() => {
					const next = alert;
					setAlert(null);
					next?.after();
				}}
			/>
		</div>
	);
}

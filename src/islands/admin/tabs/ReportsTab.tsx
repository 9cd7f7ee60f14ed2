/** The reports queue: groups of reports by target, in the order chosen, with their actions. */
import { useCallback, useRef, useState } from 'react';
import { fill } from '@/islands/comments/texts';
import type { Person, QueueGroup, QueueOrder, QueuePage } from '@/islands/admin/api';
import { BanDialog, ConfirmDialog } from '@/islands/admin/dialogs';
import type { AdminTextKey } from '@/islands/admin/texts';
import { type Shared, remember, Pager, Name, StoredTextToggle, usePaged } from '@/islands/admin/shared';

interface Pending {
	title: string;
	confirmLabel: string;
	danger?: boolean;
	run: (reason: string) => Promise<unknown>;
	done: string;
}

export default function ReportsTab({ initial, order: initialOrder, shared }: { initial: QueuePage; order: QueueOrder; shared: Shared }) {
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
				language={shared.language}
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

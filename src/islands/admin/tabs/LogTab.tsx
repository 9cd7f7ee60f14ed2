/** The audit log: every moderation action, newest first. */
import { fill } from '@/islands/comments/texts';
import type { LogEntry, LogPage } from '@/islands/admin/api';
import type { AdminTextKey } from '@/islands/admin/texts';
import { type Shared, Pager, Name, StoredTextToggle, usePaged, type Target, targetName, targetHref, InPost } from '@/islands/admin/shared';

/** What a log entry did, in words, with a link to its target where there is a page for it. */
function LogWhat({ entry, shared }: { entry: LogEntry; shared: Shared }) {
	const { texts, urls } = shared;
	if (entry.action === 'SETTINGS') {
		// The reason holds the values set: `autoHideReports=3 reportMinAgeHours=72` (before, the first alone).
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

export default function LogTab({ initial, shared }: { initial: LogPage; shared: Shared }) {
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
									<td className="admin-nowrap admin-log-when">{shared.date(entry.createdAt)}</td>
									<td className="admin-log-who">
										{entry.moderator ? (
											<Name person={entry.moderator} shared={shared} />
										) : (
											<span className="admin-name">{texts[entry.action.startsWith('AUTO_') ? 'admin.log.automatic' : 'admin.log.operator']}</span>
										)}
									</td>
									<td className="admin-log-what">
										<LogWhat entry={entry} shared={shared} />
										{(entry.targetType === 'POST' || entry.targetType === 'COMMENT') && (
											<StoredTextToggle type={entry.targetType} id={entry.targetId} shared={shared} />
										)}
									</td>
									<td className="admin-quote-cell admin-log-why" data-label={texts['admin.log.why']}>
										{entry.action === 'SETTINGS' ? '' : entry.reason}
									</td>
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

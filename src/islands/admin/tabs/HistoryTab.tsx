/** Closed reports: what was done with each and by whom. */
import { fill } from '@/islands/comments/texts';
import type { HistoryPage } from '@/islands/admin/api';
import type { AdminTextKey } from '@/islands/admin/texts';
import { type Shared, Pager, StoredTextToggle, usePaged, TargetName } from '@/islands/admin/shared';

export default function HistoryTab({ initial, shared }: { initial: HistoryPage; shared: Shared }) {
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

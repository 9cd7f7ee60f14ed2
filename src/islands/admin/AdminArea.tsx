/**
 * The admin area of a community: one island per tab, over the admin API. The page
 * renders the tab's first page on the server (the same services the API runs) and this island
 * takes it over: paging, the order of the reports queue, and every action, each confirmed in a
 * dialog with an optional reason for the audit log, then the list read again. A refusal because
 * the role was revoked reloads the page (which then answers not found); a session that ended goes
 * to login.
 */
import { isAdmin } from '@/lib/roles';
import { useRef, useState, type ReactNode } from 'react';
import type { Language } from '@/schemas/channel';
import { formatFullDate } from '@/lib/format-date';
import { pageUrls } from '@/lib/urls';
import { FetchError, resultCodeOf } from '@/lib/api-client';
import type { ChannelRef } from '@/lib/urls';
import type { AdminTab } from '@/server/loaders/admin-page';
import { AutoHideThresholdInvalid, Banned, Forbidden, TooManyRequests } from '@/lib/result-codes';
import { showToast } from '@/stores/toasts';
import AlertDialog from '@/islands/common/AlertDialog';
import { useHydrated } from '@/islands/common/use-hydrated';
import { useStore } from '@nanostores/react';
import { $session } from '@/stores/session';
import { adminApi, type BansPage, type HistoryPage, type LogPage, type QueueOrder, type QueuePage, type Settings } from './api';
import type { AdminTexts } from './texts';
import type { Shared } from './shared';
import ReportsTab from './tabs/ReportsTab';
import HistoryTab from './tabs/HistoryTab';
import BansTab from './tabs/BansTab';
import LogTab from './tabs/LogTab';
import SettingsTab from './tabs/SettingsTab';

export interface AdminAreaProps {
	tab: AdminTab;
	channel: ChannelRef;
	channelBase: string;
	loginUrl: string;
	language: Language;
	texts: AdminTexts;
	order: QueueOrder;
	initial: QueuePage | HistoryPage | BansPage | LogPage | Settings;
}

export default function AdminArea(props: AdminAreaProps) {
	const { tab, texts, language } = props;
	const [busy, setBusy] = useState(false);
	const hydrated = useHydrated();
	// Signed out (here or in another tab) or no longer an administrator: nothing here can act any more.
	const session = useStore($session, { ssr: 'initial' });
	const locked = session !== null && (session.kind !== 'member' || !isAdmin(session.member));
	const [alert, setAlert] = useState<{ message: string; after: () => void } | null>(null);
	const api = useRef(adminApi(props.channel)).current;
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

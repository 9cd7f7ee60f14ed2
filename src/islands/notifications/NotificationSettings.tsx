/**
 * mypage/settings' Notifications section: each kind on or off (PUT …/notifications/settings). The
 * boxes are the server's values as the page rendered them; Save sends them all and shows what the
 * server kept. Plain checkboxes in a fieldset, so that a keyboard and a screen reader use them as
 * any form.
 */
import { useId, useState, type FormEvent } from 'react';
import { memberRoutes } from '@/lib/api-client';
import type { NotificationSwitches } from '@/lib/api-types';
import { useHydrated } from '@/islands/common/use-hydrated';
import { NOTIFICATION_SETTINGS, type NotificationSetting } from '@/lib/notification-kinds';

interface Props {
	domain: string;
	slug: string;
	userId: number;
	initial: NotificationSwitches;
	legend: string;
	labels: Record<NotificationSetting, string>;
	texts: { save: string; saved: string; failed: string };
}

export default function NotificationSettings({ domain, slug, userId, initial, legend, labels, texts }: Props) {
	const [settings, setSettings] = useState<NotificationSwitches>(initial);
	const [status, setStatus] = useState('');
	const [saving, setSaving] = useState(false);
	const id = useId();
	// A box changed before hydration would be forgotten by it: the boxes wait for the island.
	const hydrated = useHydrated();
	const api = memberRoutes({ domain, slug }, userId);

	const save = async (event: FormEvent) => {
		event.preventDefault();
		setSaving(true);
		setStatus('');
		try {
			setSettings((await api.put('/notifications/settings', { json: { settings } })).settings);
			setStatus(texts.saved);
		} catch {
			setStatus(texts.failed);
		} finally {
			setSaving(false);
		}
	};

	return (
		<form className="notification-settings" onSubmit={(event) => void save(event)} data-notification-settings>
			<fieldset>
				<legend className="visually-hidden">{legend}</legend>
				{NOTIFICATION_SETTINGS.map((setting) => (
					<label key={setting} className="notification-setting" htmlFor={`${id}-${setting}`}>
						<input
							id={`${id}-${setting}`}
							type="checkbox"
							name={setting}
							checked={settings[setting]}
							disabled={!hydrated}
							onChange={(event) => setSettings({ ...settings, [setting]: event.target.checked })}
						/>
						<span>{labels[setting]}</span>
					</label>
				))}
			</fieldset>
			<div className="notification-settings-actions">
				<button type="submit" className="button" disabled={!hydrated || saving}>
					{texts.save}
				</button>
				<p role="status" className="notification-settings-status">
					{status}
				</p>
			</div>
		</form>
	);
}

/**
 * mypage/settings' email for replies and mentions (docs/reference/notifications.md#email). The member types an
 * address and asks for a confirmation link (PUT …/notifications/email); email starts when they follow
 * it, so the island shows the confirmed address (where email goes) and the one waiting for its link
 * apart. Turn off (DELETE) forgets both. Mount it only when the community sends email
 * (`emailOffered() === 'on'`: a mailer and SITE_ORIGIN; with a mailer alone the page says why not).
 *
 * Props:
 * - `domain`, `slug`: the channel, whose member API it calls; `userId`: the member's id;
 * - `initial`: `emailSetting(page.db, member.userId)` as the page rendered it;
 * - `texts`: resolved strings (`pick(t, EMAIL_SETTING_TEXT_KEYS)` mapped to these names): `label`
 *   (the heading line), `description`, `address` (the field's label), `send` (the button), `active`
 *   ("Emails go to:"), `pending` ("Waiting for you to confirm:"), `sent` (after a link was sent),
 *   `off` (the turn-off button), `offDone`, `invalid` (EmailAddressInvalid), `limit` (EmailConfirmationLimit),
 *   `failed` (anything else).
 */
import { useId, useState, type FormEvent } from 'react';
import { memberRoutes, resultCodeOf } from '@/lib/api-client';
import type { EmailSetting } from '@/lib/api-types';
import { useHydrated } from '@/islands/common/use-hydrated';
import { EmailAddressInvalid, EmailConfirmationLimit } from '@/lib/result-codes';

/** What the island shows: the API's answer, as the page renders it too. */
type Setting = Pick<EmailSetting, 'address' | 'pending'>;

interface Props {
	domain: string;
	slug: string;
	userId: number;
	initial: Setting;
	texts: {
		label: string;
		description: string;
		address: string;
		send: string;
		active: string;
		pending: string;
		sent: string;
		off: string;
		offDone: string;
		invalid: string;
		limit: string;
		failed: string;
	};
}

/** RFC 5321's longest path; the server says whether the rest of it is an address it sends to. */
const ADDRESS_MAX = 254;

export default function EmailSetting({ domain, slug, userId, initial, texts }: Props) {
	const [setting, setSetting] = useState<Setting>(initial);
	// Its buttons work through the island: disabled until it has hydrated.
	const hydrated = useHydrated();
	const [address, setAddress] = useState('');
	const [status, setStatus] = useState('');
	const [problem, setProblem] = useState(false);
	const [working, setWorking] = useState(false);
	const id = useId();
	const api = memberRoutes({ domain, slug }, userId);

	const run = async (action: () => Promise<Setting>, done: string) => {
		setWorking(true);
		setStatus('');
		setProblem(false);
		try {
			setSetting(await action());
			setStatus(done);
			return true;
		} catch (error) {
			const code = resultCodeOf(error);
			setProblem(true);
			setStatus(code === EmailAddressInvalid.code ? texts.invalid : code === EmailConfirmationLimit.code ? texts.limit : texts.failed);
			return false;
		} finally {
			setWorking(false);
		}
	};

	const send = async (event: FormEvent) => {
		event.preventDefault();
		const sent = await run(() => api.put('/notifications/email', { json: { address: address.trim() } }), texts.sent);
		if (sent) setAddress('');
	};

	const turnOff = () => void run(() => api.delete('/notifications/email'), texts.offDone);

	return (
		<div className="email-setting" data-email-setting>
			<p className="notification-setting">
				<strong>{texts.label}</strong>
			</p>
			<p id={`${id}-description`} className="push-note">
				{texts.description}
			</p>
			{setting.address !== null && (
				<p className="push-note" data-email-active>
					{texts.active} <strong>{setting.address}</strong>
				</p>
			)}
			{setting.pending !== null && (
				<p className="push-note" data-email-pending>
					{texts.pending} <strong>{setting.pending}</strong>
				</p>
			)}
			<form className="email-setting-form" onSubmit={(event) => void send(event)}>
				<div className="field">
					<label htmlFor={`${id}-address`}>{texts.address}</label>
					<input
						id={`${id}-address`}
						type="email"
						name="address"
						autoComplete="email"
						inputMode="email"
						autoCapitalize="off"
						spellCheck={false}
						maxLength={ADDRESS_MAX}
						required
						disabled={!hydrated}
						value={address}
						onChange={(event) => setAddress(event.target.value)}
						aria-describedby={`${id}-description ${id}-status`}
						aria-invalid={problem && status === texts.invalid ? true : undefined}
					/>
					<p id={`${id}-status`} role="status" className={problem ? 'field-error' : 'field-hint'}>
						{status}
					</p>
				</div>
				<div className="notification-settings-actions">
					<button type="submit" className="button" disabled={!hydrated || working}>
						{texts.send}
					</button>
					{(setting.address !== null || setting.pending !== null) && (
						<button type="button" className="button secondary" disabled={!hydrated || working} onClick={turnOff}>
							{texts.off}
						</button>
					)}
				</div>
			</form>
		</div>
	);
}

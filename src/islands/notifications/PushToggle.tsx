/**
 * mypage/settings' Web Push switch for this browser (docs/reference/notifications.md#web-push). The browser
 * asks for permission only when the member turns it on; then the service worker
 * (public/notification-sw.js) is registered, the browser's push service gives a subscription for the
 * deployment's VAPID public key, and the Worker keeps it (POST …/push/subscriptions). Turning it
 * off unsubscribes the browser and deletes the row. A browser without push, or with notifications
 * blocked, is told so and offered nothing.
 */
import { useEffect, useId, useState } from 'react';
import { memberRoutes, resultCodeOf } from '@/lib/api-client';
import { PushEndpointRefused, PushSubscriptionTaken } from '@/lib/result-codes';

type State = 'checking' | 'unsupported' | 'denied' | 'off' | 'on' | 'working';

interface Props {
	domain: string;
	slug: string;
	userId: number;
	publicKey: string;
	/** `refused`: PushEndpointRefused; `taken`: PushSubscriptionTaken. */
	texts: { label: string; description: string; unsupported: string; denied: string; failed: string; refused: string; taken: string };
}

const WORKER = '/notification-sw.js';

/** The VAPID key as the bytes `applicationServerKey` takes. */
function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
	const binary = atob(base64url.replace(/-/g, '+').replace(/_/g, '/'));
	const bytes = new Uint8Array(new ArrayBuffer(binary.length));
	for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
	return bytes;
}

const supported = () => typeof navigator !== 'undefined' && 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;

export default function PushToggle({ domain, slug, userId, publicKey, texts }: Props) {
	const [state, setState] = useState<State>('checking');
	const [problem, setProblem] = useState('');
	const id = useId();
	const api = memberRoutes({ domain, slug }, userId);

	useEffect(() => {
		if (!supported()) return setState('unsupported');
		if (Notification.permission === 'denied') return setState('denied');
		void navigator.serviceWorker
			.getRegistration(WORKER)
			.then((registration) => registration?.pushManager.getSubscription())
			.then((subscription) => setState(subscription ? 'on' : 'off'))
			.catch(() => setState('off'));
	}, []);

	const turnOn = async () => {
		const permission = await Notification.requestPermission();
		if (permission !== 'granted') return setState(permission === 'denied' ? 'denied' : 'off');
		const registration = await navigator.serviceWorker.register(WORKER);
		await navigator.serviceWorker.ready;
		const subscription = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) });
		// A subscription the browser just made always has its endpoint and both keys.
		const { endpoint = '', keys: { p256dh = '', auth = '' } = {} } = subscription.toJSON();
		try {
			await api.post('/push/subscriptions', { json: { endpoint, keys: { p256dh, auth } } });
		} catch (error) {
			// Refused: the browser keeps no subscription the site does not know, so the switch reads off again.
			await subscription.unsubscribe().catch(() => false);
			throw error;
		}
		setState('on');
	};

	const turnOff = async () => {
		const registration = await navigator.serviceWorker.getRegistration(WORKER);
		const subscription = await registration?.pushManager.getSubscription();
		if (subscription) {
			await api.delete('/push/subscriptions', { json: { endpoint: subscription.endpoint } });
			await subscription.unsubscribe();
		}
		setState('off');
	};

	const toggle = async (on: boolean) => {
		setState('working');
		setProblem('');
		try {
			await (on ? turnOn() : turnOff());
		} catch (error) {
			const code = resultCodeOf(error);
			setProblem(code === PushEndpointRefused.code ? texts.refused : code === PushSubscriptionTaken.code ? texts.taken : texts.failed);
			setState(on ? 'off' : 'on');
		}
	};

	if (state === 'unsupported' || state === 'denied') {
		return <p className="push-note">{state === 'unsupported' ? texts.unsupported : texts.denied}</p>;
	}
	return (
		<div className="push-toggle" data-push-toggle>
			<label className="notification-setting" htmlFor={id}>
				<input
					id={id}
					type="checkbox"
					checked={state === 'on'}
					disabled={state === 'checking' || state === 'working'}
					onChange={(event) => void toggle(event.target.checked)}
					aria-describedby={`${id}-description`}
				/>
				<span>{texts.label}</span>
			</label>
			<p id={`${id}-description`} className="push-note">
				{texts.description}
			</p>
			<p role="status" className="push-note">
				{problem}
			</p>
		</div>
	);
}

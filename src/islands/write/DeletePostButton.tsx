/**
 * The post page's Delete (the author and administrators): a confirm, the DELETE call, then 'The post
 * has been deleted.' and the page again, now showing the deleted state. Failures as docs/reference/product-rules.md#errors-and-texts: the
 * forced-login alert, the ban dialog, too many requests, or the generic alert.
 */
import { useState } from 'react';
import AlertDialog from '@/islands/common/AlertDialog';
import { useHydrated } from '@/islands/common/use-hydrated';
import { openBanDialog, openForcedLogin } from '@/islands/common/route-error-dialog';
import { showToastOnNextPage } from '@/stores/toasts';
import { memberRoutes } from '@/lib/api-client';
import { failureMeaning } from './api';
import type { PostActionTexts } from './texts';

interface Props {
	postId: number;
	userId: number;
	channelBase: string;
	/** The member API prefix, /v1/{domain}/{slug}. */
	domain: string;
	slug: string;
	texts: PostActionTexts;
}

type Step = { kind: 'idle' } | { kind: 'confirm' } | { kind: 'alert'; message: string };

export default function DeletePostButton({ postId, userId, channelBase, domain, slug, texts }: Props) {
	const [step, setStep] = useState<Step>({ kind: 'idle' });
	const [shown, setShown] = useState<Exclude<Step, { kind: 'idle' }>>({ kind: 'confirm' });
	const [busy, setBusy] = useState(false);
	const hydrated = useHydrated();

	const show = (next: Exclude<Step, { kind: 'idle' }>) => {
		setShown(next);
		setStep(next);
	};

	const remove = async () => {
		setBusy(true);
		try {
			await memberRoutes({ domain, slug }, userId).delete('/posts/:postId', { param: { postId } });
			showToastOnNextPage(texts['write.post.deleted']);
			location.reload();
		} catch (error) {
			setBusy(false);
			const meaning = failureMeaning(error, channelBase, `${location.pathname}${location.search}`);
			if (meaning.kind === 'forced-login') openForcedLogin(meaning.loginUrl);
			else if (meaning.kind === 'ban') openBanDialog(meaning.endsAt);
			else show({ kind: 'alert', message: meaning.kind === 'too-many' ? texts['common.message.tooManyRequests'] : texts['write.post.deleteFailed'] });
		}
	};

	return (
		<>
			<button
				className="button secondary"
				type="button"
				disabled={!hydrated || busy}
				aria-busy={busy}
				onClick={() => show({ kind: 'confirm' })}
				data-delete-post
			>
				{texts['write.post.delete']}
			</button>
			<AlertDialog
				open={step.kind !== 'idle'}
				title={shown.kind === 'confirm' ? texts['write.confirm.title'] : texts['common.message.alert']}
				message={shown.kind === 'confirm' ? texts['write.post.confirmDelete'] : shown.message}
				confirmLabel={shown.kind === 'confirm' ? texts['write.post.delete'] : texts['common.button.confirm']}
				cancelLabel={shown.kind === 'confirm' ? texts['common.button.cancel'] : undefined}
				onClosed={(confirmed) => {
					const was = step;
					setStep({ kind: 'idle' });
					if (was.kind === 'confirm' && confirmed) void remove();
				}}
			/>
		</>
	);
}

/**
 * The offer of work kept on this device (./use-local-copy.ts): Restore or Discard. Loaded when a
 * copy is offered, with the date formatting it needs: the write page's JavaScript budget.
 */
import { formatFullDate } from '@/lib/format-date';
import type { Language } from '@/schemas/channel';
import type { WriteTexts } from './texts';

/** A local copy that differs from what the page shows, offered back. */
export default function RestoreBanner({
	savedAt,
	language,
	texts,
	onRestore,
	onDiscard,
}: {
	savedAt: number;
	language: Language;
	texts: WriteTexts;
	onRestore: () => void;
	onDiscard: () => void;
}) {
	return (
		<div className="restore-banner" role="region" aria-label={texts['write.restore.restore']} data-restore-offer>
			<p>{texts['write.restore.message'].replace('{{date}}', formatFullDate(savedAt, language))}</p>
			<div className="restore-actions">
				<button className="button" type="button" onClick={onRestore}>
					{texts['write.restore.restore']}
				</button>
				<button className="button secondary" type="button" onClick={onDiscard}>
					{texts['write.restore.discard']}
				</button>
			</div>
		</div>
	);
}

/**
 * A secondary button that runs one action at a time: busy while it runs (and until the island has
 * hydrated, so an early press is not lost), with the action's failure said under it. `run` answers
 * the text of its failure, or null.
 */
import { useState } from 'react';
import { useHydrated } from './use-hydrated';

interface Props {
	label: string;
	run: () => Promise<string | null>;
}

export default function ActionButton({ label, run }: Props) {
	const [busy, setBusy] = useState(false);
	const [error, setError] = useState<string | null>(null);
	const hydrated = useHydrated();
	const press = async () => {
		setBusy(true);
		setError(null);
		const failure = await run();
		setError(failure);
		setBusy(false);
	};
	return (
		<>
			<button className="button secondary" type="button" onClick={() => void press()} disabled={busy || !hydrated} aria-busy={busy}>
				{label}
			</button>
			{error && (
				<p className="form-error" role="alert">
					{error}
				</p>
			)}
		</>
	);
}

/**
 * False in the server render and until the island has hydrated. A button that only works through
 * its island is disabled until then, so a press cannot be lost (or submit the bare form) before
 * the code behind it has loaded.
 */
import { useEffect, useState } from 'react';

export function useHydrated(): boolean {
	const [hydrated, setHydrated] = useState(false);
	useEffect(() => setHydrated(true), []);
	return hydrated;
}

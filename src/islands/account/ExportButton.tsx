/**
 * "Download my data" (My Page's settings): asks for the member's export (POST …/me/export, a POST
 * so that it passes the API's Origin check: docs/reference/export.md) and saves the answer as the file the
 * server names; a refusal (too soon, signed out) is said in words.
 */
import { apiUrl, resultCodeOf, FetchError } from '@/lib/api-client';
import { TooManyRequests } from '@/lib/result-codes';
import ActionButton from '@/islands/common/ActionButton';

interface Props {
	domain: string;
	slug: string;
	label: string;
	texts: Record<'common.message.error' | 'settings.exportTooSoon', string>;
}

/** The file name of a Content-Disposition header, or a plain one. */
function fileNameOf(disposition: string | null): string {
	return /filename="([^"]+)"/.exec(disposition ?? '')?.[1] ?? 'my-data.json';
}

export default function ExportButton({ domain, slug, label, texts }: Props) {
	const download = async (): Promise<string | null> => {
		try {
			const response = await fetch(apiUrl({ domain, slug }, 'member', '/me/export'), {
				method: 'POST',
				credentials: 'include',
				headers: { Accept: 'application/json' },
			});
			if (!response.ok) throw new FetchError(response.status, response.statusText, await response.json().catch(() => null));
			const file = await response.blob();
			const url = URL.createObjectURL(file);
			const link = document.createElement('a');
			link.href = url;
			link.download = fileNameOf(response.headers.get('content-disposition'));
			document.body.appendChild(link);
			link.click();
			link.remove();
			setTimeout(() => URL.revokeObjectURL(url), 60_000);
			return null;
		} catch (failure) {
			return resultCodeOf(failure) === TooManyRequests.code ? texts['settings.exportTooSoon'] : texts['common.message.error'];
		}
	};
	return <ActionButton label={label} run={download} />;
}

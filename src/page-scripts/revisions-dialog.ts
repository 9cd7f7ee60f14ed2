/**
 * The edit history's dialog (src/components/post/RevisionsDialog.astro): a press on an "edited"
 * mark (`data-revisions="post"`, or a comment's id) opens it, reads the
 * earlier versions from the public API and lists them, newest first, as text (never as markup).
 * Loaded by the post page's module on the first press on a mark.
 */
import { createApiClient } from '@/lib/api-client';
import { formatFullDate, isoDate } from '@/lib/format-date';
import type { Language } from '@/schemas/channel';

const prepared = new WeakSet<HTMLDialogElement>();
/** The mark that opened the dialog, by a selector: the focus goes back to it (the comments island may have rendered it anew meanwhile). */
let opener = '';
/** The request of the latest press: an earlier answer arriving late is dropped. */
let latest = 0;

function element<K extends keyof HTMLElementTagNameMap>(tag: K, className: string, text: string): HTMLElementTagNameMap[K] {
	const made = document.createElement(tag);
	made.className = className;
	made.textContent = text;
	return made;
}

/** Opens the dialog for the mark `button` and fills it. */
export async function openRevisions(button: HTMLElement): Promise<void> {
	const dialog = document.querySelector<HTMLDialogElement>('[data-revisions-dialog]');
	const list = dialog?.querySelector<HTMLOListElement>('[data-revisions-list]');
	const status = dialog?.querySelector<HTMLElement>('[data-revisions-status]');
	const edited = dialog?.querySelector<HTMLElement>('[data-revisions-edited]');
	if (!dialog || !list || !status || !edited) return;
	const data = dialog.dataset;
	if (!prepared.has(dialog)) {
		prepared.add(dialog);
		dialog.querySelector('[data-revisions-close]')?.addEventListener('click', () => dialog.close());
		dialog.addEventListener('close', () => document.querySelector<HTMLElement>(opener)?.focus());
	}
	const target = button.dataset['revisions'] ?? 'post';
	const commentId = Number(target);
	opener = `[data-revisions="${Number.isInteger(commentId) ? commentId : 'post'}"]`;
	const language = (data['language'] ?? 'en') as Language;
	// "Last edited {{date}}": the mark's own time, which a phone cannot hover.
	const editedAt = Date.parse(button.querySelector('time')?.dateTime ?? '');
	edited.textContent = Number.isNaN(editedAt) ? '' : (data['textEditedAt'] ?? '').replace('{{date}}', formatFullDate(editedAt, language));
	list.replaceChildren();
	status.textContent = data['textLoading'] ?? '';
	if (!dialog.open) dialog.showModal();
	const request = ++latest;
	const api = createApiClient({ channel: { domain: data['domain'] ?? '', slug: data['slug'] ?? '' } });
	const postId = Number(data['postId']);
	try {
		const { revisions } = Number.isInteger(commentId)
			? await api.public.get('/posts/:postId/comments/:commentId/revisions', { param: { postId, commentId } })
			: await api.public.get('/posts/:postId/revisions', { param: { postId } });
		if (request !== latest) return;
		status.textContent = revisions.length === 0 ? (data['textEmpty'] ?? '') : '';
		list.replaceChildren(
			...revisions.map((revision) => {
				const item = document.createElement('li');
				const time = document.createElement('time');
				time.dateTime = isoDate(revision.writtenAt);
				time.textContent = formatFullDate(revision.writtenAt, language);
				// "Version of {{date}}", the date a <time>.
				const [before = '', after = ''] = (data['textVersion'] ?? '{{date}}').split('{{date}}');
				const label = element('p', 'revision-time', '');
				label.replaceChildren(before, time, after);
				const title = revision.title === undefined ? [] : [element('p', 'revision-title', revision.title)];
				item.replaceChildren(label, ...title, element('p', 'revision-text', revision.content));
				return item;
			}),
		);
	} catch {
		if (request === latest) status.textContent = data['textFailed'] ?? '';
	}
}

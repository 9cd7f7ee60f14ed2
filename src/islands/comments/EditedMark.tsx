/**
 * The "edited" mark (docs/reference/edit-history.md) of a comment, and of the post (the post page
 * renders it too): the word, as a <time> of the last edit whose title is the absolute time. Where the
 * page has the edit history's dialog it is a button that opens it (src/page-scripts/revisions-dialog.ts).
 */
import { formatFullDate, isoDate } from '@/lib/format-date';
import type { Language } from '@/schemas/channel';

interface Props {
	editedAt: number;
	language: Language;
	text: string;
	/** What the mark opens: the post's history ('post'), a comment's (its id), or nothing (null: a plain mark). */
	commentId: number | 'post' | null;
}

export default function EditedMark({ editedAt, language, text, commentId }: Props) {
	const time = (
		<time dateTime={isoDate(editedAt)} title={formatFullDate(editedAt, language)}>
			{text}
		</time>
	);
	if (commentId === null) return <span className="edited">{time}</span>;
	return (
		<button className="edited edited-mark" type="button" aria-haspopup="dialog" data-revisions={commentId}>
			{time}
		</button>
	);
}

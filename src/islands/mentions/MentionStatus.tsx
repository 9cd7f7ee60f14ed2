/**
 * The polite live region that says when nobody's nickname starts like the @ being typed. Its own
 * module: the comment box renders it from the start (a live region must be there before what it
 * says), while the suggestions themselves load with the first @ (./CommentMentions.tsx).
 */
export default function MentionStatus({ text }: { text: string | null }) {
	return (
		<span className="visually-hidden" role="status">
			{text}
		</span>
	);
}

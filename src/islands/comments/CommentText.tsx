/** A comment's text: plain text with line breaks, its safe addresses as links (the same as CommentText.astro). */
import { COMMENT_LINK_ATTRIBUTES, commentSegments } from '@/lib/comment-text';

export default function CommentText({ content }: { content: string }) {
	return (
		<p className="comment-text" data-comment-text="">
			{commentSegments(content).map((segment, index) =>
				segment.type === 'link' ? (
					<a key={index} href={segment.href} {...COMMENT_LINK_ATTRIBUTES}>
						{segment.text}
					</a>
				) : (
					segment.text
				),
			)}
		</p>
	);
}

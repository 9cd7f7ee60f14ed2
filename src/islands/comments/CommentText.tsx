/** A comment's text: plain text with line breaks, its safe addresses and @mentions as links. */
import { COMMENT_LINK_ATTRIBUTES, commentSegments } from '@/lib/comment-text';
import type { Mention } from '@/lib/mentions';
import { pageUrls } from '@/lib/urls';

export default function CommentText({
	content,
	mentions = [],
	channelBase,
}: {
	content: string;
	mentions?: Mention[] | undefined;
	channelBase: string;
}) {
	return (
		<p className="comment-text" data-comment-text="">
			{commentSegments(content, mentions).map((segment, index) =>
				segment.type === 'link' ? (
					<a key={index} href={segment.href} {...COMMENT_LINK_ATTRIBUTES}>
						{segment.text}
					</a>
				) : segment.type === 'mention' ? (
					<a key={index} className="mention" href={pageUrls(channelBase).user(segment.userId)}>
						{segment.text}
					</a>
				) : (
					segment.text
				),
			)}
		</p>
	);
}

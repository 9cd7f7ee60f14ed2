/**
 * One comment, on the page and in the island (./CommentsView.tsx): author, date, edited mark,
 * menu, text and Reply, or its state alone; the edit box in place of the text while it is edited;
 * and for a top-level comment its replies and the reply box of its thread.
 */
import type { ReactNode } from 'react';
import { formatFullDate, isoDate } from '@/lib/format-date';
import { pageUrls } from '@/lib/urls';
import { avatarImage } from '@/lib/avatars';
import type { Language } from '@/schemas/channel';
import CommentMenu, { type MenuAction } from './CommentMenu';
import CommentText from './CommentText';
import EditedMark from './EditedMark';
import type { CommentItem, ReadableComment } from './model';
import { fill, type CommentTexts } from './texts';

interface Props {
	comment: CommentItem;
	channelBase: string;
	language: Language;
	texts: CommentTexts;
	highlighted: boolean;
	/** The page has the edit history's dialog (src/components/post/RevisionsDialog.astro): the "edited" mark opens it. */
	revisions: boolean;
	/** The comment the reader has just posted: marked for a moment and focusable, for the focus to move to it. */
	justPosted: boolean;
	/** The link of a reply's context to the comment it answers (model.ts replyToHref). */
	replyToHref: (commentId: number) => string;
	menuOpen: boolean;
	menuActions: (comment: ReadableComment) => MenuAction[];
	onMenuOpenChange: (commentId: number, open: boolean) => void;
	/** Set while another comment is edited: the id of the note that says why Reply is unavailable. */
	replyBlockedBy: string | undefined;
	onReply: (comment: ReadableComment) => void;
	/** The edit box, in place of the text, while this comment is edited. */
	editor: ReactNode;
	/** A top-level comment's replies, and the reply box of its thread. */
	children?: ReactNode;
	/** A blocked member's comment (docs/reference/blocking.md): collapsed under its toggle until opened; its replies stay out. */
	collapsed?: { text: string; open: boolean; onToggle: (open: boolean) => void } | undefined;
}

export default function CommentEntry({
	comment,
	channelBase,
	language,
	texts,
	highlighted,
	revisions,
	justPosted,
	replyToHref,
	menuOpen,
	menuActions,
	onMenuOpenChange,
	replyBlockedBy,
	onReply,
	editor,
	children,
	collapsed,
}: Props) {
	const classes = ['comment', comment.parentId !== null ? 'reply' : null, highlighted ? 'highlighted' : null, justPosted ? 'just-posted' : null]
		.filter(Boolean)
		.join(' ');
	const replyTo = comment.readable ? comment.replyTo : undefined;
	const body = (
		<div className="comment-body">
			{comment.readable ? (
				<>
					<div
						className="comment-head"
						data-author-id={comment.author.userId}
						data-author-name={comment.author.nickname ?? undefined}
						data-withdrawn={comment.author.withdrawn ? '' : undefined}
						data-author-admin={comment.author.admin ? '' : undefined}
						data-created-at={comment.createdAt}
						data-edited={comment.edited ? '' : undefined}
					>
						{comment.author.withdrawn ? (
							<span className="comment-author">{texts['common.withdrawnMember']}</span>
						) : (
							<a className="comment-author" href={pageUrls(channelBase).user(comment.author.userId)}>
								<img className="avatar" alt="" {...avatarImage(channelBase, comment.author.userId, 24)} loading="lazy" decoding="async" />
								{comment.author.nickname}
							</a>
						)}
						{comment.author.admin && (
							<span className="role-badge" data-role-badge>
								{texts['common.adminBadge']}
							</span>
						)}
						<time dateTime={isoDate(comment.createdAt)}>{formatFullDate(comment.createdAt, language)}</time>
						{comment.edited && comment.editedAt !== undefined && (
							<EditedMark
								editedAt={comment.editedAt}
								language={language}
								text={texts['common.edited']}
								commentId={revisions ? comment.commentId : null}
							/>
						)}
						{comment.state === 'HIDDEN_BY_ADMIN' && (
							<span className="moderation-mark">{texts[comment.autoHidden ? 'comment.hiddenByReportsForAdmin' : 'comment.hiddenForAdmin']}</span>
						)}
						<CommentMenu
							commentId={comment.commentId}
							label={texts['comment.menu.label']}
							open={menuOpen}
							actions={menuActions(comment)}
							onOpenChange={(open) => onMenuOpenChange(comment.commentId, open)}
						/>
					</div>
					{replyTo && (
						<a
							className="comment-reply-to"
							href={replyToHref(replyTo.commentId)}
							data-reply-to-id={replyTo.commentId}
							data-reply-to-name={replyTo.nickname ?? undefined}
						>
							{replyTo.nickname === null ? texts['comment.replyToComment'] : fill(texts['comment.replyTo'], { nickname: replyTo.nickname })}
						</a>
					)}
					{editor ?? <CommentText content={comment.content} mentions={comment.mentions} channelBase={channelBase} />}
					{comment.state === 'VISIBLE' && !editor && (
						<div className="comment-actions">
							<button
								className="comment-action"
								type="button"
								data-action="reply"
								data-comment-id={comment.commentId}
								aria-disabled={replyBlockedBy ? true : undefined}
								aria-describedby={replyBlockedBy}
								onClick={() => {
									if (!replyBlockedBy) onReply(comment);
								}}
							>
								{texts['post.reply']}
							</button>
						</div>
					)}
				</>
			) : (
				<p className="comment-text muted">
					{comment.state === 'DELETED' ? texts['comment.deleted'] : texts[comment.autoHidden ? 'comment.hiddenByReports' : 'comment.hidden']}
				</p>
			)}
		</div>
	);
	return (
		<li
			className={classes}
			id={`comment-${comment.commentId}`}
			data-comment-id={comment.commentId}
			data-parent-id={comment.parentId ?? undefined}
			data-state={comment.state}
			data-auto-hidden={comment.autoHidden ? '' : undefined}
			data-reported={comment.readable && comment.reported ? '' : undefined}
			tabIndex={justPosted ? -1 : undefined}
		>
			{collapsed ? (
				<details
					className="comment-blocked"
					data-blocked-comment={comment.commentId}
					open={collapsed.open}
					onToggle={(event) => {
						if (event.currentTarget.open !== collapsed.open) collapsed.onToggle(event.currentTarget.open);
					}}
				>
					<summary className="blocked-summary">{collapsed.text}</summary>
					{body}
				</details>
			) : (
				body
			)}
			{children}
		</li>
	);
}

/**
 * One comment, on the page and in the island (./CommentsView.tsx): author, date, edited mark,
 * menu, text and Reply, or its state alone; the edit box in place of the text while it is edited;
 * and for a top-level comment its replies and the reply box of its thread.
 */
import type { ReactNode } from 'react';
import { formatCount, formatFullDate, isoDate } from '@/lib/format-date';
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
	/** Its Like pressed (docs/reference/best-comments.md). */
	onLike: (comment: ReadableComment) => void;
	/**
	 * A Best comment: `mark`, marked in place (the Best order); `block`, shown again above the thread,
	 * with a link to it there (`goTo`) instead of Reply and the menu, and no id of its own.
	 */
	best?: { kind: 'mark' } | { kind: 'block'; goTo: string } | undefined;
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
	onLike,
	best,
}: Props) {
	const block = best?.kind === 'block' ? best : null;
	const classes = [
		'comment',
		comment.parentId !== null ? 'reply' : null,
		best ? 'best' : null,
		highlighted ? 'highlighted' : null,
		justPosted ? 'just-posted' : null,
	]
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
						{best && (
							<span className="best-badge" data-best-mark>
								{texts['commentLikes.best.mark']}
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
						{!block && (
							<CommentMenu
								commentId={comment.commentId}
								label={texts['comment.menu.label']}
								open={menuOpen}
								actions={menuActions(comment)}
								onOpenChange={(open) => onMenuOpenChange(comment.commentId, open)}
							/>
						)}
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
							{block ? (
								<a className="comment-action" href={block.goTo}>
									{texts['commentLikes.best.goTo']}
								</a>
							) : (
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
							)}
							<button
								className="comment-action comment-like"
								type="button"
								data-action="like"
								data-comment-id={comment.commentId}
								aria-pressed={comment.liked === true}
								onClick={() => onLike(comment)}
							>
								<svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true">
									<path d="M12 20s-7.5-4.6-7.5-10.2A4.3 4.3 0 0 1 12 7a4.3 4.3 0 0 1 7.5 2.8C19.5 15.4 12 20 12 20z" />
								</svg>
								<span className="visually-hidden">{texts['commentLikes.like']}</span>
								<span className="comment-like-count">{formatCount(comment.likeCount)}</span>
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
			id={block ? undefined : `comment-${comment.commentId}`}
			data-best-comment={block ? '' : undefined}
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

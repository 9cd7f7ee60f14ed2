/**
 * The comments section's markup, the only one: the count, "View all comments", the threads with
 * their reply box, "Show more comments" and the new-comment box. A pure function of the state
 * (./state.ts): the server renders it to plain HTML from the page's first state (CommentList.astro,
 * with INERT_HANDLERS), and the island renders it over that HTML from the same state read back
 * (./data.ts), then from every change.
 */
import type { ReactNode, Ref } from 'react';
import { formatCount } from '@/lib/format-date';
import type { Language } from '@/schemas/channel';
import type { MentionSource } from '@/islands/mentions/suggestions';
import CommentEntry from './CommentEntry';
import CommentForm from './CommentForm';
import type { MenuAction } from './CommentMenu';
import { commentLink, groupThreads, replyToHref, type CommentItem, type ReadableComment } from './model';
import type { CommentsState } from './state';
import { fill, type CommentTexts } from './texts';

/** The query of each order's first page (docs/reference/best-comments.md). */
const ORDER_QUERY = { oldest: '', best: '?commentsSort=best' } as const;

/** The note that says why Reply and Edit are unavailable while a comment is edited. */
export const EDITING_NOTE_ID = 'comments-editing-note';

/** What the section's controls do: the island's; the server's page does nothing until the island takes over. */
export interface CommentsHandlers {
	menuActions: (comment: ReadableComment) => MenuAction[];
	onMenuOpenChange: (commentId: number, open: boolean) => void;
	onReply: (comment: ReadableComment) => void;
	onDraftChange: (text: string) => void;
	onDraftSubmit: () => void;
	onReplyChange: (text: string) => void;
	onReplySubmit: () => void;
	onReplyCancel: (targetId: number) => void;
	onEditChange: (text: string) => void;
	onEditSubmit: () => void;
	onEditCancel: (commentId: number) => void;
	onMore: () => void;
	/** A blocked member's comment opened (or closed) by the reader. */
	onRevealChange: (commentId: number, open: boolean) => void;
	/** A comment's Like pressed. */
	onLike: (comment: ReadableComment) => void;
}

const nothing = () => undefined;
/** The handlers of the server's render: the page's loader wakes the island at the first use. */
export const INERT_HANDLERS: CommentsHandlers = {
	menuActions: () => [],
	onMenuOpenChange: nothing,
	onReply: nothing,
	onDraftChange: nothing,
	onDraftSubmit: nothing,
	onReplyChange: nothing,
	onReplySubmit: nothing,
	onReplyCancel: nothing,
	onEditChange: nothing,
	onEditSubmit: nothing,
	onEditCancel: nothing,
	onMore: nothing,
	onRevealChange: nothing,
	onLike: nothing,
};

export interface CommentsViewProps {
	state: CommentsState;
	commentCount: number;
	postUrl: string;
	channelBase: string;
	language: Language;
	texts: CommentTexts;
	startsAtBeginning: boolean;
	/** The reader who may write (null for a guest or a banned member), and whether they are banned. */
	userId: number | null;
	banned: boolean;
	/** The page has the edit history's dialog: an "edited" mark opens it (./EditedMark.tsx). */
	revisions: boolean;
	/** The comment the address points at (`#comment-N`), marked. */
	highlight: number | null;
	mentions: MentionSource | null;
	handlers: CommentsHandlers;
	heading?: Ref<HTMLHeadingElement>;
	/** The members the reader blocked: their comments collapsed but those `revealed` (docs/reference/blocking.md). */
	blocking?: { authors: readonly number[]; revealed: readonly number[]; text: string };
}

export default function CommentsView(props: CommentsViewProps) {
	const { state, postUrl, channelBase, language, texts, userId, mentions, handlers } = props;
	const { items, reply, edit, draft, nextAfter, order, best } = state;
	const replyBlockedBy = edit ? EDITING_NOTE_ID : undefined;
	const hrefOf = (commentId: number) => replyToHref(postUrl, items, commentId);
	const editor = (comment: CommentItem) =>
		edit?.commentId === comment.commentId ? (
			<CommentForm
				name={`edit-${comment.commentId}`}
				label={texts['comment.edit.label']}
				text={edit.draft.text}
				problem={edit.draft.problem}
				busy={edit.draft.busy}
				submitLabel={texts['comment.button.save']}
				focusOnOpen
				texts={texts}
				mentions={mentions}
				onChange={handlers.onEditChange}
				onSubmit={handlers.onEditSubmit}
				onCancel={() => handlers.onEditCancel(comment.commentId)}
			>
				<p className="comments-note" id={EDITING_NOTE_ID} role="status">
					{texts['comment.message.editing']}
				</p>
			</CommentForm>
		) : null;
	const blocking = props.blocking;
	const collapsedOf = (comment: CommentItem) =>
		blocking && comment.readable && !comment.author.withdrawn && blocking.authors.includes(comment.author.userId)
			? {
					text: blocking.text,
					open: blocking.revealed.includes(comment.commentId),
					onToggle: (open: boolean) => handlers.onRevealChange(comment.commentId, open),
				}
			: undefined;
	// The Best comments: above the thread on the first oldest-first page, marked in place in the Best order.
	const bestIds = new Set(best.map((item) => item.commentId));
	const bestBlock = order === 'oldest' && props.startsAtBeginning && best.length > 0;
	const entry = (comment: CommentItem, children?: ReactNode, inBlock = false) => (
		<CommentEntry
			key={inBlock ? `best-${comment.commentId}` : comment.commentId}
			best={
				inBlock
					? { kind: 'block', goTo: hrefOf(comment.commentId) }
					: order === 'best' && bestIds.has(comment.commentId)
						? { kind: 'mark' }
						: undefined
			}
			onLike={handlers.onLike}
			collapsed={collapsedOf(comment)}
			comment={comment}
			channelBase={channelBase}
			language={language}
			texts={texts}
			highlighted={comment.commentId === props.highlight}
			revisions={props.revisions}
			justPosted={comment.commentId === state.posted}
			replyToHref={hrefOf}
			menuOpen={state.menuFor === comment.commentId}
			menuActions={handlers.menuActions}
			onMenuOpenChange={handlers.onMenuOpenChange}
			replyBlockedBy={replyBlockedBy}
			onReply={handlers.onReply}
			editor={editor(comment)}
		>
			{children}
		</CommentEntry>
	);
	const replyForm = (threadId: number) =>
		reply &&
		reply.parentId === threadId && (
			<CommentForm
				name={`reply-${threadId}`}
				label={fill(texts['comment.reply.label'], { nickname: reply.to })}
				text={reply.draft.text}
				problem={reply.draft.problem}
				busy={reply.draft.busy}
				blockedBy={replyBlockedBy}
				submitLabel={texts['comment.button.post']}
				focusOnOpen
				texts={texts}
				mentions={mentions}
				context={
					<p className="comment-reply-context" data-reply-context={reply.targetId}>
						<a href={hrefOf(reply.targetId)}>
							{reply.named ? fill(texts['comment.reply.context'], { nickname: reply.to }) : texts['comment.reply.contextComment']}
						</a>
						<button
							className="comment-reply-cancel"
							type="button"
							aria-label={texts['comment.reply.cancel']}
							title={texts['comment.reply.cancel']}
							onClick={() => handlers.onReplyCancel(reply.targetId)}
						>
							<span aria-hidden="true">×</span>
						</button>
					</p>
				}
				onChange={handlers.onReplyChange}
				onSubmit={handlers.onReplySubmit}
				onCancel={() => handlers.onReplyCancel(reply.targetId)}
			/>
		);
	const threads = groupThreads(items);
	return (
		<>
			<h2 id="comments-heading" tabIndex={-1} ref={props.heading}>
				{texts['post.comments']}{' '}
				<span className="count" data-comment-count="">
					{formatCount(props.commentCount)}
				</span>
			</h2>
			{props.commentCount > 1 && (
				<nav className="comments-order" aria-label={texts['commentLikes.order.label']}>
					{(['oldest', 'best'] as const).map((shown) => (
						<a key={shown} href={`${postUrl}${ORDER_QUERY[shown]}#comments`} aria-current={shown === order ? 'page' : undefined}>
							{texts[`commentLikes.order.${shown}`]}
						</a>
					))}
				</nav>
			)}
			{!props.startsAtBeginning && (
				<p className="comments-view-all">
					<a href={`${postUrl}${ORDER_QUERY[order]}#comments`}>{texts['comment.viewAll']}</a>
				</p>
			)}
			{bestBlock && (
				<section className="best-comments" aria-labelledby="best-comments-heading">
					<h3 id="best-comments-heading">{texts['commentLikes.best.heading']}</h3>
					<ol className="comments" role="list">
						{best.map((comment) => entry(comment, undefined, true))}
					</ol>
				</section>
			)}
			{threads.length === 0 ? (
				<p className="no-comments">{texts['post.noComments']}</p>
			) : (
				<ol className="comments" role="list">
					{threads.map(({ comment, replies }) =>
						entry(
							comment,
							<>
								{replies.length > 0 && (
									<ol className="replies" role="list">
										{replies.map((item) => entry(item))}
									</ol>
								)}
								{comment.readable && comment.moreReplies && (
									<a className="comment-thread-link" href={commentLink(postUrl, comment.commentId)}>
										{texts['commentLikes.moreReplies']}
									</a>
								)}
								{replyForm(comment.commentId)}
							</>,
						),
					)}
				</ol>
			)}
			{nextAfter !== null && (
				<p className="comments-more">
					<a
						className="button secondary"
						href={`${postUrl}?commentsAfter=${nextAfter}${order === 'best' ? '&commentsSort=best' : ''}#comments`}
						data-action="more"
						aria-busy={state.loadingMore || undefined}
						onClick={(event) => {
							event.preventDefault();
							handlers.onMore();
						}}
					>
						{texts['comment.more']}
					</a>
				</p>
			)}
			<CommentForm
				name="new"
				label={texts['comment.write.label']}
				text={draft.text}
				problem={draft.problem}
				busy={draft.busy}
				submitLabel={texts['comment.button.post']}
				placeholder={
					userId !== null
						? texts['comment.write.placeholder']
						: props.banned
							? texts['comment.write.bannedPlaceholder']
							: texts['comment.write.guestPlaceholder']
				}
				readOnly={userId === null}
				mentions={mentions}
				texts={texts}
				onChange={handlers.onDraftChange}
				onSubmit={handlers.onDraftSubmit}
			/>
		</>
	);
}

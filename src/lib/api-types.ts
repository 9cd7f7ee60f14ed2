/**
 * The contract between the API and the islands: every answer and body an island reads or sends,
 * derived from the routers' own types (functions/api/app.ts PublicApi, MemberApi, AdminApi) through
 * Hono's typed client, type-only: nothing of this module or the server reaches the browser. A
 * route whose answer changes fails `npm run check` in the island that reads it (docs/reference/api-contract.md).
 *
 * Islands import these with `import type`, mostly through their own api.ts and model.ts, which
 * re-export them under the names the components use.
 */
import type { hc, InferRequestType, InferResponseType } from 'hono/client';
import type { AdminApi, MemberApi, PublicApi } from '@functions/api/app';
import type { AnswerOf } from '@/lib/api-client';

/** The typed clients of the three APIs, as types only (the paths after /{api}/v1/{domain}/{slug}). */
type Public = ReturnType<typeof hc<PublicApi>>;
type Member = ReturnType<typeof hc<MemberApi>>;
type Admin = ReturnType<typeof hc<AdminApi>>;

/** The payload of a route's successful answer: the envelope's `content` (src/server/platform/envelope.ts). */
type Content<Route> = InferResponseType<Route, 200> extends infer Answer ? (Answer extends { content: infer C } ? C : never) : never;

/** The JSON body a route takes, as its validator (a zod schema) outputs it. */
type Body<Route> = InferRequestType<Route> extends { json: infer J } ? J : never;

// Comments (functions/api/routers/posts.ts reads them, functions/api/routers/comments.ts writes them).

/** GET posts/{postId}/comments: a page of comments in thread order. */
export type CommentPage = Content<Public['posts'][':postId']['comments']['$get']>;
/** A comment as the API gives it: readable, or a tombstone that keeps its place. */
export type CommentItem = CommentPage['comments'][number];
/** A comment the reader may read: VISIBLE, or HIDDEN_BY_ADMIN for an administrator. */
export type ReadableComment = Extract<CommentItem, { readable: true }>;
/** A comment that keeps its place but shows only its state (deleted, or hidden from this reader). */
export type CommentTombstone = Extract<CommentItem, { readable: false }>;
export type CommentAuthor = ReadableComment['author'];
/** The comment a reply answers; its nickname null when the reader may not know it. */
export type ReplyTo = NonNullable<ReadableComment['replyTo']>;
/** POST posts/{postId}/comments. */
export type NewComment = Body<Member['posts'][':postId']['comments']['$post']>;
export type CreatedComment = Content<Member['posts'][':postId']['comments']['$post']>;
/** PATCH posts/{postId}/comments/{commentId}. */
export type CommentEdit = Body<Member['posts'][':postId']['comments'][':commentId']['$patch']>;
export type EditedComment = Content<Member['posts'][':postId']['comments'][':commentId']['$patch']>;
/** DELETE posts/{postId}/comments/{commentId}. */
export type RemovedComment = Content<Member['posts'][':postId']['comments'][':commentId']['$delete']>;

// Posts and drafts (functions/api/routers/writing.ts, functions/api/routers/drafts.ts).

/** POST posts. */
export type NewPost = Body<Member['posts']['$post']>;
export type CreatedPost = Content<Member['posts']['$post']>;
/** PUT posts/{postId}. */
export type PostEdit = Body<Member['posts'][':postId']['$put']>;
/** GET drafts: a page of the member's drafts. */
export type DraftPage = Content<Member['drafts']['$get']>;
/** GET drafts/{draftId}: a draft as the editor loads it. */
export type Draft = Content<Member['drafts'][':draftId']['$get']>;
/** POST drafts and PUT drafts/{draftId}. */
export type DraftBody = Body<Member['drafts']['$post']>;
export type SavedDraft = Content<Member['drafts']['$post']>;

// The admin area (functions/api/routers/admin.ts).

/** GET reports: the queue of reported posts and comments, a group per target. */
export type QueuePage = Content<Admin['reports']['$get']>;
/** The queue's order: newest reports first, or the most reported. */
export type QueueOrder = InferRequestType<Admin['reports']['$get']>['query']['order'];
export type QueueGroup = QueuePage['groups'][number];
export type TargetType = QueueGroup['targetType'];
/** A member as the admin API names one. */
export type Person = QueueGroup['reports'][number]['reporter'];
export type Paged = Pick<QueuePage, 'page' | 'totalCount' | 'totalPages'>;
/** GET reports/history: reports dismissed or resolved. */
export type HistoryPage = Content<Admin['reports']['history']['$get']>;
export type ClosedReport = HistoryPage['reports'][number];
/** GET bans: the bans in force. */
export type BansPage = Content<Admin['bans']['$get']>;
export type BanInForce = BansPage['bans'][number];
/** GET members/{userId}/bans (also GET members?nickname=, and the answer of a ban or unban). */
export type MemberBans = Content<Admin['members'][':userId']['bans']['$get']>;
export type BanRecord = MemberBans['bans'][number];
/** POST members/{userId}/ban. */
export type BanOrder = Body<Admin['members'][':userId']['ban']['$post']>;
/** GET audit-log: the moderation log. */
export type LogPage = Content<Admin['audit-log']['$get']>;
export type LogEntry = LogPage['entries'][number];
/** What the API says of a target besides its id. */
export type TargetLabel = LogEntry['target'];
/** GET and PUT settings. */
export type Settings = Content<Admin['settings']['$get']>;
/** POST content/{targetType}/{targetId}: a post's or comment's text as stored, hidden and deleted ones too (the read is logged). */
export type StoredText = Content<Admin['content'][':targetType'][':targetId']['$post']>;

// Likes, watching and notifications (functions/api/likes.ts, functions/api/notifications.ts).

/** PUT and DELETE posts/{postId}/like: the member's like and the post's count. */
export type LikeState = AnswerOf<'member', '/posts/:postId/like', 'put'>;
/** PUT and DELETE posts/{postId}/save: whether the member keeps the post among their saved posts. */
export type SaveState = AnswerOf<'member', '/posts/:postId/save', 'put'>;
/** PUT and DELETE watches/posts/{postId} (and watches/boards/{boardId}). */
export type WatchState = AnswerOf<'member', '/watches/posts/:postId', 'put'>;
/** PUT notifications/settings: each kind of notification on or off. */
export type NotificationSwitches = AnswerOf<'member', '/notifications/settings', 'put'>['settings'];
/** PUT and DELETE notifications/email: the address notifications are mailed to, and one waiting for confirmation. */
export type EmailSetting = AnswerOf<'member', '/notifications/email', 'put'>;
/** GET members/suggest: the members an @ may mention. */
export type MentionSuggestions = AnswerOf<'member', '/members/suggest', 'get'>;

// The account and uploads (functions/api/account.ts, functions/api/uploads.ts).

/** POST signup: the new member and where the sign-up returns to. */
export type SignedUp = AnswerOf<'member', '/signup', 'post'>;
/** POST uploads: the stored image. */
export type UploadedImage = AnswerOf<'member', '/uploads', 'post'>;

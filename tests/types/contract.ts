/**
 * The islands' contract with the API (src/lib/api-types.ts, docs/reference/api-contract.md) checked by the
 * type checker: `npm run check` compiles this file (tsconfig.json includes tests/), nothing runs it.
 * Every derived type must be a real shape: not `any`, `unknown` or `never`, and no `any` inside,
 * which is what a route whose answer is no longer typed (a handler that stops returning `c.json`
 * of an envelope, an `any` from a service) would turn it into, silently, in every island.
 */
import type * as Contract from '@/lib/api-types';
import type { DraftFields, FormFields, OpeningFields, PostFields } from '@/schemas/post-write';

type IsAny<T> = 0 extends 1 & T ? true : false;
type IsNever<T> = [T] extends [never] ? true : false;
/** `any` anywhere inside T: itself, an element, or a property at any depth. */
type HasAny<T> =
	IsAny<T> extends true
		? true
		: T extends readonly (infer E)[]
			? HasAny<E>
			: T extends object
				? true extends { [K in keyof T]-?: HasAny<T[K]> }[keyof T]
					? true
					: false
				: false;
/** true for a type an island can rely on. */
type Concrete<T> = HasAny<T> extends true ? false : IsNever<T> extends true ? false : unknown extends T ? false : true;
type Assert<T extends true> = T;

/** Each of these fails to compile when its type stops being a concrete shape. */
export type ContractIsConcrete = [
	Assert<Concrete<Contract.CommentPage>>,
	Assert<Concrete<Contract.CommentItem>>,
	Assert<Concrete<Contract.ReadableComment>>,
	Assert<Concrete<Contract.CommentTombstone>>,
	Assert<Concrete<Contract.CommentAuthor>>,
	Assert<Concrete<Contract.ReplyTo>>,
	Assert<Concrete<Contract.NewComment>>,
	Assert<Concrete<Contract.CreatedComment>>,
	Assert<Concrete<Contract.CommentEdit>>,
	Assert<Concrete<Contract.EditedComment>>,
	Assert<Concrete<Contract.RemovedComment>>,
	Assert<Concrete<Contract.NewPost>>,
	Assert<Concrete<Contract.CreatedPost>>,
	Assert<Concrete<Contract.PostEdit>>,
	Assert<Concrete<Contract.DraftPage>>,
	Assert<Concrete<Contract.Draft>>,
	Assert<Concrete<Contract.DraftBody>>,
	Assert<Concrete<Contract.SavedDraft>>,
	Assert<Concrete<Contract.QueuePage>>,
	Assert<Concrete<Contract.QueueOrder>>,
	Assert<Concrete<Contract.QueueGroup>>,
	Assert<Concrete<Contract.TargetType>>,
	Assert<Concrete<Contract.Person>>,
	Assert<Concrete<Contract.Paged>>,
	Assert<Concrete<Contract.HistoryPage>>,
	Assert<Concrete<Contract.ClosedReport>>,
	Assert<Concrete<Contract.BansPage>>,
	Assert<Concrete<Contract.BanInForce>>,
	Assert<Concrete<Contract.MemberBans>>,
	Assert<Concrete<Contract.BanRecord>>,
	Assert<Concrete<Contract.BanOrder>>,
	Assert<Concrete<Contract.LogPage>>,
	Assert<Concrete<Contract.LogEntry>>,
	Assert<Concrete<Contract.TargetLabel>>,
	Assert<Concrete<Contract.Settings>>,
	Assert<Concrete<Contract.StoredText>>,
	Assert<Concrete<Contract.LikeState>>,
	Assert<Concrete<Contract.SaveState>>,
	Assert<Concrete<Contract.WatchState>>,
	Assert<Concrete<Contract.NotificationSwitches>>,
	Assert<Concrete<Contract.EmailSetting>>,
	Assert<Concrete<Contract.MentionSuggestions>>,
	Assert<Concrete<Contract.SignedUp>>,
	Assert<Concrete<Contract.UploadedImage>>,
	Assert<Concrete<FormFields>>,
	Assert<Concrete<OpeningFields>>,
];

/** The post form's shapes are the schema's: what the form holds is what the routes take, once a board is chosen. */
export type FormMatchesSchema = [
	Assert<FormFields & { boardId: number } extends PostFields ? true : false>,
	Assert<PostFields extends FormFields ? true : false>,
	Assert<Contract.NewPost extends PostFields ? true : false>,
	Assert<Contract.PostEdit extends PostFields ? true : false>,
	Assert<Contract.DraftBody extends DraftFields ? true : false>,
	Assert<DraftFields extends Contract.DraftBody ? true : false>,
	Assert<Pick<FormFields, keyof DraftFields> extends Contract.DraftBody ? true : false>,
];

/**
 * The text of each result code a page or island shows to a person, by its i18n key: it says in the
 * page's language what the catalogue's message says (src/lib/result-codes.ts), and the English file
 * says it word for word, so the write screen and the API never word one failure two ways
 * (tests/unit/result-texts.test.ts). Islands receive these texts as props resolved on the server
 * (src/i18n/index.ts `pick`), so no browser bundle carries RESULT_MESSAGES. A code an island shows
 * gets its entry here; a new code with a text on screen slots in with one entry.
 */
import type { ResultCodeName } from '@/lib/result-codes';
import type { MessageKey } from './index';

export const RESULT_TEXT_KEYS = {
	TitleRequired: 'write.message.titleRequired',
	TitleTooLong: 'write.message.titleTooLong',
	ContentRequired: 'write.message.contentRequired',
	SubjectNotAllowed: 'write.message.noCategory',
	SubjectNotFound: 'write.message.subjectDisabled',
	PostChanged: 'write.message.postChanged',
	DraftLimitReached: 'write.message.draftLimit',
	CommentRequired: 'comment.message.required',
	CommentTooLong: 'comment.message.tooLong',
	NicknameRequired: 'nickname.message.required',
	NicknameLength: 'nickname.message.length',
	NicknameCharacters: 'nickname.message.characters',
	NicknameUnusable: 'nickname.message.unusable',
	NicknameUnchanged: 'nickname.message.unchanged',
	NicknameTaken: 'nickname.message.taken',
	NicknameChangeTooSoon: 'nickname.message.tooSoonNoDate',
	TermsRequired: 'signup.terms.required',
	InvalidImage: 'editor.message.invalidImage',
	InvalidAvatar: 'avatar.message.invalid',
	AvatarDailyLimitReached: 'avatar.message.dailyLimit',
	ImageTooLarge: 'editor.message.imageTooLarge',
	InvalidVideoUrl: 'editor.message.invalidUrl',
	ImageResolutionTooHigh: 'editor.message.imageResolution',
	UploadDailyLimitReached: 'editor.message.uploadDailyLimit',
	UnattachedUploadLimitReached: 'editor.message.unattachedLimit',
	TooManyImages: 'write.message.tooManyImages',
	ReportReasonRequired: 'report.reasonRequired',
	ReportDetailRequired: 'report.detailRequired',
	ReportDetailTooLong: 'report.detailTooLong',
	PostAlreadyReported: 'report.alreadyReported.POST',
	WatchLimitReached: 'watch.limit',
	EmailAddressInvalid: 'email.setting.invalid',
	EmailConfirmationLimit: 'email.setting.limit',
	SavedPostLimitReached: 'saved.limit',
	PushEndpointRefused: 'notifications.pushRefused',
	PushSubscriptionTaken: 'notifications.pushTaken',
	BlockLimitReached: 'block.limit',
	CannotBlockYourself: 'block.self',
	CommentAlreadyReported: 'report.alreadyReported.COMMENT',
	CommentNotLikeable: 'commentLikes.unavailable',
	AutoHideThresholdInvalid: 'admin.settings.invalid',
	PostNotFound: 'post.notFound.title',
	UserNotFound: 'user.notFound',
	LoginRequired: 'auth.loginRequired',
	MembershipRequired: 'auth.loginRequiredDesc',
	IdentityRejected: 'login.failed',
	LiveConnectionLimit: 'live.connectionLimit',
	TooManyRequests: 'common.message.tooManyRequests',
	CommunityMoving: 'moving.message',
	Internal: 'common.message.error',
} as const satisfies Partial<Record<ResultCodeName, MessageKey>>;

/**
 * The API's result codes, one export each: the codes of docs/reference/product-rules.md#errors-and-texts keep their meaning, the others follow
 * its pattern (minus, the HTTP status, four digits). The server answers with them
 * (src/server/platform/errors.ts) and the browser matches failures by them; a browser bundle keeps
 * only the codes it imports, and none of the messages unless it imports RESULT_MESSAGES. The
 * table in docs/reference/api.md is generated from this module (`npm run codes`) and a unit test keeps the two
 * equal. No imports, so that Node scripts can load it as it is.
 */

export interface ResultCode {
	/** The number sent as header.resultCode. */
	readonly code: number;
	/** The HTTP status of the response that carries it. */
	readonly status: 400 | 401 | 403 | 404 | 405 | 409 | 413 | 415 | 429 | 500 | 503;
}

export const ChannelNotFound = { code: -4041401, status: 404 } as const satisfies ResultCode;
export const BoardNotFound = { code: -4041402, status: 404 } as const satisfies ResultCode;
export const PostNotFound = { code: -4041403, status: 404 } as const satisfies ResultCode;
export const UserNotFound = { code: -4041404, status: 404 } as const satisfies ResultCode;
export const SubjectNotFound = { code: -4041405, status: 404 } as const satisfies ResultCode;
export const CommentNotFound = { code: -4041406, status: 404 } as const satisfies ResultCode;
export const DraftNotFound = { code: -4041407, status: 404 } as const satisfies ResultCode;
export const RouteNotFound = { code: -4041408, status: 404 } as const satisfies ResultCode;
export const ReportsNotFound = { code: -4041409, status: 404 } as const satisfies ResultCode;
export const UploadNotFound = { code: -4041410, status: 404 } as const satisfies ResultCode;
export const NotificationNotFound = { code: -4041411, status: 404 } as const satisfies ResultCode;
export const LoginRequired = { code: -4011401, status: 401 } as const satisfies ResultCode;
export const SessionExpired = { code: -4011402, status: 401 } as const satisfies ResultCode;
export const MembershipRequired = { code: -4011411, status: 401 } as const satisfies ResultCode;
export const SessionRevoked = { code: -4011415, status: 401 } as const satisfies ResultCode;
export const IdentityRejected = { code: -4011416, status: 401 } as const satisfies ResultCode;
export const SignupExpired = { code: -4011417, status: 401 } as const satisfies ResultCode;
export const InvalidParameter = { code: -4001400, status: 400 } as const satisfies ResultCode;
export const EmailAddressInvalid = { code: -4001481, status: 400 } as const satisfies ResultCode;
export const PushEndpointRefused = { code: -4001482, status: 400 } as const satisfies ResultCode;
export const SubjectNotAllowed = { code: -4001404, status: 400 } as const satisfies ResultCode;
export const MalformedBody = { code: -4001405, status: 400 } as const satisfies ResultCode;
export const NicknameRequired = { code: -4001421, status: 400 } as const satisfies ResultCode;
export const NicknameLength = { code: -4001422, status: 400 } as const satisfies ResultCode;
export const NicknameCharacters = { code: -4001423, status: 400 } as const satisfies ResultCode;
export const NicknameUnusable = { code: -4001424, status: 400 } as const satisfies ResultCode;
export const NicknameUnchanged = { code: -4001425, status: 400 } as const satisfies ResultCode;
export const TermsRequired = { code: -4001426, status: 400 } as const satisfies ResultCode;
export const WithdrawalUnconfirmed = { code: -4001427, status: 400 } as const satisfies ResultCode;
export const ProviderNotOffered = { code: -4001428, status: 400 } as const satisfies ResultCode;
export const TitleRequired = { code: -4001431, status: 400 } as const satisfies ResultCode;
export const TitleTooLong = { code: -4001432, status: 400 } as const satisfies ResultCode;
export const ContentRequired = { code: -4001433, status: 400 } as const satisfies ResultCode;
export const ContentTooLarge = { code: -4001434, status: 400 } as const satisfies ResultCode;
export const InvalidImage = { code: -4001441, status: 400 } as const satisfies ResultCode;
export const ImageNotUploaded = { code: -4001442, status: 400 } as const satisfies ResultCode;
export const InvalidVideoUrl = { code: -4001443, status: 400 } as const satisfies ResultCode;
export const ImageResolutionTooHigh = { code: -4001444, status: 400 } as const satisfies ResultCode;
export const TooManyImages = { code: -4001445, status: 400 } as const satisfies ResultCode;
export const InvalidThumbnail = { code: -4001446, status: 400 } as const satisfies ResultCode;
export const CommentRequired = { code: -4001451, status: 400 } as const satisfies ResultCode;
export const CommentTooLong = { code: -4001452, status: 400 } as const satisfies ResultCode;
export const ReportMinAgeInvalid = { code: -4001462, status: 400 } as const satisfies ResultCode;
export const ReportReasonRequired = { code: -4001455, status: 400 } as const satisfies ResultCode;
export const ReportDetailRequired = { code: -4001456, status: 400 } as const satisfies ResultCode;
export const ReportDetailTooLong = { code: -4001457, status: 400 } as const satisfies ResultCode;
export const BanEndInvalid = { code: -4001471, status: 400 } as const satisfies ResultCode;
export const AutoHideThresholdInvalid = { code: -4001472, status: 400 } as const satisfies ResultCode;
export const OwnContentNotReportable = { code: -4031451, status: 403 } as const satisfies ResultCode;
export const NoticeOnlyBoard = { code: -4031431, status: 403 } as const satisfies ResultCode;
export const PostChanged = { code: -4091431, status: 409 } as const satisfies ResultCode;
export const PostAlreadyReported = { code: -4091451, status: 409 } as const satisfies ResultCode;
export const CommentAlreadyReported = { code: -4091452, status: 409 } as const satisfies ResultCode;
export const DraftLimitReached = { code: -4091441, status: 409 } as const satisfies ResultCode;
export const UnattachedUploadLimitReached = { code: -4091442, status: 409 } as const satisfies ResultCode;
export const ThumbnailExists = { code: -4091443, status: 409 } as const satisfies ResultCode;
export const WatchLimitReached = { code: -4091481, status: 409 } as const satisfies ResultCode;
export const PushUnavailable = { code: -4091482, status: 409 } as const satisfies ResultCode;
export const EmailUnavailable = { code: -4091483, status: 409 } as const satisfies ResultCode;
export const PushSubscriptionTaken = { code: -4091484, status: 409 } as const satisfies ResultCode;
export const SavedPostLimitReached = { code: -4091485, status: 409 } as const satisfies ResultCode;

export const BlockLimitReached = { code: -4091488, status: 409 } as const satisfies ResultCode;
export const CannotBlockYourself = { code: -4001489, status: 400 } as const satisfies ResultCode;
export const ImageTooLarge = { code: -4131441, status: 413 } as const satisfies ResultCode;
export const ThumbnailTooLarge = { code: -4131442, status: 413 } as const satisfies ResultCode;
export const OriginRejected = { code: -4031401, status: 403 } as const satisfies ResultCode;
export const BoardPrivate = { code: -4031404, status: 403 } as const satisfies ResultCode;
export const Forbidden = { code: -4031403, status: 403 } as const satisfies ResultCode;
export const Banned = { code: -4031452, status: 403 } as const satisfies ResultCode;
export const ChallengeFailed = { code: -4031461, status: 403 } as const satisfies ResultCode;
export const NewMemberTooManyLinks = { code: -4031462, status: 403 } as const satisfies ResultCode;
export const NewMemberTooManyImages = { code: -4031463, status: 403 } as const satisfies ResultCode;
export const NewMemberTooManyMentions = { code: -4031464, status: 403 } as const satisfies ResultCode;
export const RevisionsHidden = { code: -4031491, status: 403 } as const satisfies ResultCode;
export const InvalidAvatar = { code: -4001492, status: 400 } as const satisfies ResultCode;
export const AvatarDailyLimitReached = { code: -4291493, status: 429 } as const satisfies ResultCode;
export const NewMemberPostLimit = { code: -4291461, status: 429 } as const satisfies ResultCode;
export const NewMemberCommentLimit = { code: -4291462, status: 429 } as const satisfies ResultCode;
export const MethodNotAllowed = { code: -4051401, status: 405 } as const satisfies ResultCode;
export const Conflict = { code: -4091401, status: 409 } as const satisfies ResultCode;
export const NicknameTaken = { code: -4091421, status: 409 } as const satisfies ResultCode;
export const CommentNotLikeable = { code: -4091494, status: 409 } as const satisfies ResultCode;
export const CommentOrderInvalid = { code: -4001495, status: 400 } as const satisfies ResultCode;
export const PayloadTooLarge = { code: -4131401, status: 413 } as const satisfies ResultCode;
export const UnsupportedMediaType = { code: -4151401, status: 415 } as const satisfies ResultCode;
export const NicknameChangeTooSoon = { code: -4291421, status: 429 } as const satisfies ResultCode;
export const TooManyRequests = { code: -4291401, status: 429 } as const satisfies ResultCode;
export const LiveConnectionLimit = { code: -4291496, status: 429 } as const satisfies ResultCode;
export const UploadDailyLimitReached = { code: -4291441, status: 429 } as const satisfies ResultCode;
export const EmailConfirmationLimit = { code: -4291481, status: 429 } as const satisfies ResultCode;
export const ProviderUnavailable = { code: -5031401, status: 503 } as const satisfies ResultCode;
export const CommunityMoving = { code: -5031497, status: 503 } as const satisfies ResultCode;
export const Internal = { code: -5001500, status: 500 } as const satisfies ResultCode;

/** The header.resultMessage of each code: says what happened and what to do. */
export const RESULT_MESSAGES = {
	ChannelNotFound: 'The community does not exist. Please check the URL and try again.',
	BoardNotFound: 'The board does not exist. Please check the URL and try again.',
	PostNotFound: 'Post not found.',
	UserNotFound: 'The member does not exist.',
	SubjectNotFound: 'This category of the board is disabled. Please choose another category.',
	CommentNotFound: 'The comment does not exist.',
	CommentRequired: 'Please enter a comment.',
	CommentTooLong: 'The comment can be up to 1,000 characters long.',
	ReportReasonRequired: 'Choose a reason.',
	ReportDetailRequired: 'Please describe the problem.',
	ReportDetailTooLong: 'The details can be up to 500 characters long.',
	BanEndInvalid: 'A temporary ban ends at a moment in the future; a permanent one has no end.',
	AutoHideThresholdInvalid: 'Enter a whole number from 1 to 1,000, or leave it empty.',
	DraftNotFound: 'The draft does not exist.',
	RouteNotFound: 'Page not found. Please go back and try again.',
	ReportsNotFound: 'There are no open reports of this post or comment.',
	UploadNotFound: 'This image is not one of your uploads in this community.',
	NotificationNotFound: 'This notification does not exist. It may have been removed.',
	ReportMinAgeInvalid: 'Enter a whole number of hours from 0 to 8,760.',
	LoginRequired: 'Please log in to continue.',
	SessionExpired: 'Your session has ended. Please log in again.',
	MembershipRequired: 'Logging in is required to use this service.',
	SessionRevoked: 'You have been logged out. Please log in again.',
	IdentityRejected: 'Failed to log in. Please try again.',
	SignupExpired: 'The sign-up has expired. Please log in again.',
	InvalidParameter: 'The request has an invalid parameter.',
	SubjectNotAllowed: 'Unable to set the category.',
	MalformedBody: 'The request body is not valid JSON.',
	NicknameRequired: 'Enter your nickname.',
	NicknameLength: 'Nickname must be between 2-30 characters.',
	NicknameCharacters: 'Spaces, brackets ([,]), braces ({,}), and emojis are not allowed.',
	NicknameUnusable: 'This nickname cannot be used.',
	NicknameUnchanged: 'Nickname currently in use.',
	TermsRequired: 'Agree to the terms of service and the collection of personal information to continue.',
	WithdrawalUnconfirmed: "Tick 'I will leave the community.' to withdraw.",
	ProviderNotOffered: 'This community does not offer sign-in with that provider.',
	TitleRequired: 'Please enter a title.',
	TitleTooLong: 'The title can be up to 100 characters long.',
	ContentRequired: 'Please enter the content.',
	ContentTooLarge: 'The post is too long. Please shorten it.',
	InvalidImage: 'Invalid image.',
	ImageNotUploaded: 'Images must be uploaded to this community from the editor.',
	InvalidVideoUrl: 'Please enter a valid URL.',
	ImageResolutionTooHigh: 'Please upload an image of at most 40 megapixels and 10,000 pixels a side.',
	TooManyImages: 'A post can show up to 50 images. Remove some to save it.',
	InvalidThumbnail: 'A thumbnail must be a JPEG or WebP image of at most 320 pixels a side.',
	NoticeOnlyBoard: 'Only administrators can write in this board.',
	PostChanged: 'The post was changed after you opened it. Reload to see the latest version before editing.',
	PostAlreadyReported: 'This post has already been reported.',
	CommentAlreadyReported: 'This comment has already been reported.',
	OwnContentNotReportable: 'You cannot report your own post or comment.',
	DraftLimitReached: 'You can keep up to 100 drafts. Delete one to save another.',
	UnattachedUploadLimitReached: 'You have 60 uploaded images that no post or draft shows yet. Post them or save a draft before uploading more.',
	ThumbnailExists: 'This image already has its thumbnail.',
	ImageTooLarge: 'Please upload an image that is no larger than 10MB.',
	ThumbnailTooLarge: 'A thumbnail can be up to 64 KB.',
	OriginRejected: 'The request came from another site and was refused.',
	BoardPrivate: 'This board is private.',
	Forbidden: 'You do not have permission to do this.',
	Banned: 'Your access to this community is restricted.',
	ChallengeFailed: 'Please complete the check and try again.',
	NewMemberTooManyLinks: 'New members can add only a few links to a post or comment. Please remove some links and try again.',
	NewMemberTooManyImages: 'New members can add only a few images or videos to a post. Please remove some and try again.',
	NewMemberTooManyMentions: 'New members can mention only a few members in a post or comment. Please remove some mentions and try again.',
	RevisionsHidden: 'The earlier versions of hidden content can be read by administrators only.',
	InvalidAvatar: 'This picture cannot be used as an avatar. Please choose a JPEG, PNG, WebP or GIF image.',
	AvatarDailyLimitReached: 'You can change your avatar up to 20 times a day. Please try again later.',
	NewMemberPostLimit: 'New members can write only a few posts in their first day. Please try again later.',
	NewMemberCommentLimit: 'New members can write only a few comments in their first day. Please try again later.',
	MethodNotAllowed: 'This method is not allowed here.',
	WatchLimitReached: 'You watch as many posts and boards as one member can. Stop watching some and try again.',
	PushUnavailable: 'Push notifications are not set up for this community.',
	PushEndpointRefused: "This browser's push service is not supported here. Please try another browser.",
	PushSubscriptionTaken: 'This browser is set up for push notifications of another account. Please turn them off there first.',
	BlockLimitReached: 'You have blocked as many members as one member can (500). Unblock some and try again.',
	CannotBlockYourself: 'You cannot block yourself.',
	EmailAddressInvalid: 'Enter a valid email address.',
	EmailUnavailable: 'Email notifications are not set up for this community.',
	EmailConfirmationLimit: 'You asked for 3 confirmation emails today. Please try again tomorrow.',
	SavedPostLimitReached: 'You have saved 1,000 posts, as many as one member can. Remove some under My Page → Saved and try again.',
	Conflict: 'The request conflicts with the current state. Please reload and try again.',
	NicknameTaken: 'This nickname is already in use.',
	CommentNotLikeable: 'This comment was deleted or hidden, so it can no longer be liked.',
	CommentOrderInvalid: 'Comments can be ordered by oldest or best only.',
	PayloadTooLarge: 'The request is too large.',
	UnsupportedMediaType: 'Send the request body as application/json.',
	NicknameChangeTooSoon: 'You can change your nickname once every 7 days.',
	TooManyRequests: 'Too many requests. Please wait a minute and try again.',
	LiveConnectionLimit: 'This page has as many live connections as it can take from your address. New comments show when you reload.',
	UploadDailyLimitReached: 'You can upload up to 100 images or 200 MB a day. Please try again later.',
	ProviderUnavailable: 'This sign-in method is not available at the moment. Please try another one or try again later.',
	CommunityMoving: 'This community is moving to another database. Reading works; please try again in a minute.',
	Internal: 'There is currently an issue with the service, and your request cannot be processed. Please try again later.',
} as const;

export type ResultCodeName = keyof typeof RESULT_MESSAGES;

/**
 * The API's result codes, one export each: SPEC §8's codes keep their meaning, the others follow
 * its pattern (minus, the HTTP status, four digits). The server answers with them
 * (src/server/platform/errors.ts) and the browser matches failures by them; a browser bundle keeps
 * only the codes it imports. The README's table is generated from this module (`npm run codes`) and
 * a unit test keeps the two equal. No imports, so that Node scripts can load it as it is.
 */

export interface ResultCodeDef {
	/** The number sent as header.resultCode. */
	readonly code: number;
	/** The HTTP status of the response that carries it. */
	readonly status: 400 | 401 | 403 | 404 | 405 | 409 | 413 | 415 | 429 | 500 | 503;
	/** The header.resultMessage: says what happened and what to do. */
	readonly message: string;
}

export const ChannelNotFound = { code: -4041401, status: 404, message: 'The community does not exist. Please check the URL and try again.' } as const satisfies ResultCodeDef;
export const BoardNotFound = { code: -4041402, status: 404, message: 'The board does not exist. Please check the URL and try again.' } as const satisfies ResultCodeDef;
export const PostNotFound = { code: -4041403, status: 404, message: 'Post not found.' } as const satisfies ResultCodeDef;
export const UserNotFound = { code: -4041404, status: 404, message: 'The member does not exist.' } as const satisfies ResultCodeDef;
export const SubjectNotFound = { code: -4041405, status: 404, message: 'The category of this board is disabled. Please choose another one.' } as const satisfies ResultCodeDef;
export const CommentNotFound = { code: -4041406, status: 404, message: 'The comment does not exist.' } as const satisfies ResultCodeDef;
export const DraftNotFound = { code: -4041407, status: 404, message: 'The draft does not exist.' } as const satisfies ResultCodeDef;
export const RouteNotFound = { code: -4041408, status: 404, message: 'Page not found. Please go back and try again.' } as const satisfies ResultCodeDef;
export const LoginRequired = { code: -4011401, status: 401, message: 'Please log in to continue.' } as const satisfies ResultCodeDef;
export const SessionExpired = { code: -4011402, status: 401, message: 'Your session has ended. Please log in again.' } as const satisfies ResultCodeDef;
export const MembershipRequired = { code: -4011411, status: 401, message: 'Logging in is required to use this service.' } as const satisfies ResultCodeDef;
export const SessionRevoked = { code: -4011415, status: 401, message: 'You have been logged out. Please log in again.' } as const satisfies ResultCodeDef;
export const IdentityRejected = { code: -4011416, status: 401, message: 'Failed to log in. Please try again.' } as const satisfies ResultCodeDef;
export const SignupExpired = { code: -4011417, status: 401, message: 'The sign-up has expired. Please log in again.' } as const satisfies ResultCodeDef;
export const InvalidParameter = { code: -4001400, status: 400, message: 'The request has an invalid parameter.' } as const satisfies ResultCodeDef;
export const SubjectNotAllowed = { code: -4001404, status: 400, message: 'Unable to set the category.' } as const satisfies ResultCodeDef;
export const MalformedBody = { code: -4001405, status: 400, message: 'The request body is not valid JSON.' } as const satisfies ResultCodeDef;
export const NicknameRequired = { code: -4001421, status: 400, message: 'Enter your nickname.' } as const satisfies ResultCodeDef;
export const NicknameLength = { code: -4001422, status: 400, message: 'Nickname must be between 2-30 characters.' } as const satisfies ResultCodeDef;
export const NicknameCharacters = { code: -4001423, status: 400, message: 'Spaces, brackets ([,]), braces ({,}), and emojis are not allowed.' } as const satisfies ResultCodeDef;
export const NicknameUnusable = { code: -4001424, status: 400, message: 'This nickname cannot be used.' } as const satisfies ResultCodeDef;
export const NicknameUnchanged = { code: -4001425, status: 400, message: 'Nickname currently in use.' } as const satisfies ResultCodeDef;
export const TermsRequired = { code: -4001426, status: 400, message: 'Agree to the terms of service and the collection of personal information to continue.' } as const satisfies ResultCodeDef;
export const WithdrawalUnconfirmed = { code: -4001427, status: 400, message: "Tick 'I will leave the community.' to withdraw." } as const satisfies ResultCodeDef;
export const ProviderNotOffered = { code: -4001428, status: 400, message: 'This community does not offer sign-in with that provider.' } as const satisfies ResultCodeDef;
export const OriginRejected = { code: -4031401, status: 403, message: 'The request came from another site and was refused.' } as const satisfies ResultCodeDef;
export const BoardPrivate = { code: -4031404, status: 403, message: 'This board is private.' } as const satisfies ResultCodeDef;
export const Forbidden = { code: -4031403, status: 403, message: 'You do not have permission to do this.' } as const satisfies ResultCodeDef;
export const Banned = { code: -4031452, status: 403, message: 'Your access to this community is restricted.' } as const satisfies ResultCodeDef;
export const MethodNotAllowed = { code: -4051401, status: 405, message: 'This method is not allowed here.' } as const satisfies ResultCodeDef;
export const Conflict = { code: -4091401, status: 409, message: 'The request conflicts with the current state. Please reload and try again.' } as const satisfies ResultCodeDef;
export const NicknameTaken = { code: -4091421, status: 409, message: 'This nickname is already in use.' } as const satisfies ResultCodeDef;
export const PayloadTooLarge = { code: -4131401, status: 413, message: 'The request is too large.' } as const satisfies ResultCodeDef;
export const UnsupportedMediaType = { code: -4151401, status: 415, message: 'Send the request body as application/json.' } as const satisfies ResultCodeDef;
export const NicknameChangeTooSoon = { code: -4291421, status: 429, message: 'You can change your nickname once every 7 days.' } as const satisfies ResultCodeDef;
export const TooManyRequests = { code: -4291401, status: 429, message: 'Too many requests. Please wait a moment and try again.' } as const satisfies ResultCodeDef;
export const ProviderUnavailable = { code: -5031401, status: 503, message: 'This sign-in method is not available at the moment. Please try another one or try again later.' } as const satisfies ResultCodeDef;
export const Internal = { code: -5001500, status: 500, message: 'There is currently an issue with the service, and your request cannot be processed. Please try again later.' } as const satisfies ResultCodeDef;

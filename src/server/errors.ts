/**
 * The catalogue of result codes. SPEC §8's codes keep their meaning; the others follow its pattern:
 * minus, HTTP status, four digits. Services throw `AppError`; one handler turns it into the envelope.
 * The README's result-code table is generated from this list (`npm run codes`).
 */

export interface ResultCodeDef {
	/** The number sent as header.resultCode. */
	readonly code: number;
	/** The HTTP status of the response that carries it. */
	readonly status: 400 | 401 | 403 | 404 | 405 | 409 | 413 | 415 | 429 | 500 | 503;
	/** The header.resultMessage; says what happened and what to do. */
	readonly message: string;
}

export const ResultCodes = {
	ChannelNotFound: { code: -4041401, status: 404, message: 'The community does not exist. Please check the URL and try again.' },
	BoardNotFound: { code: -4041402, status: 404, message: 'The board does not exist. Please check the URL and try again.' },
	PostNotFound: { code: -4041403, status: 404, message: 'Post not found.' },
	UserNotFound: { code: -4041404, status: 404, message: 'The member does not exist.' },
	SubjectNotFound: { code: -4041405, status: 404, message: 'The category of this board is disabled. Please choose another one.' },
	CommentNotFound: { code: -4041406, status: 404, message: 'The comment does not exist.' },
	DraftNotFound: { code: -4041407, status: 404, message: 'The draft does not exist.' },
	RouteNotFound: { code: -4041408, status: 404, message: 'Page not found. Please go back and try again.' },
	LoginRequired: { code: -4011401, status: 401, message: 'Please log in to continue.' },
	SessionExpired: { code: -4011402, status: 401, message: 'Your session has ended. Please log in again.' },
	MembershipRequired: { code: -4011411, status: 401, message: 'Logging in is required to use this service.' },
	SessionRevoked: { code: -4011415, status: 401, message: 'You have been logged out. Please log in again.' },
	IdentityRejected: { code: -4011416, status: 401, message: 'Failed to log in. Please try again.' },
	SignupExpired: { code: -4011417, status: 401, message: 'The sign-up has expired. Please log in again.' },
	InvalidParameter: { code: -4001400, status: 400, message: 'The request has an invalid parameter.' },
	SubjectNotAllowed: { code: -4001404, status: 400, message: 'Unable to set the category.' },
	MalformedBody: { code: -4001405, status: 400, message: 'The request body is not valid JSON.' },
	NicknameRequired: { code: -4001421, status: 400, message: 'Enter your nickname.' },
	NicknameLength: { code: -4001422, status: 400, message: 'Nickname must be between 2-30 characters.' },
	NicknameCharacters: { code: -4001423, status: 400, message: 'Spaces, brackets ([,]), braces ({,}), and emojis are not allowed.' },
	NicknameUnusable: { code: -4001424, status: 400, message: 'This nickname cannot be used.' },
	NicknameUnchanged: { code: -4001425, status: 400, message: 'Nickname currently in use.' },
	TermsRequired: { code: -4001426, status: 400, message: 'Agree to the terms of service and the collection of personal information to continue.' },
	WithdrawalUnconfirmed: { code: -4001427, status: 400, message: "Tick 'I will leave the community.' to withdraw." },
	ProviderNotOffered: { code: -4001428, status: 400, message: 'This community does not offer sign-in with that provider.' },
	OriginRejected: { code: -4031401, status: 403, message: 'The request came from another site and was refused.' },
	Forbidden: { code: -4031403, status: 403, message: 'You do not have permission to do this.' },
	Banned: { code: -4031452, status: 403, message: 'Your access to this community is restricted.' },
	MethodNotAllowed: { code: -4051401, status: 405, message: 'This method is not allowed here.' },
	Conflict: { code: -4091401, status: 409, message: 'The request conflicts with the current state. Please reload and try again.' },
	NicknameTaken: { code: -4091421, status: 409, message: 'This nickname is already in use.' },
	PayloadTooLarge: { code: -4131401, status: 413, message: 'The request is too large.' },
	UnsupportedMediaType: { code: -4151401, status: 415, message: 'Send the request body as application/json.' },
	TooManyRequests: { code: -4291401, status: 429, message: 'Too many requests. Please wait a moment and try again.' },
	ProviderUnavailable: { code: -5031401, status: 503, message: 'This sign-in method is not available at the moment. Please try another one or try again later.' },
	Internal: {
		code: -5001500,
		status: 500,
		message: 'There is currently an issue with the service, and your request cannot be processed. Please try again later.',
	},
} as const satisfies Record<string, ResultCodeDef>;

export type ResultCodeName = keyof typeof ResultCodes;

/** A failure that the API answers with its result code, and pages with their error screen. */
export class AppError extends Error {
	readonly def: ResultCodeDef;
	readonly codeName: ResultCodeName;
	/** Extra payload sent beside the header (for example the end of a ban). */
	readonly details: Record<string, unknown> | undefined;

	constructor(name: ResultCodeName, message?: string, details?: Record<string, unknown>) {
		const def = ResultCodes[name];
		super(message ?? def.message);
		this.name = 'AppError';
		this.codeName = name;
		this.def = def;
		this.details = details;
	}
}

export function isAppError(error: unknown): error is AppError {
	return error instanceof AppError;
}

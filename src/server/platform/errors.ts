/**
 * Failures the API answers with a result code (src/lib/result-codes.ts) and pages with their error
 * screen. Services throw `AppError`; one handler (functions/api/middleware/errors.ts) turns it into the
 * envelope, and anything else is logged and answered as Internal.
 */
import * as codes from '@/lib/result-codes';
import { RESULT_MESSAGES, type ResultCode, type ResultCodeName } from '@/lib/result-codes';

export type { ResultCodeName };

export interface ResultCodeDef extends ResultCode {
	/** The header.resultMessage. */
	readonly message: string;
}

/** Every result code with its message, by name. */
export const ResultCodes = Object.fromEntries(
	(Object.keys(RESULT_MESSAGES) as ResultCodeName[]).map((name) => [
		name,
		{ ...(codes as unknown as Record<ResultCodeName, ResultCode>)[name], message: RESULT_MESSAGES[name] },
	]),
) as Record<ResultCodeName, ResultCodeDef>;

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

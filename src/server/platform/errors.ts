/**
 * Failures the API answers with a result code (src/lib/result-codes.ts) and pages with their error
 * screen. Services throw `AppError`; one handler (functions/middleware/errors.ts) turns it into the
 * envelope, and anything else is logged and answered as Internal.
 */
import * as ResultCodes from '@/lib/result-codes';
import type { ResultCodeDef } from '@/lib/result-codes';

export { ResultCodes, type ResultCodeDef };
export type ResultCodeName = Exclude<keyof typeof ResultCodes, 'ResultCodeDef'>;

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

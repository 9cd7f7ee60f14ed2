/**
 * The browser's client for the JSON API (docs/product-rules.md#api-calls): credentials included, a base URL, the user-id
 * header once a user id is known, plain-object bodies sent as JSON, array query values repeated,
 * and a non-JSON answer read as null. Failures are thrown as FetchError (any non-OK status) or
 * ResponseError (an OK answer whose header says isSuccessful false); both carry the resultCode
 * when the body is an envelope, so route handlers can match on it.
 */
import { USER_ID_HEADER } from './names';

export interface EnvelopeHeader {
	isSuccessful: boolean;
	resultCode: number;
	resultMessage: string;
}

/** A non-OK HTTP answer. */
export class FetchError extends Error {
	readonly status: number;
	readonly statusText: string;
	/** The envelope's code, when the body was one. */
	readonly resultCode: number | undefined;
	readonly body: unknown;

	constructor(status: number, statusText: string, body: unknown) {
		const header = envelopeHeader(body);
		super(header?.resultMessage || `${status} ${statusText}`);
		this.name = 'FetchError';
		this.status = status;
		this.statusText = statusText;
		this.resultCode = header?.resultCode;
		this.body = body;
	}
}

/** An OK HTTP answer whose envelope reports a failure. */
export class ResponseError extends Error {
	readonly resultCode: number;
	readonly header: EnvelopeHeader;
	readonly body: unknown;

	constructor(header: EnvelopeHeader, body: unknown) {
		super(header.resultMessage);
		this.name = 'ResponseError';
		this.resultCode = header.resultCode;
		this.header = header;
		this.body = body;
	}
}

/** The result code of an API failure of either kind, or undefined. */
export function resultCodeOf(error: unknown): number | undefined {
	return error instanceof FetchError || error instanceof ResponseError ? error.resultCode : undefined;
}

function envelopeHeader(body: unknown): EnvelopeHeader | undefined {
	if (typeof body !== 'object' || body === null || !('header' in body)) return undefined;
	const header = (body as { header: unknown }).header;
	if (typeof header !== 'object' || header === null) return undefined;
	const { isSuccessful, resultCode, resultMessage } = header as Record<string, unknown>;
	if (typeof isSuccessful !== 'boolean' || typeof resultCode !== 'number') return undefined;
	return { isSuccessful, resultCode, resultMessage: typeof resultMessage === 'string' ? resultMessage : '' };
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type QueryValue = string | number | boolean | null | undefined | readonly (string | number | boolean)[];

export interface RequestOptions {
	method?: Method;
	query?: Record<string, QueryValue>;
	/** A plain object or array is sent as JSON; FormData, Blob and strings go as they are. */
	body?: unknown;
	signal?: AbortSignal;
	headers?: Record<string, string>;
}

export interface ApiClientOptions {
	/** The origin the API lives on: the site's own ({host}) by default. */
	baseUrl?: string;
	/** The known user id, sent as the user-id header. */
	getUserId?: () => string | null | undefined;
	fetch?: typeof fetch;
}

/** Builds `path?query` with array values repeated (`a=1&a=2`) and empty values left out. */
export function buildUrl(baseUrl: string, path: string, query?: Record<string, QueryValue>): string {
	const params = new URLSearchParams();
	for (const [key, value] of Object.entries(query ?? {})) {
		if (value === undefined || value === null) continue;
		if (Array.isArray(value)) for (const item of value) params.append(key, String(item));
		else params.append(key, String(value));
	}
	const search = params.toString();
	return `${baseUrl}${path}${search ? `?${search}` : ''}`;
}

function isPlainBody(body: unknown): boolean {
	if (body === null || typeof body !== 'object') return false;
	if (Array.isArray(body)) return true;
	const proto = Object.getPrototypeOf(body);
	return proto === Object.prototype || proto === null;
}

export function createApiClient({ baseUrl = '', getUserId, fetch: fetchImpl }: ApiClientOptions = {}) {
	async function request<T>(path: string, options: RequestOptions = {}): Promise<T> {
		const headers = new Headers(options.headers);
		headers.set('Accept', 'application/json');
		const userId = getUserId?.();
		if (userId) headers.set(USER_ID_HEADER, userId);
		let body: BodyInit | undefined;
		if (options.body !== undefined) {
			if (isPlainBody(options.body)) {
				headers.set('Content-Type', 'application/json');
				body = JSON.stringify(options.body);
			} else {
				body = options.body as BodyInit;
			}
		}
		const response = await (fetchImpl ?? fetch)(buildUrl(baseUrl, path, options.query), {
			method: options.method ?? 'GET',
			credentials: 'include',
			headers,
			...(body === undefined ? {} : { body }),
			...(options.signal ? { signal: options.signal } : {}),
		});
		const parsed = await readJson(response);
		if (!response.ok) throw new FetchError(response.status, response.statusText, parsed);
		const header = envelopeHeader(parsed);
		if (header && !header.isSuccessful) throw new ResponseError(header, parsed);
		return parsed as T;
	}

	return {
		request,
		get: <T>(path: string, query?: Record<string, QueryValue>) => request<T>(path, query ? { query } : {}),
		post: <T>(path: string, body?: unknown) => request<T>(path, { method: 'POST', body }),
		put: <T>(path: string, body?: unknown) => request<T>(path, { method: 'PUT', body }),
		patch: <T>(path: string, body?: unknown) => request<T>(path, { method: 'PATCH', body }),
		delete: <T>(path: string, body?: unknown) => request<T>(path, { method: 'DELETE', body }),
	};
}

export type ApiClient = ReturnType<typeof createApiClient>;

/** The body as JSON, or null when it is empty or not JSON. */
async function readJson(response: Response): Promise<unknown> {
	const text = await response.text();
	if (!text) return null;
	try {
		return JSON.parse(text);
	} catch {
		return null;
	}
}

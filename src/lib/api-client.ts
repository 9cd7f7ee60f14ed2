/**
 * The browser's client for the JSON API (docs/reference/product-rules.md#api-calls, docs/reference/api-contract.md): a
 * call names its API (public, member, admin) and one of that router's own route paths, and the
 * path, its parameters, the query, the JSON body and the answer are all typed from the routers
 * (functions/app.ts), type-only. It sends credentials, the user-id header once a user id is known,
 * bodies as JSON and array query values repeated, and resolves to the envelope's
 * `content` (undefined for a non-JSON answer). Failures are thrown as FetchError (any non-OK status) or
 * ResponseError (an OK answer whose header says isSuccessful false); both carry the resultCode
 * when the body is an envelope, so route handlers can match on it.
 */
import type { ExtractSchema } from 'hono/types';
import type { AdminApi, MemberApi, PublicApi } from '@functions/api/app';
import { USER_ID_HEADER } from '@/lib/names';
import { apiUrls, type ChannelRef } from '@/lib/urls';

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

interface RequestOptions {
	method?: Method;
	query?: Record<string, QueryValue> | undefined;
	/** Sent as JSON. */
	body?: unknown;
	signal?: AbortSignal | undefined;
	keepalive?: boolean | undefined;
}

/** The three APIs of a channel (functions/app.ts), by the name of their prefix in src/lib/urls.ts apiUrls. */
interface Apis {
	public: PublicApi;
	member: MemberApi;
	admin: AdminApi;
}
type ApiName = keyof Apis;
type Routes<A extends ApiName> = ExtractSchema<Apis[A]>;
type Verb = 'get' | 'post' | 'put' | 'patch' | 'delete';
/** The route paths of API `A` (after /{api}/v1/{domain}/{slug}) that answer method `V`. */
type PathOf<A extends ApiName, V extends Verb = Verb> = {
	[P in keyof Routes<A>]: [Extract<keyof Routes<A>[P], `$${V}`>] extends [never] ? never : P;
}[keyof Routes<A>] &
	string;
type EndpointOf<A extends ApiName, P extends string, V extends Verb> = P extends keyof Routes<A>
	? `$${V}` extends keyof Routes<A>[P]
		? Routes<A>[P][`$${V}`]
		: never
	: never;

/** The `:name` segments of a route path. */
type ParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
	? Name | ParamNames<`/${Rest}`>
	: P extends `${string}:${infer Name}`
		? Name
		: never;
type PathParams<P extends string> = { [K in ParamNames<P>]: string | number };

/** What a call sends: the path's parameters, the query and JSON body the route's validators take, an abort signal. */
type CallInput<E> = (E extends { input: infer I }
	? (I extends { json: infer J } ? { json: J } : unknown) & (I extends { query: infer Q } ? { query?: { [K in keyof Q]?: QueryValue } } : unknown)
	: unknown) & {
	signal?: AbortSignal;
	/** The request outlives the page (a notification opened by the link it follows). */
	keepalive?: boolean;
};
type Input<A extends ApiName, P extends string, V extends Verb> = CallInput<EndpointOf<A, P, V>> &
	([ParamNames<P>] extends [never] ? { param?: never } : { param: PathParams<P> });
/** The route's answer: its envelope's `content` (src/server/platform/envelope.ts), or nothing when it has none. */
export type AnswerOf<A extends ApiName, P extends string, V extends Verb> =
	EndpointOf<A, P, V> extends infer E ? (E extends { output: { content: infer C } } ? C : E extends { output: unknown } ? void : never) : never;

/** Every input optional (no parameter, no required body): the call may leave it out. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- `{} extends I`: every field of I is optional.
type Args<I> = {} extends I ? [input?: I] : [input: I];

type RouteCaller<A extends ApiName, V extends Verb> = <P extends PathOf<A, V>>(path: P, ...input: Args<Input<A, P, V>>) => Promise<AnswerOf<A, P, V>>;
/** One API's routes, by method: `member.put('/posts/:postId/like', { param: { postId } })`. */
export type RoutesClient<A extends ApiName> = { [V in Verb]: RouteCaller<A, V> };

/** The URL of a route: its API's prefix for `channel`, and the path with each `:name` replaced by its value. */
export function apiUrl<A extends ApiName, P extends PathOf<A>>(
	channel: ChannelRef,
	api: A,
	path: P,
	...param: [ParamNames<P>] extends [never] ? [] : [PathParams<P>]
): string {
	return urlOf(channel, api, path, param[0]);
}

function urlOf(channel: ChannelRef, api: ApiName, path: string, values: Record<string, string | number> = {}): string {
	return apiUrls(channel)[api] + path.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(String(values[name])));
}

export interface ApiClientOptions {
	/** The channel whose APIs are called. */
	channel: ChannelRef;
	/** The known user id, sent as the user-id header. */
	getUserId?: () => string | null | undefined;
	fetch?: typeof fetch;
}

/** Builds `path?query` with array values repeated (`a=1&a=2`) and empty values left out. */
export function buildUrl(path: string, query?: Record<string, QueryValue>): string {
	const params = new URLSearchParams();
	for (const [key, value] of Object.entries(query ?? {})) {
		if (value === undefined || value === null) continue;
		if (Array.isArray(value)) for (const item of value) params.append(key, String(item));
		else params.append(key, String(value));
	}
	const search = params.toString();
	return `${path}${search ? `?${search}` : ''}`;
}

/**
 * The client of a channel's three APIs: `api.member.get('/drafts/:draftId', { param: { draftId } })`
 * resolves to the route's `content`, typed from the router; the path is one of the router's own.
 */
export function createApiClient({ channel, getUserId, fetch: fetchImpl }: ApiClientOptions) {
	async function request(url: string, options: RequestOptions): Promise<unknown> {
		const headers = new Headers({ Accept: 'application/json' });
		const userId = getUserId?.();
		if (userId) headers.set(USER_ID_HEADER, userId);
		let body: string | undefined;
		if (options.body !== undefined) {
			headers.set('Content-Type', 'application/json');
			body = JSON.stringify(options.body);
		}
		const response = await (fetchImpl ?? fetch)(buildUrl(url, options.query), {
			method: options.method ?? 'GET',
			credentials: 'include',
			headers,
			...(body === undefined ? {} : { body }),
			...(options.signal ? { signal: options.signal } : {}),
			...(options.keepalive ? { keepalive: true } : {}),
		});
		const parsed = await readJson(response);
		if (!response.ok) throw new FetchError(response.status, response.statusText, parsed);
		const header = envelopeHeader(parsed);
		if (header && !header.isSuccessful) throw new ResponseError(header, parsed);
		return (parsed as { content?: unknown } | null)?.content;
	}

	const routes = <A extends ApiName>(api: A): RoutesClient<A> => {
		const call =
			(method: Method) =>
			(
				path: string,
				input: {
					param?: Record<string, string | number>;
					query?: Record<string, QueryValue>;
					json?: unknown;
					signal?: AbortSignal;
					keepalive?: boolean;
				} = {},
			) =>
				request(urlOf(channel, api, path, input.param), {
					method,
					query: input.query,
					body: input.json,
					signal: input.signal,
					keepalive: input.keepalive,
				});
		return { get: call('GET'), post: call('POST'), put: call('PUT'), patch: call('PATCH'), delete: call('DELETE') } as unknown as RoutesClient<A>;
	};

	return { public: routes('public'), member: routes('member'), admin: routes('admin') };
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

/** The member API of `channel` for the signed-in member `userId` (the user-id header of docs/reference/product-rules.md#api-calls). */
export function memberRoutes(channel: ChannelRef, userId: number | string): RoutesClient<'member'> {
	return createApiClient({ channel, getUserId: () => String(userId) }).member;
}

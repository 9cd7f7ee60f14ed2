/** The response envelope (docs/reference/api.md#conventions): a header, then the payload under the key docs/reference/product-rules.md#api-calls reads. */

interface EnvelopeHeader {
	isSuccessful: boolean;
	resultCode: number;
	resultMessage: string;
}

export type Envelope<T extends object = object> = { header: EnvelopeHeader } & T;

export function ok<T extends object>(payload: T): Envelope<T> {
	return { header: { isSuccessful: true, resultCode: 0, resultMessage: '' }, ...payload };
}

export function failure(resultCode: number, resultMessage: string, payload: object = {}): Envelope {
	return { header: { isSuccessful: false, resultCode, resultMessage }, ...payload };
}

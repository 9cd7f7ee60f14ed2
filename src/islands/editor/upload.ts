/**
 * Image uploads from the editor: the raw file POSTed to the member API's uploads route with
 * XMLHttpRequest (fetch reports no upload progress), with the API client's credentials and
 * headers (docs/reference/product-rules.md#api-calls). Failures are the API client's FetchError and ResponseError, so callers match
 * result codes the same way as for any other call. The editor loads this module when the writer
 * first picks, pastes or drops a file (or focuses the editor), not with the editor itself: the
 * write page's JavaScript before the editor is usable has a budget (tests/e2e/budget.spec.ts).
 */
import { apiUrl, FetchError, ResponseError, resultCodeOf, type EnvelopeHeader } from '@/lib/api-client';
import type { UploadedImage } from '@/lib/api-types';
import type { ChannelRef } from '@/lib/urls';
import { USER_ID_HEADER } from '@/lib/names';
import {
	Banned,
	IdentityRejected,
	ImageResolutionTooHigh,
	ImageTooLarge,
	InvalidImage,
	LoginRequired,
	MembershipRequired,
	PayloadTooLarge,
	SessionExpired,
	SessionRevoked,
	TooManyRequests,
	UnattachedUploadLimitReached,
	UploadDailyLimitReached,
} from '@/lib/result-codes';
import { IMAGE_MAX_BYTES, IMAGE_MAX_SIZE_LABEL } from '@/schemas/post-limits';
import type { EditorTexts } from './texts';

/** The label the editor's message names (the limit is src/schemas/post-limits.ts's, the server's own). */
export { IMAGE_MAX_SIZE_LABEL };

/** The types the server reads; a file of another (known) type is refused before it is sent. */
export const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] as const;

/** Why a file is refused before any upload, or null when it may go. An unknown type goes: the server sniffs the bytes. */
export function imageFileProblem(file: File): 'invalid' | 'too-large' | null {
	if (file.type !== '' && !(IMAGE_TYPES as readonly string[]).includes(file.type)) return 'invalid';
	if (file.size === 0) return 'invalid';
	if (file.size > IMAGE_MAX_BYTES) return 'too-large';
	return null;
}

function parse(text: string): unknown {
	try {
		return text ? JSON.parse(text) : null;
	} catch {
		return null;
	}
}

export interface UploadOptions {
	userId?: string | null | undefined;
	onProgress?: (loaded: number, total: number) => void;
	signal?: AbortSignal;
}

/** POSTs the image's bytes to the channel's uploads route (XMLHttpRequest, for the progress), then its thumbnail. */
export function uploadImage(channel: ChannelRef, file: File, { userId, onProgress, signal }: UploadOptions = {}): Promise<UploadedImage> {
	return new Promise((resolve, reject) => {
		const request = new XMLHttpRequest();
		request.open('POST', apiUrl(channel, 'member', '/uploads'));
		request.withCredentials = true;
		request.responseType = 'text';
		request.setRequestHeader('Accept', 'application/json');
		request.setRequestHeader('Content-Type', (IMAGE_TYPES as readonly string[]).includes(file.type) ? file.type : 'application/octet-stream');
		if (userId) request.setRequestHeader(USER_ID_HEADER, userId);
		request.upload.onprogress = (event) => onProgress?.(event.loaded, event.lengthComputable ? event.total : file.size);
		request.onload = () => {
			const body = parse(request.responseText);
			if (request.status < 200 || request.status >= 300) {
				reject(new FetchError(request.status, request.statusText, body));
				return;
			}
			const envelope = body as { header?: EnvelopeHeader; content?: UploadedImage } | null;
			if (envelope?.header && !envelope.header.isSuccessful) {
				reject(new ResponseError(envelope.header, body));
				return;
			}
			const content = envelope?.content;
			if (!content || typeof content.src !== 'string') {
				reject(new FetchError(request.status, 'Unexpected answer', body));
				return;
			}
			resolve(content);
			// The small picture post lists show (docs/reference/thumbnails.md), made and sent after the original;
			// its code is a chunk of its own, loaded only now.
			void import('./thumbnail').then((thumbnail) => thumbnail.sendThumbnail(channel, file, content.src));
		};
		request.onerror = () => reject(new TypeError('The upload did not reach the server.'));
		request.onabort = () => reject(new DOMException('The upload was cancelled.', 'AbortError'));
		signal?.addEventListener('abort', () => request.abort(), { once: true });
		request.send(file);
	});
}

/** Codes after which the form, not the editor, takes over (the forced login and ban of docs/reference/product-rules.md#errors-and-texts). */
const AUTH_CODES = new Set<number>(
	[LoginRequired, SessionExpired, MembershipRequired, SessionRevoked, IdentityRejected, Banned].map((def) => def.code),
);

/** The editor's text for each refusal of an upload (the limits they name filled in on the server); any other failure is the generic error. */
const UPLOAD_PROBLEMS: Record<number, keyof EditorTexts> = {
	[InvalidImage.code]: 'editor.message.invalidImage',
	[ImageResolutionTooHigh.code]: 'editor.message.imageResolution',
	[UploadDailyLimitReached.code]: 'editor.message.uploadDailyLimit',
	[UnattachedUploadLimitReached.code]: 'editor.message.unattachedLimit',
	[TooManyRequests.code]: 'common.message.tooManyRequests',
};

/** What a failed upload means to the editor: the form's forced login or ban ('auth'), a file too large, or the text to show. */
export function uploadFailure(error: unknown): 'auth' | 'too-large' | keyof EditorTexts {
	const code = resultCodeOf(error);
	if (code !== undefined && AUTH_CODES.has(code)) return 'auth';
	if (code === ImageTooLarge.code || code === PayloadTooLarge.code || (error as { status?: number }).status === 413) return 'too-large';
	return UPLOAD_PROBLEMS[code ?? 0] ?? 'common.message.error';
}

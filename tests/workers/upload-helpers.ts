/** What the upload and thumbnail tests share: an upload stored through the service, and R2's object count. */
import { env } from 'cloudflare:workers';
import { uploadKeyOf } from '@/schemas/content';
import { storeUpload } from '@/server/uploads/uploads';
import { GLOBAL } from './harness';
import * as images from '../fixtures/images';

/** Stores an image as `memberId` through the service, `ageMs` ago, with its R2 key beside its answer. */
export async function storedUpload(memberId: number, channelId = GLOBAL.id, ageMs = 0, bytes: Uint8Array = images.PNG) {
	const upload = await storeUpload(env.DB, env.UPLOADS, channelId, memberId, bytes, Date.now() - ageMs);
	return { ...upload, key: uploadKeyOf(upload.src) ?? '' };
}

/** How many objects the uploads bucket holds, page by page. */
export async function objectCount(): Promise<number> {
	let count = 0;
	let cursor: string | undefined;
	do {
		const listed = await env.UPLOADS.list(cursor ? { cursor } : {});
		count += listed.objects.length;
		cursor = listed.truncated ? listed.cursor : undefined;
	} while (cursor);
	return count;
}

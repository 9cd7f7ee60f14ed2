/**
 * The member's avatar in My Page → Settings (docs/reference/avatars.md): the picture as everyone
 * sees it, Choose a picture and Remove picture. A picked JPEG, PNG, WebP or GIF (its first frame) is
 * checked against the upload limits (bytes, then pixels, as the editor checks), then cropped to a
 * square in a dialog: drag the picture or use the arrow keys to place it, zoom with the slider or
 * + and −. Use this picture makes the stored sizes in the browser and sends them (./avatar-image.ts,
 * loaded on that first use).
 */
import { useEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { resultCodeOf } from '@/lib/api-client';
import { AvatarDailyLimitReached, ImageResolutionTooHigh, InvalidAvatar, TooManyRequests } from '@/lib/result-codes';
import { IMAGE_MAX_BYTES, IMAGE_MAX_MEGAPIXELS, IMAGE_MAX_SIDE } from '@/schemas/post-limits';
import { generatedAvatarSvg } from '@/lib/avatars';
import { accountApi } from './api';
import { centredCrop, cropSquare, dragCrop, keyCrop, clampCrop, MAX_ZOOM, type Crop } from './avatar-crop';
import type { AvatarTexts } from './texts';

interface Props {
	domain: string;
	slug: string;
	userId: number;
	/** The stable URL of the member's avatar at its profile size. */
	src: string;
	/** Whether a picture is set (Remove is offered). */
	hasPicture: boolean;
	texts: AvatarTexts;
}

/**
 * What the form shows as the member's avatar: the stable URL as the page was made, then, after a
 * change in this page, the new picture drawn on a canvas or the generated pattern inline (the pages'
 * img-src allows no blob: URL, and an <img> of the same URL would keep the picture it loaded first).
 */
type Shown = { kind: 'url' } | { kind: 'picture'; picture: ImageBitmap } | { kind: 'generated' };

/** The crop view's side in canvas pixels (drawn at twice its CSS size for sharpness). */
const VIEW_PIXELS = 480;

/** The text of a refusal of the API. */
function refusalText(error: unknown, texts: AvatarTexts): string {
	const code = resultCodeOf(error);
	if (code === AvatarDailyLimitReached.code) return texts['avatar.message.dailyLimit'];
	if (code === InvalidAvatar.code) return texts['avatar.message.invalid'];
	if (code === ImageResolutionTooHigh.code) return texts['editor.message.imageResolution'];
	if (code === TooManyRequests.code) return texts['common.message.tooManyRequests'];
	return texts['common.message.error'];
}

/** The picture of `file`, upright and first frame; or the text of why it cannot be one. */
async function pictureOf(file: File, texts: AvatarTexts): Promise<ImageBitmap | string> {
	if (file.size > IMAGE_MAX_BYTES) return texts['editor.message.imageTooLarge'];
	let bitmap: ImageBitmap;
	try {
		bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' });
	} catch {
		return texts['avatar.message.invalid'];
	}
	if (bitmap.width > IMAGE_MAX_SIDE || bitmap.height > IMAGE_MAX_SIDE || bitmap.width * bitmap.height > IMAGE_MAX_MEGAPIXELS * 1_000_000) {
		bitmap.close();
		return texts['editor.message.imageResolution'];
	}
	return bitmap;
}

export default function AvatarForm({ domain, slug, userId, src, hasPicture, texts }: Props) {
	const [shown, setShown] = useState<Shown>({ kind: 'url' });
	const [set, setSet] = useState(hasPicture);
	const [busy, setBusy] = useState(false);
	const [status, setStatus] = useState<{ text: string; failed: boolean } | null>(null);
	const [picture, setPicture] = useState<ImageBitmap | null>(null);
	const [crop, setCrop] = useState<Crop>({ x: 0, y: 0, zoom: 1 });
	const fileRef = useRef<HTMLInputElement>(null);
	const dialogRef = useRef<HTMLDialogElement>(null);
	const canvasRef = useRef<HTMLCanvasElement>(null);
	const dragRef = useRef<{ x: number; y: number } | null>(null);
	const currentRef = useRef<HTMLCanvasElement>(null);
	// The server's markup has no handler yet: Choose is enabled once the island listens, so an early pick is not lost.
	const [listening, setListening] = useState(false);
	useEffect(() => setListening(true), []);

	useEffect(() => {
		const context = currentRef.current?.getContext('2d');
		if (shown.kind === 'picture' && context) context.drawImage(shown.picture, 0, 0, 256, 256);
	}, [shown]);

	// The crop view: the square drawn, and the circle the avatar shows outside it dimmed.
	useEffect(() => {
		const canvas = canvasRef.current;
		const context = canvas?.getContext('2d');
		if (!canvas || !context || !picture) return;
		const { left, top, side } = cropSquare(picture.width, picture.height, crop);
		context.clearRect(0, 0, VIEW_PIXELS, VIEW_PIXELS);
		context.drawImage(picture, left, top, side, side, 0, 0, VIEW_PIXELS, VIEW_PIXELS);
		context.fillStyle = 'rgba(0, 0, 0, 0.45)';
		context.beginPath();
		context.rect(0, 0, VIEW_PIXELS, VIEW_PIXELS);
		context.arc(VIEW_PIXELS / 2, VIEW_PIXELS / 2, VIEW_PIXELS / 2, 0, Math.PI * 2, true);
		context.fill();
	}, [picture, crop]);

	const close = () => {
		dialogRef.current?.close();
		picture?.close();
		setPicture(null);
	};

	const pick = async (file: File | undefined) => {
		if (fileRef.current) fileRef.current.value = '';
		if (!file) return;
		setStatus(null);
		const opened = await pictureOf(file, texts);
		if (typeof opened === 'string') {
			setStatus({ text: opened, failed: true });
			return;
		}
		setPicture(opened);
		setCrop(centredCrop(opened.width, opened.height));
		dialogRef.current?.showModal();
	};

	const save = async () => {
		if (!picture) return;
		setBusy(true);
		setStatus({ text: texts['avatar.saving'], failed: false });
		try {
			const { saveAvatar } = await import('./avatar-image');
			const image = await saveAvatar({ domain, slug }, userId, picture, cropSquare(picture.width, picture.height, crop));
			setShown({ kind: 'picture', picture: await createImageBitmap(image) });
			setSet(true);
			setStatus({ text: texts['avatar.saved'], failed: false });
			close();
		} catch (error) {
			setStatus({ text: refusalText(error, texts), failed: true });
		} finally {
			setBusy(false);
		}
	};

	const remove = async () => {
		setBusy(true);
		setStatus(null);
		try {
			await accountApi(domain, slug).delete('/me/avatar', {});
			const { refreshCopies } = await import('./avatar-image');
			await refreshCopies({ domain, slug }, userId);
			setShown({ kind: 'generated' });
			setSet(false);
			setStatus({ text: texts['avatar.removed'], failed: false });
		} catch (error) {
			setStatus({ text: refusalText(error, texts), failed: true });
		} finally {
			setBusy(false);
		}
	};

	const onPointerDown = (event: PointerEvent<HTMLCanvasElement>) => {
		event.currentTarget.setPointerCapture(event.pointerId);
		dragRef.current = { x: event.clientX, y: event.clientY };
	};
	const onPointerMove = (event: PointerEvent<HTMLCanvasElement>) => {
		const last = dragRef.current;
		if (!last || !picture) return;
		dragRef.current = { x: event.clientX, y: event.clientY };
		const viewSide = event.currentTarget.getBoundingClientRect().width;
		setCrop((current) => dragCrop(picture.width, picture.height, current, event.clientX - last.x, event.clientY - last.y, viewSide));
	};
	const onKeyDown = (event: KeyboardEvent<HTMLCanvasElement>) => {
		if (!picture) return;
		const next = keyCrop(picture.width, picture.height, crop, event.key);
		if (!next) return;
		event.preventDefault();
		setCrop(next);
	};

	return (
		<div className="avatar-form" data-avatar-form>
			{shown.kind === 'url' && <img className="avatar avatar-current" src={src} alt="" width="96" height="96" data-avatar-current />}
			{shown.kind === 'picture' && <canvas ref={currentRef} className="avatar avatar-current" width="256" height="256" data-avatar-current />}
			{shown.kind === 'generated' && (
				<span className="avatar avatar-current" dangerouslySetInnerHTML={{ __html: generatedAvatarSvg(userId) }} data-avatar-current />
			)}
			<div className="avatar-actions">
				<input
					ref={fileRef}
					className="visually-hidden"
					type="file"
					accept="image/jpeg,image/png,image/webp,image/gif"
					tabIndex={-1}
					aria-hidden="true"
					onChange={(event) => void pick(event.target.files?.[0])}
					data-avatar-file
				/>
				<button className="button secondary" type="button" disabled={busy || !listening} onClick={() => fileRef.current?.click()} data-avatar-choose>
					{texts['avatar.choose']}
				</button>
				{set && (
					<button className="button secondary" type="button" disabled={busy} onClick={() => void remove()} data-avatar-remove>
						{texts['avatar.remove']}
					</button>
				)}
				<p className={status?.failed ? 'form-error' : 'avatar-status'} role="status" data-avatar-status>
					{status?.text}
				</p>
			</div>
			<dialog
				ref={dialogRef}
				className="dialog-panel avatar-dialog"
				aria-labelledby="avatar-crop-title"
				aria-describedby="avatar-crop-hint"
				onClose={close}
			>
				<h2 id="avatar-crop-title">{texts['avatar.crop.title']}</h2>
				<p id="avatar-crop-hint">{texts['avatar.crop.hint']}</p>
				<canvas
					ref={canvasRef}
					className="avatar-crop"
					width={VIEW_PIXELS}
					height={VIEW_PIXELS}
					tabIndex={0}
					role="img"
					aria-label={texts['avatar.crop.area']}
					onPointerDown={onPointerDown}
					onPointerMove={onPointerMove}
					onPointerUp={() => (dragRef.current = null)}
					onPointerCancel={() => (dragRef.current = null)}
					onKeyDown={onKeyDown}
					data-avatar-crop
				/>
				<label className="avatar-zoom">
					<span>{texts['avatar.crop.zoom']}</span>
					<input
						type="range"
						min="1"
						max={MAX_ZOOM}
						step="0.01"
						value={crop.zoom}
						onChange={(event) => picture && setCrop(clampCrop(picture.width, picture.height, { ...crop, zoom: Number(event.target.value) }))}
						data-avatar-zoom
					/>
				</label>
				<div className="dialog-actions">
					<button className="button secondary" type="button" onClick={close}>
						{texts['common.button.cancel']}
					</button>
					<button className="button" type="button" disabled={busy} aria-busy={busy} onClick={() => void save()} data-avatar-save>
						{texts['avatar.crop.save']}
					</button>
				</div>
			</dialog>
		</div>
	);
}

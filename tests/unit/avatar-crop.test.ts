/** The square crop of an avatar (src/islands/account/avatar-crop.ts, docs/reference/avatars.md). */
import { describe, expect, it } from 'vitest';
import { centredCrop, clampCrop, cropSquare, dragCrop, keyCrop, MAX_ZOOM } from '@/islands/account/avatar-crop';
import { avatarImage, avatarUrl, generatedAvatarSvg } from '@/lib/avatars';

describe('the avatar crop', () => {
	it('starts centred on the shorter side', () => {
		expect(cropSquare(1200, 600, centredCrop(1200, 600))).toEqual({ left: 300, top: 0, side: 600 });
		expect(cropSquare(400, 1000, centredCrop(400, 1000))).toEqual({ left: 0, top: 300, side: 400 });
	});

	it('never leaves the picture: arrow keys stop at its edge', () => {
		let crop = centredCrop(1200, 600);
		for (let i = 0; i < 20; i += 1) crop = keyCrop(1200, 600, crop, 'ArrowRight') ?? crop;
		expect(cropSquare(1200, 600, crop)).toEqual({ left: 600, top: 0, side: 600 });
		// The first press back moves at once (the centre was kept where the square can be).
		const back = keyCrop(1200, 600, crop, 'ArrowLeft');
		expect(cropSquare(1200, 600, back!).left).toBe(540);
	});

	it('zooms between 1 and MAX_ZOOM with + and −, and a drag moves the picture with the pointer', () => {
		let crop = centredCrop(800, 800);
		for (let i = 0; i < 20; i += 1) crop = keyCrop(800, 800, crop, '+') ?? crop;
		expect(crop.zoom).toBe(MAX_ZOOM);
		expect(cropSquare(800, 800, crop).side).toBe(200);
		// Dragging the picture 120 CSS px right over a 240 px view shows what was left of it: the centre moves left by half a square.
		const dragged = dragCrop(800, 800, crop, 120, 0, 240);
		expect(dragged.x).toBe(300);
		expect(clampCrop(800, 800, { ...crop, zoom: 0.2 }).zoom).toBe(1);
		expect(keyCrop(800, 800, crop, 'a')).toBeNull();
	});
});

describe('the avatar URL and the generated pattern', () => {
	it('is one stable URL per member and size, the size chosen for the box at 3×', () => {
		expect(avatarUrl('/starfall/global', 12, 96)).toBe('/starfall/global/avatars/12?s=96');
		expect(avatarImage('/starfall/global', 12, 28)).toEqual({ src: '/starfall/global/avatars/12?s=96', width: 28, height: 28 });
		expect(avatarImage('/starfall/global', 12, 72).src).toBe('/starfall/global/avatars/12?s=256');
	});

	it('draws a mirrored pattern, the same for a member every time', () => {
		const svg = generatedAvatarSvg(1004);
		expect(svg).toBe(generatedAvatarSvg(1004));
		expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
		expect(new Set([1, 2, 3, 4, 5, 6, 7, 8].map(generatedAvatarSvg)).size).toBe(8);
	});
});

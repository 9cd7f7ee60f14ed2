/**
 * A new member's limit of images and videos in one post (docs/reference/uploads.md, docs/reference/spam-defence.md),
 * on a phone: the write screen says it beside the image button before anything is uploaded, in the
 * community's language and in the plural form its count takes; an image or a video past it is
 * refused at once, with nothing sent to the server, which keeps its own check at Publish. Pixel
 * Farm (English, dark) on a phone and a desktop, and Starfall Korea on a phone, each with a member
 * made for the test. On a phone the toolbar is one row scrolled sideways, so the note is the line
 * under it; on a desktop it stands beside the image and video buttons.
 */
import { expect, test } from './test';
import { execute } from './fixtures';
import { boardOf, community, signInFreshMember } from './write-helpers';
import { PNG } from '../fixtures/images';

const ENGLISH = {
	path: '/pixelfarm/main',
	note: '1 image or video per post for new members',
	refused: 'As a new member, you can add up to 1 image or video to a post for now, so this one was not added.',
};
const KOREAN = {
	path: '/starfall/kr',
	note: '신규 회원은 게시글당 이미지·동영상 1개까지',
	refused: '신규 회원은 당분간 게시글에 이미지나 동영상을 1개까지 넣을 수 있어 추가하지 않았습니다.',
};
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1440, height: 900 };

for (const [{ path, note, refused }, size] of [
	[ENGLISH, PHONE],
	[ENGLISH, DESKTOP],
	[KOREAN, PHONE],
] as const) {
	test(`in ${path} at ${size.width}×${size.height}, the limit is said before any upload, and a second image or a video is refused at once`, async ({
		page,
	}) => {
		await page.setViewportSize(size);
		const channel = await community(path);
		const write = `${path}/write?boardId=${boardOf(channel, 'general')}`;
		const memberId = await signInFreshMember(page, channel, 'Sprout', write, Date.now());
		const uploads: string[] = [];
		page.on('request', (request) => {
			if (request.method() === 'POST' && request.url().endsWith('/uploads')) uploads.push(request.url());
		});
		await expect(page.locator('[data-rich-editor="ready"] [contenteditable="true"]')).toBeVisible();

		// Before any upload: the note, which describes the image button, on screen.
		const limit = page.locator('[data-media-limit]').filter({ visible: true });
		const imageButton = page.locator('.editor-tool[data-action="image"]');
		await expect(limit).toHaveText(note);
		const described = (await imageButton.getAttribute('aria-describedby'))!;
		await expect(page.locator(`[id="${described}"]`)).toHaveText(note);
		const noteBox = (await limit.boundingBox())!;
		expect(noteBox.x).toBeGreaterThanOrEqual(0);
		expect(noteBox.x + noteBox.width).toBeLessThanOrEqual(size.width);
		expect(noteBox.y + noteBox.height).toBeLessThanOrEqual(size.height);
		if (size === PHONE) {
			// The line right under the toolbar, above the text.
			const [toolbar, text] = [(await page.locator('.editor-toolbar').boundingBox())!, (await page.locator('.editor-content').boundingBox())!];
			expect(noteBox.y).toBeGreaterThanOrEqual(toolbar.y + toolbar.height - 1);
			expect(noteBox.y + noteBox.height).toBeLessThanOrEqual(text.y + 1);
		} else {
			// Beside the image button: on its row, to its right.
			const buttonBox = (await imageButton.boundingBox())!;
			expect(noteBox.x).toBeGreaterThanOrEqual(buttonBox.x + buttonBox.width);
			expect(noteBox.y).toBeLessThan(buttonBox.y + buttonBox.height);
			expect(noteBox.y + noteBox.height).toBeGreaterThan(buttonBox.y);
		}

		const body = page.locator('.editor-content');
		const input = page.locator('input[data-editor-file-input]');
		const message = page.locator('.editor-message[role="alert"]');
		await input.setInputFiles({ name: 'first.png', mimeType: 'image/png', buffer: Buffer.from(PNG) });
		await expect(body.locator('img[src^="/uploads/"]')).toHaveCount(1);
		await expect(message).toHaveCount(0);

		// The second is refused before it is sent.
		await input.setInputFiles({ name: 'second.png', mimeType: 'image/png', buffer: Buffer.from(PNG) });
		await expect(message.locator('span')).toHaveText(refused);
		await expect(body.locator('img[src^="/uploads/"]')).toHaveCount(1);
		expect(uploads).toHaveLength(1);

		// A video counts too.
		await page.locator('.editor-tool[data-action="youtube"]').click();
		const dialog = page.locator('dialog[data-editor-dialog="youtube"]');
		await dialog.getByRole('textbox').fill('https://youtu.be/dQw4w9WgXcQ');
		await dialog.getByRole('textbox').press('Enter');
		await expect(dialog.getByRole('alert')).toHaveText(refused);
		await page.keyboard.press('Escape');
		await expect(body.locator('.editor-video')).toHaveCount(0);

		// A member past the new-member period has no such limit, and no note.
		execute(`UPDATE members SET joined_at = ${Date.now() - 90 * 86_400_000} WHERE id = ${memberId}`);
		await page.goto(write);
		await expect(page.locator('[data-rich-editor="ready"] [contenteditable="true"]')).toBeVisible();
		await expect(page.locator('[data-media-limit]')).toHaveCount(0);
	});
}

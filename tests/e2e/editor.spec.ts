/**
 * The rich-text editor on the write page, in Chromium: formatting by toolbar and shortcut, undo and
 * redo, paste from Word and Google Docs, IME composition with Enter, the link and YouTube dialogs
 * (keyboard only too), and the image checks and messages.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './test';
import { signInAsDemoMember } from './sign-in-helpers';

const CHANNEL = '/starfall/global';
const WRITE = `${CHANNEL}/write?boardId=12`;

async function openEditor(page: Page) {
	await signInAsDemoMember(page, CHANNEL, WRITE);
	const content = page.locator('.editor-content[contenteditable="true"]');
	await expect(content).toBeVisible();
	await content.click();
	return content;
}

const mod = process.platform === 'darwin' ? 'Meta' : 'Control';

async function paste(page: Page, data: Record<string, string>) {
	await page.locator('.editor-content').evaluate((element, entries) => {
		const transfer = new DataTransfer();
		for (const [type, value] of Object.entries(entries)) transfer.setData(type, value);
		element.dispatchEvent(new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true }));
	}, data);
}

test.describe('the rich-text editor', () => {
	test.slow();

	test('formats with the toolbar and the shortcuts, and undoes and redoes', async ({ page }) => {
		const content = await openEditor(page);
		await page.keyboard.type('Plain ');
		await page.keyboard.press(`${mod}+b`);
		await page.keyboard.type('bold');
		await page.keyboard.press(`${mod}+b`);
		await page.keyboard.type(' ');
		await page.keyboard.press(`${mod}+Shift+x`);
		await page.keyboard.type('struck');
		await page.keyboard.press(`${mod}+Shift+x`);
		await expect(content.locator('.editor-bold')).toHaveText('bold');
		await expect(content.locator('.editor-strike')).toHaveText('struck');

		// Select "Plain" and make it italic and underlined from the toolbar.
		await page.keyboard.press('Home');
		for (let index = 0; index < 5; index++) await page.keyboard.press('Shift+ArrowRight');
		const italic = page.getByRole('button', { name: 'Italic' });
		await italic.click();
		await expect(italic).toHaveAttribute('aria-pressed', 'true');
		await page.getByRole('button', { name: 'Underline' }).click();
		await expect(content.locator('.editor-italic')).toHaveText('Plain');

		await page.keyboard.press('End');
		// The editor has taken the caret's move (after "struck", not italic) before Enter splits the line.
		await expect(italic).toHaveAttribute('aria-pressed', 'false');
		await page.keyboard.press('Enter');
		await page.getByRole('button', { name: 'H2 Heading', exact: true }).click();
		await page.keyboard.type('A heading');
		await expect(content.locator('h2')).toHaveText('A heading');
		await expect(page.getByRole('button', { name: 'H2 Heading', exact: true })).toHaveAttribute('aria-pressed', 'true');
		await page.keyboard.press('Enter');
		await page.getByRole('button', { name: 'Bulleted list' }).click();
		await page.keyboard.type('one');
		await page.keyboard.press('Enter');
		await page.keyboard.type('two');
		await expect(content.locator('ul > li')).toHaveText(['one', 'two']);

		await page.keyboard.press(`${mod}+z`);
		await expect(content.locator('ul > li')).not.toHaveText(['one', 'two']);
		await page.keyboard.press(`${mod}+Shift+z`);
		await expect(content.locator('ul > li')).toHaveText(['one', 'two']);
		await page.getByRole('button', { name: 'Undo' }).click();
		await expect(content.locator('ul > li')).not.toHaveText(['one', 'two']);
		await page.getByRole('button', { name: 'Redo' }).click();
		await expect(content.locator('ul > li')).toHaveText(['one', 'two']);
	});

	test('keeps only what a post can hold when pasting from Word', async ({ page }) => {
		const content = await openEditor(page);
		const word = `<html xmlns:o="urn:schemas-microsoft-com:office:office" xmlns:w="urn:schemas-microsoft-com:office:word"><head><meta charset="utf-8"><style><!-- p.MsoNormal {margin:0cm; font-size:11.0pt; font-family:"Calibri",sans-serif;} --></style></head><body lang=EN-US style='tab-interval:36.0pt'><!--StartFragment-->
<h1 style='margin-top:12.0pt'><span lang=EN-US style='font-size:16.0pt;color:#2F5496'>Release notes<o:p></o:p></span></h1>
<p class=MsoNormal style='text-align:center'><b><span lang=EN-US style='font-family:"Comic Sans MS";color:red'>Important</span></b><span lang=EN-US> and <i>quiet</i> and <u>under</u> and <s>gone</s> <a href="https://example.com/notes">the notes</a> <a href="javascript:alert(1)">bad link</a><o:p></o:p></span></p>
<p class=MsoListParagraphCxSpFirst style='text-indent:-18.0pt;mso-list:l0 level1 lfo1'><![if !supportLists]><span lang=EN-US style='font-family:Symbol'><span style='mso-list:Ignore'>·<span style='font:7.0pt "Times New Roman"'>&nbsp;&nbsp;&nbsp; </span></span></span><![endif]><span lang=EN-US>First point<o:p></o:p></span></p>
<p class=MsoListParagraphCxSpLast style='text-indent:-18.0pt;mso-list:l0 level1 lfo1'><![if !supportLists]><span lang=EN-US style='font-family:Symbol'><span style='mso-list:Ignore'>·<span style='font:7.0pt "Times New Roman"'>&nbsp;&nbsp;&nbsp; </span></span></span><![endif]><span lang=EN-US>Second point<o:p></o:p></span></p>
<p class=MsoListParagraph style='text-indent:-18.0pt;mso-list:l1 level1 lfo2'><![if !supportLists]><span lang=EN-US><span style='mso-list:Ignore'>1.<span style='font:7.0pt "Times New Roman"'>&nbsp; </span></span></span><![endif]><span lang=EN-US>Numbered<o:p></o:p></span></p>
<p class=MsoNormal><img width=200 height=100 src="file:///C:/Users/me/AppData/Local/Temp/msohtmlclip1/01/clip_image001.png"><span lang=EN-US>After the picture<o:p></o:p></span></p>
<table class=MsoTableGrid border=1><tr><td><p class=MsoNormal>Cell A</p></td><td><p class=MsoNormal>Cell B</p></td></tr></table>
<!--EndFragment--></body></html>`;
		await paste(page, { 'text/html': word, 'text/plain': 'Release notes\nImportant and quiet …' });
		await expect(content.locator('h2')).toHaveText('Release notes');
		await expect(content.locator('.editor-bold')).toHaveText('Important');
		await expect(content.locator('.editor-italic')).toHaveText('quiet');
		await expect(content.locator('.editor-underline')).toHaveText('under');
		await expect(content.locator('.editor-strike')).toHaveText('gone');
		await expect(content.locator('a[href="https://example.com/notes"]')).toHaveText('the notes');
		await expect(content.getByText('bad link')).toBeVisible();
		await expect(content.locator('a[href^="javascript"]')).toHaveCount(0);
		await expect(content.locator('ul > li')).toHaveText(['First point', 'Second point']);
		await expect(content.locator('ol > li')).toHaveText(['Numbered']);
		await expect(content).toContainText('After the picture');
		await expect(content).toContainText('Cell A');
		// No picture from the member's disk or another host, no fonts, colours or alignment.
		await expect(content.locator('img')).toHaveCount(0);
		await expect(content.locator('[style]')).toHaveCount(0);
		await expect(content.locator('table, h1, font')).toHaveCount(0);
	});

	test('keeps only what a post can hold when pasting from Google Docs', async ({ page }) => {
		const content = await openEditor(page);
		const docs = `<meta charset="utf-8"><b style="font-weight:normal;" id="docs-internal-guid-7d1c2a3b-7fff-1e2f-33aa-0123456789ab"><h1 dir="ltr" style="line-height:1.38;margin-top:20pt;margin-bottom:6pt;"><span style="font-size:20pt;font-family:Arial,sans-serif;color:#000000;font-weight:400;">Guild rules</span></h1><p dir="ltr" style="line-height:1.38;margin-top:0pt;margin-bottom:0pt;text-align:center;"><span style="font-size:11pt;font-family:Arial,sans-serif;color:#000000;background-color:#ffff00;font-weight:700;">Be kind</span><span style="font-size:11pt;font-family:Arial,sans-serif;color:#000000;font-weight:400;"> and </span><span style="font-size:11pt;font-family:Arial,sans-serif;font-style:italic;">patient</span><span style="font-size:11pt;"> — see </span><a href="https://docs.google.com/document/d/abc" style="text-decoration:none;"><span style="font-size:11pt;color:#1155cc;text-decoration:underline;">the guide</span></a></p><ul style="margin-top:0;margin-bottom:0;padding-inline-start:48px;"><li dir="ltr" style="list-style-type:disc;font-size:11pt;" aria-level="1"><p dir="ltr" style="line-height:1.38;" role="presentation"><span style="font-size:11pt;">No cheating</span></p></li><li dir="ltr" style="list-style-type:disc;font-size:11pt;" aria-level="1"><p dir="ltr" style="line-height:1.38;" role="presentation"><span style="font-size:11pt;">No spam</span></p></li><ul style="margin-top:0;margin-bottom:0;padding-inline-start:48px;"><li dir="ltr" style="list-style-type:circle;font-size:11pt;" aria-level="2"><p dir="ltr" style="line-height:1.38;" role="presentation"><span style="font-size:11pt;">Nested rule</span></p></li></ul></ul><p dir="ltr" style="line-height:1.38;"><span style="font-size:11pt;"><span style="border:none;display:inline-block;overflow:hidden;width:200px;height:100px;"><img src="https://lh7-rt.googleusercontent.com/docsz/AD_4nXabc" width="200" height="100" style="margin-left:0px;margin-top:0px;"></span></span></p></b>`;
		await paste(page, { 'text/html': docs, 'text/plain': 'Guild rules\nBe kind and patient' });
		await expect(content.locator('h2')).toHaveText('Guild rules');
		await expect(content.locator('.editor-bold')).toHaveText('Be kind');
		await expect(content.locator('.editor-italic')).toHaveText('patient');
		await expect(content.locator('a[href="https://docs.google.com/document/d/abc"]')).toHaveText('the guide');
		// The nested rule joins the one list: a post's lists have one level.
		await expect(content.locator('ul > li')).toHaveText(['No cheating', 'No spam', 'Nested rule']);
		await expect(content.locator('ul ul')).toHaveCount(0);
		await expect(content.locator('img')).toHaveCount(0);
		await expect(content.locator('[style]')).toHaveCount(0);
	});

	test('composes with an IME without Enter splitting the block, then Enter splits as usual', async ({ page }) => {
		const content = await openEditor(page);
		const cdp = await page.context().newCDPSession(page);
		await cdp.send('Input.imeSetComposition', { text: 'に', selectionStart: 1, selectionEnd: 1 });
		await cdp.send('Input.imeSetComposition', { text: 'にほ', selectionStart: 2, selectionEnd: 2 });
		// The Enter that confirms a conversion arrives as keyCode 229 while composing.
		await cdp.send('Input.dispatchKeyEvent', {
			type: 'rawKeyDown',
			key: 'Enter',
			code: 'Enter',
			windowsVirtualKeyCode: 229,
			nativeVirtualKeyCode: 229,
		});
		await cdp.send('Input.insertText', { text: '日本' });
		await cdp.send('Input.dispatchKeyEvent', { type: 'keyUp', key: 'Enter', code: 'Enter', windowsVirtualKeyCode: 13 });
		await expect(content).toHaveText('日本');
		await expect(content.locator('p')).toHaveCount(1);
		await cdp.send('Input.imeSetComposition', { text: '한', selectionStart: 1, selectionEnd: 1 });
		await cdp.send('Input.insertText', { text: '한' });
		await expect(content.locator('p')).toHaveText(['日本한']);
		await page.keyboard.press('Enter');
		await page.keyboard.type('next');
		await expect(content.locator('p')).toHaveText(['日本한', 'next']);
	});

	test('the link dialog refuses javascript: and links the selection, all by keyboard', async ({ page }) => {
		const content = await openEditor(page);
		await page.keyboard.type('read this');
		await page.keyboard.press('Shift+Home');
		await page.keyboard.press(`${mod}+k`);
		const dialog = page.locator('dialog[data-editor-dialog="link"]');
		await expect(dialog).toBeVisible();
		const field = dialog.getByRole('textbox');
		await expect(field).toBeFocused();
		await field.fill('javascript:alert(document.cookie)');
		await page.keyboard.press('Enter');
		await expect(dialog.getByRole('alert')).toHaveText('Please enter a valid URL.');
		await expect(dialog).toBeVisible();
		await field.fill('example.com/guide');
		await page.keyboard.press('Enter');
		await expect(dialog).toBeHidden();
		await expect(content.locator('a')).toHaveAttribute('href', 'https://example.com/guide');
		await expect(content.locator('a')).toHaveText('read this');

		// Escape closes the dialog and gives focus back.
		await page.getByRole('button', { name: 'Remove link' }).focus();
		await page.keyboard.press('Enter');
		await expect(dialog).toBeVisible();
		await page.keyboard.press('Escape');
		await expect(dialog).toBeHidden();
		await expect(page.getByRole('button', { name: 'Remove link' })).toBeFocused();
	});

	test('the YouTube dialog takes a video link by keyboard and refuses anything else', async ({ page }) => {
		const content = await openEditor(page);
		await page.keyboard.type('Watch:');
		// The toolbar is one tab stop; arrows move inside it.
		await page.getByRole('button', { name: 'Bold' }).focus();
		await page.keyboard.press('End');
		await page.keyboard.press('ArrowLeft');
		await page.keyboard.press('ArrowLeft');
		const button = page.getByRole('button', { name: 'Insert YouTube video' });
		await expect(button).toBeFocused();
		await page.keyboard.press('Enter');
		const dialog = page.locator('dialog[data-editor-dialog="youtube"]');
		await expect(dialog).toBeVisible();
		await page.keyboard.type('https://vimeo.com/123456');
		await page.keyboard.press('Enter');
		await expect(dialog.getByRole('alert')).toHaveText('Please enter a valid URL.');
		// Tab stays inside the modal dialog.
		for (let index = 0; index < 4; index++) {
			await page.keyboard.press('Tab');
			expect(await page.evaluate(() => Boolean(document.activeElement?.closest('dialog')) || document.activeElement === document.body)).toBe(true);
		}
		await dialog.getByRole('textbox').fill('https://youtu.be/dQw4w9WgXcQ?t=42');
		await dialog.getByRole('textbox').press('Enter');
		await expect(dialog).toBeHidden();
		await expect(content.locator('.editor-video [data-video-id]')).toHaveText('dQw4w9WgXcQ');
		await expect(content.locator('iframe')).toHaveCount(0);

		// The card is deleted by its button or by the keyboard once selected.
		await content.locator('.editor-video').click();
		await expect(content.locator('.editor-video')).toHaveAttribute('data-selected', 'true');
		await page.keyboard.press('Backspace');
		await expect(content.locator('.editor-video')).toHaveCount(0);
		await expect(content).toContainText('Watch:');
	});

	test('checks images before uploading and shows the server’s answers beside the editor', async ({ page }) => {
		await openEditor(page);
		const input = page.locator('input[data-editor-file-input]');
		const message = page.locator('.editor-message[role="alert"]');
		await input.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not an image') });
		await expect(message).toContainText('Invalid image.');
		await input.setInputFiles({ name: 'huge.png', mimeType: 'image/png', buffer: Buffer.alloc(10 * 1024 * 1024 + 1) });
		await expect(message).toContainText('Please upload an image that is no larger than 10MB.');
		await page.getByRole('button', { name: 'Dismiss' }).click();
		await expect(message).toHaveCount(0);
	});
});

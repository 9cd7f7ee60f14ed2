/**
 * The text controls' look (border, corner radius, padding) has one home, src/styles/global.css (the
 * .field and .control rules): no other stylesheet, nor a component's <style>, declares them again for
 * an input, a textarea, a select or a .control. A control that differs sets --control-height or
 * --control-padding on its own rule instead.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const HOME = 'src/styles/global.css';
/** A selector that styles a control: an input, textarea or select element, or the .control class. */
const CONTROL = /(?:^|[\s>+~(,])(?:input|textarea|select)(?![\w-])|\.control(?![\w-])/;
/** What only the home declares for a control. */
const LOOK = /^(?:border|padding)(?:-[\w-]+)?$/;

/** The stylesheets under src/: every .css file and the <style> of every .astro file. */
function stylesheets(): { file: string; css: string }[] {
	return readdirSync('src', { recursive: true, withFileTypes: true })
		.filter((entry) => entry.isFile() && /\.(?:css|astro)$/.test(entry.name))
		.map((entry) => path.join(entry.parentPath, entry.name).split(path.sep).join('/'))
		.map((file) => {
			const text = readFileSync(file, 'utf8');
			const css = file.endsWith('.css') ? text : [...text.matchAll(/<style\b[^>]*>([\s\S]*?)<\/style>/g)].map((match) => match[1]).join('\n');
			return { file, css };
		});
}

/** Each innermost rule of `css` (inside @media too) as its selector and its declared properties. */
function rules(css: string): { selector: string; properties: string[] }[] {
	const plain = css.replace(/\/\*[\s\S]*?\*\//g, '');
	return [...plain.matchAll(/([^{}]+)\{([^{}]*)\}/g)].map((match) => ({
		selector: match[1]!.trim(),
		properties: match[2]!
			.split(';')
			.map((declaration) => declaration.split(':')[0]!.trim())
			.filter(Boolean),
	}));
}

describe('the form controls', () => {
	const sheets = stylesheets();

	it('reads the stylesheets and finds the look at home', () => {
		expect(sheets.map((sheet) => sheet.file)).toEqual(
			expect.arrayContaining([HOME, 'src/styles/admin.css', 'src/components/post/comments.css', 'src/islands/editor/editor.css']),
		);
		const home = rules(sheets.find((sheet) => sheet.file === HOME)!.css);
		expect(home.some((rule) => CONTROL.test(rule.selector) && rule.properties.includes('border') && rule.properties.includes('padding'))).toBe(true);
	});

	it(`have one look, declared in ${HOME} only`, () => {
		const copies = sheets
			.filter((sheet) => sheet.file !== HOME)
			.flatMap((sheet) =>
				rules(sheet.css)
					.filter((rule) => CONTROL.test(rule.selector))
					.flatMap((rule) =>
						rule.properties.filter((property) => LOOK.test(property)).map((property) => `${sheet.file}: ${rule.selector} { ${property} }`),
					),
			);
		expect(copies).toEqual([]);
	});
});

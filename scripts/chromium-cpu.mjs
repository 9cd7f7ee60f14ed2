/**
 * `node scripts/chromium-cpu.mjs [--origin URL] [--rounds N] [--contexts N] -- "LABEL=SWITCHES" …`: Chromium's own CPU
 * for the same page loads under sets of switches, to screen candidates before the browser tests measure them
 * (scripts/e2e-cpu.mjs). Against a running test server (`node scripts/serve-test.mjs --port 8730 --idp-port 8731`),
 * each round launches the browser once per set, in turn (the order alternates, so every set sees the same load
 * from the rest of the machine), opens `--contexts` contexts, and in each loads a board, a post, search
 * results and the board again (the last at 390×844) and waits for the network to be idle. It counts the CPU
 * of the browser's process tree from /proc between the launch and the last load, with every context still
 * open (a renderer's CPU is lost when it exits), by process type, and prints each set's median.
 */
import { existsSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { chromium } from '@playwright/test';
import { processTimes } from './lib/cpu.mjs';

const { values, positionals } = parseArgs({
	options: {
		origin: { type: 'string', default: 'http://127.0.0.1:8730' },
		rounds: { type: 'string', default: '4' },
		contexts: { type: 'string', default: '4' },
	},
	allowPositionals: true,
});
const PAGES = ['/starfall/global/boards', '/starfall/global/posts/1', '/starfall/global/search?q=raid', '/starfall/global/boards'];
/** Switches apart by spaces; a value in double quotes may hold spaces (`--js-flags="--no-opt --no-maglev"`). */
const switchesOf = (text) => (text.match(/[^\s"]*"[^"]*"|\S+/g) ?? []).map((item) => item.replaceAll('"', ''));
const variants = (positionals.length > 0 ? positionals : ['base=']).map((text) => {
	const [label, ...rest] = text.split('=');
	return { label, args: switchesOf(rest.join('=')) };
});
// The browser and switches of playwright.config.ts (its TypeScript imports are not Node's to load).
const executablePath = process.env['CHROMIUM_PATH'] ?? ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].find((file) => existsSync(file));
const baseArgs = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

function typeOf(pid) {
	try {
		const text = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
		return /--type=(\S+)/.exec(text)?.[1] ?? 'browser';
	} catch {
		return 'gone';
	}
}

function treeByType(pid) {
	const byType = {};
	for (const [child, time] of processTimes(pid)) {
		if (child === pid) continue;
		const type = typeOf(child);
		byType[type] = (byType[type] ?? 0) + time.userMs + time.systemMs;
	}
	return byType;
}

async function measure(variant) {
	const browser = await chromium.launch({ executablePath, args: [...baseArgs, ...variant.args] });
	// The browser is this process's child (Playwright's driver runs in it); the one before it has ended.
	const pid = process.pid;
	// Let the launch settle: its own start is not what a test's page loads cost.
	await new Promise((resolve) => setTimeout(resolve, 500));
	const before = treeByType(pid);
	for (let index = 0; index < Number(values.contexts); index += 1) {
		const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
		const page = await context.newPage();
		for (const [step, url] of PAGES.entries()) {
			if (step === PAGES.length - 1) await page.setViewportSize({ width: 390, height: 844 });
			const response = await page.goto(values.origin + url);
			if (!response?.ok()) throw new Error(`${url}: ${response?.status()}`);
			await page.waitForLoadState('networkidle');
		}
	}
	const after = treeByType(pid);
	await browser.close();
	const byType = {};
	for (const [type, ms] of Object.entries(after)) byType[type] = (ms - (before[type] ?? 0)) / 1000;
	return byType;
}

const results = new Map(variants.map((variant) => [variant.label, []]));
for (let round = 0; round < Number(values.rounds); round += 1) {
	const order = round % 2 === 0 ? variants : [...variants].reverse();
	for (const variant of order) {
		const byType = await measure(variant);
		const total = Object.values(byType).reduce((sum, seconds) => sum + seconds, 0);
		results.get(variant.label)?.push({ total, byType });
		const parts = Object.entries(byType)
			.map(([type, seconds]) => `${type} ${seconds.toFixed(2)}`)
			.join(', ');
		console.log(`round ${round + 1} ${variant.label}: ${total.toFixed(2)} CPU-s (${parts})`);
	}
}
const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
console.log('\nmedian CPU-seconds of Chromium per set:');
for (const [label, runs] of results) {
	const types = [...new Set(runs.flatMap((run) => Object.keys(run.byType)))];
	const split = types.map((type) => `${type} ${median(runs.map((run) => run.byType[type] ?? 0)).toFixed(2)}`).join(', ');
	console.log(`  ${label}: ${median(runs.map((run) => run.total)).toFixed(2)} (${split}); all: ${runs.map((run) => run.total.toFixed(2)).join(' ')}`);
}

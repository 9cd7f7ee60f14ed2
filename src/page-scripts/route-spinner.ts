/** docs/reference/product-rules.md#limits: the loading spinner (MainLayout's `[data-route-spinner]`) appears only after 200 ms of route loading. */
export function showSpinnerWhileLoading(): void {
	const spinner = document.querySelector<HTMLElement>('[data-route-spinner]');
	let timer: number | undefined;
	const start = () => {
		window.clearTimeout(timer);
		timer = window.setTimeout(() => spinner && (spinner.hidden = false), 200);
	};
	const stop = () => {
		window.clearTimeout(timer);
		if (spinner) spinner.hidden = true;
	};
	document.addEventListener('click', (event) => {
		if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
		const link = (event.target as Element | null)?.closest('a');
		if (!link || link.target || link.hasAttribute('download')) return;
		const url = new URL(link.href, location.href);
		if (url.origin !== location.origin || (url.pathname === location.pathname && url.search === location.search)) return;
		// Decided after every listener has run: one of them may keep the link from navigating
		// (the login-required modal does), and then nothing is loading.
		setTimeout(() => event.defaultPrevented || start());
	});
	document.addEventListener('submit', (event) => {
		// A dialog's own form only closes the dialog; nothing loads.
		if ((event.target as HTMLFormElement | null)?.method === 'dialog') return;
		setTimeout(() => event.defaultPrevented || start());
	});
	window.addEventListener('pageshow', stop);
}

/**
 * `client:interact`: hydrates an island when the reader first points at, touches, focuses or types
 * in it. Until then the island is server-rendered HTML (a working form), and the page loads no
 * JavaScript for it.
 */
import type { ClientDirective } from 'astro';

const EVENTS = ['pointerover', 'touchstart', 'focusin', 'keydown'] as const;

const interact: ClientDirective = (load, _options, element) => {
	let started = false;
	const start = () => {
		if (started) return;
		started = true;
		for (const name of EVENTS) element.removeEventListener(name, start);
		void load().then((hydrate) => hydrate());
	};
	for (const name of EVENTS) element.addEventListener(name, start, { passive: true });
};

export default interact;

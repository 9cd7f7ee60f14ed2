/** Registers the project's client directives with Astro. */
import type { AstroIntegration } from 'astro';
import { fileURLToPath } from 'node:url';

export function clientDirectives(): AstroIntegration {
	return {
		name: 'community-board:client-directives',
		hooks: {
			'astro:config:setup': ({ addClientDirective }) => {
				addClientDirective({ name: 'interact', entrypoint: fileURLToPath(new URL('./interact.ts', import.meta.url)) });
			},
		},
	};
}

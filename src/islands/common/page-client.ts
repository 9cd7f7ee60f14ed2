/**
 * The API client of a page script: the page's channel, as the layout's route-error dialog
 * (RouteErrorDialog.astro) names it, and the signed-in member's user id (docs/reference/product-rules.md#api-calls).
 */
import { createApiClient, type ApiClient } from '@/lib/api-client';

/** The API client of this page's channel for the signed-in member `userId` (by default the one the dialog names). */
export function memberClient(userId?: string): ApiClient {
	const { domain = '', slug = '', userId: pageUserId = '' } = document.querySelector<HTMLElement>('[data-route-error-dialog]')?.dataset ?? {};
	return createApiClient({ channel: { domain, slug }, getUserId: () => userId ?? pageUserId });
}

/**
 * Where a member asks for a review of a hide or a ban (docs/reference/moderation.md#what-a-moderated-member-is-told):
 * the community file's `moderation.contact`, an email address or an https address. One rule for the
 * file's check and for the pages that link it.
 */
import { isHttpsUrl } from '@/lib/safe-url';

/** A plain email address: no spaces, angle brackets, quotes or a second @. */
const EMAIL = /^[^\s@<>"'()\\,;:]{1,64}@[a-z0-9-]+(\.[a-z0-9-]+)+$/i;

/** Whether `raw` is a contact a page may link: an email address or an https URL (200 characters at most). */
export function isModerationContact(raw: string): boolean {
	return raw.length <= 200 && (EMAIL.test(raw) || isHttpsUrl(raw));
}

/** The link of a contact: `mailto:` for an email address, the URL itself otherwise; null for none or an unsafe one. */
export function contactHref(contact: string | null): string | null {
	if (contact === null || !isModerationContact(contact)) return null;
	return EMAIL.test(contact) ? `mailto:${contact}` : contact;
}

/**
 * The Turnstile token of the page's widget (docs/spam-defence.md), when the page shows one: the
 * widget keeps it in a hidden `cf-turnstile-response` field. Undefined without a widget or before
 * the person passed the check (the server then answers ChallengeFailed when it asks for one).
 */
export const challengeToken = () => (document.querySelector<HTMLInputElement>('[name="cf-turnstile-response"]')?.value || undefined);

/**
 * The signed-in member's user id for the API client's header (docs/reference/product-rules.md#api-calls): a
 * banned member's too, so the API answers with the ban. src/stores/session.ts keeps it in step with
 * the session; the write screen, which loads no session sync, sets it itself. Its own module so the
 * editor's uploads read it without loading the session store.
 */
import { atom } from 'nanostores';

export const $userId = atom<string | null>(null);

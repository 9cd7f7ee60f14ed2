/**
 * Every page of the main layout (src/layouts/MainLayout.astro) runs this one module: the scripts of
 * the layout's parts in one file instead of one each (docs/decisions/performance.md: the guest's JavaScript).
 * Each part does nothing on a page without its element (a member's page has no login-required modal).
 */
import './header-menu';
import { showSpinnerWhileLoading } from './route-spinner';
import './search-box-loader';
import './session-status';
import './login-required';
import './toast-loader';

showSpinnerWhileLoading();
// A member's page (MainLayout's body mark, the same in its full render and its rewritten guest's page) loads the session's scripts.
if (document.body.hasAttribute('data-session-sync')) void import('./member-session');

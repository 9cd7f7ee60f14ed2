/**
 * A member's page only (src/page-scripts/layout.ts loads it where MainLayout marked the body
 * `data-session-sync`): the session shared between the page's islands and scripts
 * (session-sync.ts) and the bell's unread count (notification-bell.ts), in one module. A guest's
 * page, cached for everyone, loads none of it.
 */
import './session-sync';
import './notification-bell';

-- Email for replies and mentions (docs/reference/notifications.md#email; src/server/notifications/email.ts).
--
-- Off by default, and only to an address the member confirmed: no sign-in provider tells us one,
-- so the member types it in My Page → Settings, and a confirmation link goes there first (double
-- opt-in). Until it is followed, nothing else is sent to that address.
--
-- members.notification_email (0025) is the confirmed address, where email goes; NULL: email is off.
-- notification_email_pending is an address entered but not confirmed yet (the confirmation link
-- names it by a hash, and confirming moves it to notification_email). notification_email_confirmed_at
-- is when the member confirmed it: the record of their consent.
ALTER TABLE members ADD COLUMN notification_email_pending TEXT;
ALTER TABLE members ADD COLUMN notification_email_confirmed_at INTEGER;

-- The confirmation emails a member had sent: at most 3 in a window of 24 hours that starts with the
-- first (a count and the window's start in the member's own row, so the bound costs no rows).
ALTER TABLE members ADD COLUMN notification_email_sends INTEGER NOT NULL DEFAULT 0;
ALTER TABLE members ADD COLUMN notification_email_window INTEGER NOT NULL DEFAULT 0;

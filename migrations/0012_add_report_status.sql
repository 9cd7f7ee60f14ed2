-- The reports queue of the admin area: a report is OPEN until an administrator acts on
-- its target: RESOLVED when the target is hidden, DISMISSED when the reports are dismissed. Resolved
-- reports leave the queue and stay as its history, with who closed them and when.
ALTER TABLE reports ADD COLUMN status TEXT NOT NULL DEFAULT 'OPEN' CHECK (status IN ('OPEN', 'RESOLVED', 'DISMISSED'));
ALTER TABLE reports ADD COLUMN resolved_at INTEGER;
ALTER TABLE reports ADD COLUMN resolved_by INTEGER REFERENCES members (id);
-- The queue: a channel's open reports by target.
CREATE INDEX reports_open ON reports (channel_id, target_type, target_id) WHERE status = 'OPEN';
-- The history: a channel's closed reports, newest closed first.
CREATE INDEX reports_closed ON reports (channel_id, resolved_at) WHERE status <> 'OPEN';

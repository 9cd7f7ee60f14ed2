-- Upload quotas (src/server/uploads/uploads.ts).
--
-- One member's uploads of the last 24 hours, with their sizes, from one index: the quota's count
-- and bytes read these index entries alone (at most 100 of them), never the member's older uploads.
CREATE INDEX uploads_by_member_day ON uploads (member_id, created_at, size);

-- At most 100 uploads and 200 MB per member in any 24 hours (UPLOADS_PER_DAY and
-- UPLOAD_BYTES_PER_DAY of src/schemas/post-limits.ts), and at most 60 of those unshown by any post
-- or draft (UNATTACHED_UPLOADS_MAX), the day's limit checked first since posting does not lift it; a workers test keeps the numbers equal. An older unattached
-- upload is past its day and the hourly cleanup's to remove, so the window bounds both counts. The
-- check runs inside the INSERT's transaction, so racing uploads cannot both pass it; the upload's
-- R2 object is written only after its row (storeUpload), so a refusal writes nothing.
-- src/server/uploads/uploads.ts answers the aborts with their result codes.
CREATE TRIGGER uploads_quota BEFORE INSERT ON uploads
BEGIN
	SELECT RAISE(ABORT, 'UploadDailyLimitReached')
	FROM (SELECT count(*) AS n, total(size) AS bytes FROM uploads WHERE member_id = NEW.member_id AND created_at > NEW.created_at - 86400000)
	WHERE n >= 100 OR bytes + NEW.size > 209715200;
	SELECT RAISE(ABORT, 'UnattachedUploadLimitReached')
	WHERE (SELECT count(*) FROM uploads
	       WHERE member_id = NEW.member_id AND created_at > NEW.created_at - 86400000 AND post_id IS NULL AND draft_id IS NULL) >= 60;
END;

-- Security review, point 3: a report counts toward the automatic hide only when its writer's
-- membership was old enough when it was made (src/server/reports/reports.ts); a record of upheld
-- reports no longer stands in for the age, so the index that found one goes.
DROP INDEX IF EXISTS reports_upheld;
--
-- Security review, point 4: every claim also keeps its bare skeleton, the confusable skeleton
-- without the accents of alphabets and without invisible characters (src/lib/nickname-skeleton.ts),
-- and no two claims of a channel share one, so PixèlFarmTeam or PixelFarm + U+034F + Team cannot
-- be taken beside PixelFarmTeam. SQL cannot compute it: claims made before this migration keep NULL
-- (which the index lets repeat) until `npm run member -- skeletons` fills them in; new claims store
-- it on write.
ALTER TABLE nickname_claims ADD COLUMN nickname_bare_skeleton TEXT;
CREATE UNIQUE INDEX nickname_claims_by_bare_skeleton ON nickname_claims (channel_id, nickname_bare_skeleton);

-- Security review, point 3: a report counts toward the automatic hide only when its writer's
-- membership was old enough when it was made (src/server/reports/reports.ts); a record of upheld
-- reports no longer stands in for the age, so the index that found one goes.
DROP INDEX IF EXISTS reports_upheld;

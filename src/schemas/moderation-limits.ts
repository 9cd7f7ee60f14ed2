/**
 * The bounds of a community's moderation settings (src/server/moderation/settings.ts), shared by
 * the admin area's island and the server. No imports: the island loads this module.
 */

/** The highest number of reports an administrator may set for the automatic hide. */
export const AUTO_HIDE_MAX = 1000;

/** The longest minimum membership age for a report to count, in hours (a year). */
export const REPORT_MIN_AGE_MAX_HOURS = 8760;

/**
 * The floor the admin area recommends, and the default (migrations/0016): 72 hours, three days.
 * Discourse lets a new account (trust level 0) flag but weighs its flags least and counts a
 * flagger's past agreed flags for more; NodeBB asks for reputation before a member may flag at all.
 * Three days outlast a wave of accounts made for one raid, while a real newcomer's report still
 * reaches the moderators in the queue at once: only the automatic hide waits for them.
 */
export const REPORT_MIN_AGE_RECOMMENDED_HOURS = 72;

/**
 * SPEC §8: a statistics failure is only logged to the console, with the query's meta (lib/trpc's
 * query cache); the panel shows a neutral message (StatsProblem). These are the metas of the
 * statistics queries that more than one part of the Dashboard reads: readers of one query pass the
 * same meta, since the query keeps the options of whichever rendered last.
 */

/** statistics.overview: the cards and the welcome banner. */
export const OVERVIEW_META = { errorMessage: "Dashboard cards could not be loaded" };

/** statistics.engagement: the Staff activity table and the Work load chart. */
export const ENGAGEMENT_META = { errorMessage: "Staff activity could not be loaded" };

import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { RestOptions } from "./options";
import { answers } from "./shapes/common";
import {
  ZRestStatistics,
  ZRestTeamPerformance,
  ZRestUserEngagement,
  ZTeamPerformanceQuery,
  restStatistics,
  restTeamPerformance,
  restUserEngagement,
} from "./shapes/statistics";

const STATISTICS = ["Statistics"];
const BEARER: Record<string, string[]>[] = [{ bearerAuth: [] }, { apiToken: [] }];

/** SPEC §7.1 Dashboard statistics and reports (SPEC §2.6), Admin only. */
export const statisticsRoutes: FastifyPluginAsyncZod<RestOptions> = async (app) => {
  app.get(
    "/api/statistics",
    {
      schema: {
        summary: "Dashboard statistics",
        description:
          "SPEC §2.6, §3, §7.1. The Dashboard cards as category records: Total Users (active administrators and " +
          "active staff), Tasks (complete and not), Submissions (submissions holding a transcript or recording " +
          "dated today and yesterday in APP_TIMEZONE). 401 without a session, 403 for staff.",
        tags: STATISTICS,
        security: BEARER,
        response: answers(ZRestStatistics),
      },
    },
    async (req) => restStatistics(await req.caller.statistics.overview()),
  );

  app.get(
    "/api/user-engagement-overview",
    {
      schema: {
        summary: "Staff overall activity",
        description:
          "SPEC §2.6, §3, §7.1. One row per staff member (active, or inactive with tasks), by username: tasks " +
          "assigned, complete, not complete, and tasks whose submission holds a transcript or a recording. 401 " +
          "without a session, 403 for staff.",
        tags: STATISTICS,
        security: BEARER,
        response: answers(ZRestUserEngagement),
      },
    },
    async (req) => restUserEngagement(await req.caller.statistics.engagement()),
  );

  app.get(
    "/api/team-performance-report",
    {
      schema: {
        summary: "Team engagement report",
        description:
          "SPEC §2.6, §3, §7.1. One row per staff member, by username. `from` and `to` (ISO date, midnight in " +
          "APP_TIMEZONE, or ISO date-time with Z or an offset; to exclusive; either optional) select reviews by the " +
          "time a transcript or recording became Approved or Rejected: completed (both Approved, the later in the " +
          "period), approved and rejected counts, recordedTasks (= approvedRecordings), translatedScripts " +
          "(transcripts approved or rejected in the period; all time also those pending), audioMinutes (minutes of " +
          "audio of the work approved in the period: the audio of each task whose transcript was approved plus each " +
          "approved recording, unrounded: durations in whole ms / 60000; durations not known yet count 0 and are counted in " +
          "approvedWithoutDuration) and payment (whole UGX: approvedTranscripts x transcript rate + " +
          "approvedRecordings x recording rate + audioMinutes x rate per audio minute, which is 0 unless an admin " +
          "set it; rounded). tasks, pending counts and " +
          "submissions (tasks whose submission holds a transcript or recording / tasks x 100, 2 decimals) are as " +
          "of now. 400 for a malformed date or 'from must be before to.', 401 without a session, 403 for staff.",
        tags: STATISTICS,
        security: BEARER,
        querystring: ZTeamPerformanceQuery,
        response: answers(ZRestTeamPerformance),
      },
    },
    async (req) => restTeamPerformance(await req.caller.statistics.teamReport(req.query)),
  );
};

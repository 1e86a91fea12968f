import { z } from "zod";
import type { RouterOutputs } from "@tafsiri/api";
import { EXAMPLE_USER_ID } from "./common";

type Overview = RouterOutputs["statistics"]["overview"];
type EngagementRow = RouterOutputs["statistics"]["engagement"][number];
type TeamReportRow = RouterOutputs["statistics"]["teamReport"][number];

const count = z.number().int();

/**
 * SPEC §3 Statistics records, in this order: `{ category: 'Total Users', adminCount, staffCount }`
 * (active accounts), `{ category: 'Tasks', completed, pending }`, `{ category: 'Submissions',
 * today, yesterday }` (in APP_TIMEZONE).
 */
export const ZRestStatistics = z
  .array(
    z.union([
      z.object({ category: z.literal("Total Users"), adminCount: count, staffCount: count }),
      z.object({ category: z.literal("Tasks"), completed: count, pending: count }),
      z.object({ category: z.literal("Submissions"), today: count, yesterday: count }),
    ]),
  )
  .meta({
    examples: [
      [
        { category: "Total Users", adminCount: 2, staffCount: 14 },
        { category: "Tasks", completed: 310, pending: 95 },
        { category: "Submissions", today: 12, yesterday: 17 },
      ],
    ],
  });

/** The statistics records from the overview procedure's cards. */
export function restStatistics(o: Overview): z.output<typeof ZRestStatistics> {
  return [
    { category: "Total Users", ...o.users },
    { category: "Tasks", ...o.tasks },
    { category: "Submissions", ...o.submissions },
  ];
}

/** SPEC §3 User engagement rows: `{ _id, username, tasks, completed, pending, submissions }`, one per staff member. */
export const ZRestUserEngagement = z
  .array(
    z.object({
      _id: z.string(),
      username: z.string(),
      tasks: count,
      completed: count,
      pending: count,
      submissions: count,
    }),
  )
  .meta({
    examples: [[{ _id: EXAMPLE_USER_ID, username: "amina", tasks: 40, completed: 31, pending: 9, submissions: 36 }]],
  });

/** The engagement rows from the procedure's. */
export function restUserEngagement(rows: EngagementRow[]): z.output<typeof ZRestUserEngagement> {
  return rows.map(({ id, ...row }) => ({ _id: id, ...row }));
}

/** Minutes of audio: whole milliseconds / 60,000, unrounded. */
const minutes = z.number().nonnegative();

/**
 * SPEC §3 Team performance rows: submissions a percentage with 2 decimals, payment in whole UGX,
 * audioMinutes (and its two parts) unrounded (definitions in the route's description).
 */
export const ZRestTeamPerformance = z
  .array(
    z.object({
      _id: z.string(),
      username: z.string(),
      tasks: count,
      completed: count,
      submissions: z.number(),
      payment: count,
      recordedTasks: count,
      translatedScripts: count,
      approvedTranscripts: count,
      approvedRecordings: count,
      pendingTranscripts: count,
      pendingRecordings: count,
      rejectedTranscripts: count,
      rejectedRecordings: count,
      audioMinutes: minutes.meta({
        description:
          "Minutes of audio of the approved work in the period: the audios of tasks whose transcript was approved " +
          "plus the approved recordings (whole ms / 60000, unrounded); a duration not known yet counts 0.",
      }),
      transcriptAudioMinutes: minutes.meta({ description: "Of audioMinutes: the audios of approved transcripts." }),
      recordingAudioMinutes: minutes.meta({ description: "Of audioMinutes: the approved recordings." }),
      approvedWithoutDuration: count.meta({
        description: "Approved transcripts and recordings in the period whose duration is not known yet.",
      }),
    }),
  )
  .meta({
    examples: [
      [
        {
          _id: EXAMPLE_USER_ID,
          username: "amina",
          tasks: 40,
          completed: 31,
          submissions: 90,
          payment: 335000,
          recordedTasks: 32,
          translatedScripts: 36,
          approvedTranscripts: 35,
          approvedRecordings: 32,
          pendingTranscripts: 1,
          pendingRecordings: 3,
          rejectedTranscripts: 1,
          rejectedRecordings: 1,
          audioMinutes: 412.3575,
          transcriptAudioMinutes: 220.5,
          recordingAudioMinutes: 191.8575,
          approvedWithoutDuration: 2,
        },
      ],
    ],
  });

/** The report rows from the procedure's. */
export function restTeamPerformance(rows: TeamReportRow[]): z.output<typeof ZRestTeamPerformance> {
  return rows.map(({ id, ...row }) => ({ _id: id, ...row }));
}

/** `?from&to`: the report's period by review time, each an ISO date or date-time; empty or left out means open. */
const periodBound = (example: string) =>
  z
    .string()
    .transform((v) => (v === "" ? undefined : v))
    .optional()
    .meta({ examples: [example] });
export const ZTeamPerformanceQuery = z.object({ from: periodBound("2026-10-01"), to: periodBound("2026-11-01") });

import { z } from "zod";

/** SPEC §2.6, §3 Statistics records: the Dashboard's three cards. */
export const ZDashboardOverview = z.object({
  /** Total Users: active administrators and active staff. */
  users: z.object({ adminCount: z.number().int(), staffCount: z.number().int() }),
  /** Tasks: complete (is_complete) and not. */
  tasks: z.object({ completed: z.number().int(), pending: z.number().int() }),
  /** Submissions whose submission_date falls on today / yesterday in `timeZone`. */
  submissions: z.object({ today: z.number().int(), yesterday: z.number().int() }),
  /** The IANA time zone of today and yesterday (APP_TIMEZONE). */
  timeZone: z.string(),
  /** The programme's name, for the Dashboard's welcome banner (PROGRAMME_NAME, SPEC §1). */
  programmeName: z.string(),
});
export type DashboardOverview = z.infer<typeof ZDashboardOverview>;

/** SPEC §3 User engagement row (Staff overall Activity, Work Load): one per staff member. */
export const ZEngagementRow = z.object({
  id: z.string(),
  username: z.string(),
  tasks: z.number().int(),
  completed: z.number().int(),
  pending: z.number().int(),
  /** Tasks whose submission holds a transcript or a recording. */
  submissions: z.number().int(),
});
export type EngagementRow = z.infer<typeof ZEngagementRow>;

/** SPEC §3 Team performance row (Team Engagement Report); see teamReport for each figure's definition. */
const ZTeamReportRow = z.object({
  id: z.string(),
  username: z.string(),
  tasks: z.number().int(),
  completed: z.number().int(),
  /** Percentage of their tasks with a submission, 2 decimals (e.g. 66.67). */
  submissions: z.number(),
  /** Whole UGX: per-item part plus audio minutes × rate per audio minute (see getTeamReport). */
  payment: z.number().int(),
  recordedTasks: z.number().int(),
  translatedScripts: z.number().int(),
  approvedTranscripts: z.number().int(),
  approvedRecordings: z.number().int(),
  pendingTranscripts: z.number().int(),
  pendingRecordings: z.number().int(),
  rejectedTranscripts: z.number().int(),
  rejectedRecordings: z.number().int(),
  /** Minutes of audio of their approved transcripts and recordings in the period, unrounded (whole ms / 60,000; shown with 1 decimal). */
  audioMinutes: z.number().nonnegative(),
  /** Of audioMinutes: the audios of their tasks whose transcript was approved. */
  transcriptAudioMinutes: z.number().nonnegative(),
  /** Of audioMinutes: their approved recordings. */
  recordingAudioMinutes: z.number().nonnegative(),
  /** Approved transcripts and recordings in the period whose duration is not known yet (they count 0 minutes). */
  approvedWithoutDuration: z.number().int().nonnegative(),
});
export type TeamReportRow = z.infer<typeof ZTeamReportRow>;

export const PERIOD_ORDER = "from must be before to.";
const periodBound = (name: "from" | "to") =>
  z.union([z.iso.date(), z.iso.datetime({ offset: true })], {
    error: `${name} must be an ISO date (YYYY-MM-DD) or date-time (e.g. 2026-11-01T00:00:00Z).`,
  });

/**
 * The team report's period [from, to), by review time: each bound an ISO date (midnight in
 * APP_TIMEZONE) or an ISO date-time with Z or an offset; either may be left out (open).
 */
export const ZTeamReportInput = z
  .object({ from: periodBound("from").optional(), to: periodBound("to").optional() })
  .prefault({});
export type TeamReportInput = z.infer<typeof ZTeamReportInput>;

export const ZTeamReport = z.array(ZTeamReportRow);

/**
 * The payment rates (ARCHITECTURE "Decisions": Payment), whole UGX: per approved transcript, per
 * approved recording, and per minute of approved audio (0 when unset: payment by item only).
 */
export const ZPaymentRates = z.object({
  transcript: z.number().int(),
  recording: z.number().int(),
  audioMinute: z.number().int(),
});
export type PaymentRates = z.infer<typeof ZPaymentRates>;

const RATE_RULE = "A rate must be a positive whole number of UGX (at most 100,000,000).";
const MINUTE_RATE_RULE = "The rate per audio minute must be a whole number of UGX from 0 (none) to 100,000,000.";
const RATE_REQUIRED = "Give at least one rate: per transcript, per recording or per audio minute.";
const ZRate = z.number({ error: RATE_RULE }).int(RATE_RULE).positive(RATE_RULE).max(100_000_000, RATE_RULE);
const ZMinuteRate = z
  .number({ error: MINUTE_RATE_RULE })
  .int(MINUTE_RATE_RULE)
  .min(0, MINUTE_RATE_RULE)
  .max(100_000_000, MINUTE_RATE_RULE);

/**
 * New rates, any of them: per transcript and per recording a positive whole number of UGX; per
 * audio minute a whole number of UGX, 0 switching it off.
 */
export const ZSetRatesInput = z
  .object({ transcript: ZRate.optional(), recording: ZRate.optional(), audioMinute: ZMinuteRate.optional() })
  .refine((v) => v.transcript !== undefined || v.recording !== undefined || v.audioMinute !== undefined, {
    message: RATE_REQUIRED,
  });
export type SetRatesInput = z.infer<typeof ZSetRatesInput>;

export const RATES_UPDATED = "Payment rates updated successfully.";
export const ZSetRatesOutput = z.object({ message: z.string(), rates: ZPaymentRates });

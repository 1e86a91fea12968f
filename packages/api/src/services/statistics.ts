import {
  dashboardCounts,
  engagementRows,
  findRates,
  setRate,
  teamReportRows,
  RATE_KEYS,
  type RateKind,
} from "@tafsiri/db/repositories/statistics";
import { insertAuditEntry } from "@tafsiri/db/repositories/audit-log";
import type { AppDeps, SessionUser } from "../context";
import { AppError } from "../errors/app-error";
import {
  PERIOD_ORDER,
  RATES_UPDATED,
  type DashboardOverview,
  type EngagementRow,
  type PaymentRates,
  type SetRatesInput,
  type TeamReportInput,
  type TeamReportRow,
} from "../schemas/statistics";
import { requireAdmin } from "./access";

/** The programme's name on the welcome banner when PROGRAMME_NAME is unset (SPEC §1). */
const DEFAULT_PROGRAMME_NAME = "Tafsiri";

/** The deployment's time zone (APP_TIMEZONE), UTC when unset. */
function timeZoneOf(deps: AppDeps): string {
  return deps.timezone ?? "UTC";
}

/**
 * SPEC §2.6, §3 Dashboard cards: Total Users (active administrators, active staff), Tasks
 * (complete, not complete), Submissions (submissions holding a transcript or recording whose
 * submission_date falls on today / yesterday in APP_TIMEZONE, at the time of the call). One SQL
 * statement. Throws FORBIDDEN for non-admins.
 */
export async function getOverview(deps: AppDeps, user: SessionUser): Promise<DashboardOverview> {
  requireAdmin(user);
  const timeZone = timeZoneOf(deps);
  const c = await dashboardCounts(deps.db, { timeZone, now: new Date() });
  return {
    users: { adminCount: c.adminCount, staffCount: c.staffCount },
    tasks: { completed: c.completed, pending: c.pending },
    submissions: { today: c.today, yesterday: c.yesterday },
    timeZone,
    programmeName: deps.programmeName ?? DEFAULT_PROGRAMME_NAME,
  };
}

/**
 * SPEC §2.6, §3 Staff overall Activity and Work Load: one row per staff member (active ones, and
 * inactive ones who still have tasks), by username: tasks assigned, complete, not complete, and
 * tasks whose submission holds a transcript or a recording. One SQL statement. Throws FORBIDDEN
 * for non-admins.
 */
export async function getEngagement(deps: AppDeps, user: SessionUser): Promise<EngagementRow[]> {
  requireAdmin(user);
  return engagementRows(deps.db);
}

/** The offset (local − UTC, ms) of `timeZone` at instant `t`. */
function zoneOffset(t: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  }).formatToParts(new Date(t));
  const n = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return (
    Date.UTC(n("year"), n("month") - 1, n("day"), n("hour"), n("minute"), n("second")) - Math.floor(t / 1000) * 1000
  );
}

/** A period bound as an instant: an ISO date is its midnight in `timeZone`, a date-time is itself. */
export function periodInstant(bound: string, timeZone: string): Date {
  if (bound.length > 10) return new Date(bound);
  const [y, m, d] = bound.split("-").map(Number) as [number, number, number];
  const wall = Date.UTC(y, m - 1, d);
  const guess = wall - zoneOffset(wall, timeZone);
  return new Date(wall - zoneOffset(guess, timeZone));
}

/**
 * SPEC §2.6, §3 Team Engagement Report (decision 011), one row per staff member (as getEngagement), by
 * username, in one SQL statement. The period [from, to) (ISO dates are midnight in APP_TIMEZONE)
 * selects reviews by their review time (the time the output became Approved or Rejected):
 * - completed: tasks whose transcript and recording are Approved, the later approval in the period;
 * - approvedTranscripts / approvedRecordings / rejectedTranscripts / rejectedRecordings: outputs in
 *   that state reviewed in the period;
 * - recordedTasks: tasks with an Approved recording reviewed in the period (= approvedRecordings);
 * - translatedScripts: transcripts approved or rejected in the period, plus, without a period,
 *   those Pending (every transcript handed in);
 * - audioMinutes: minutes of audio of the approved work counted (decision 022): the duration of the
 *   audio of each task whose transcript was approved in the period, plus the duration of each
 *   recording approved in the period, unrounded (durations in whole ms / 60,000); a duration not yet known (the waveform job fills
 *   it later) counts 0 and is counted in approvedWithoutDuration; transcriptAudioMinutes and
 *   recordingAudioMinutes are its two parts;
 * - payment (whole UGX) = approvedTranscripts × transcript rate + approvedRecordings × recording
 *   rate + audioMinutes (exact) × rate per audio minute (0 unless set), rounded, with the rates in
 *   settings now;
 * - tasks, submissions (tasks whose submission holds a transcript or recording / tasks × 100,
 *   rounded to 2 decimals; 0 without tasks), pendingTranscripts, pendingRecordings: the work as it
 *   is now (the period does not apply).
 * A task's work counts for its assignee. Throws FORBIDDEN for non-admins, BAD_REQUEST 'from must
 * be before to.' when the period is empty or reversed.
 */
export async function getTeamReport(
  deps: AppDeps,
  user: SessionUser,
  input: TeamReportInput,
): Promise<TeamReportRow[]> {
  requireAdmin(user);
  const timeZone = timeZoneOf(deps);
  const from = input.from === undefined ? undefined : periodInstant(input.from, timeZone);
  const to = input.to === undefined ? undefined : periodInstant(input.to, timeZone);
  if (from && to && from.getTime() >= to.getTime()) throw new AppError("BAD_REQUEST", PERIOD_ORDER);
  return teamReportRows(deps.db, { from, to });
}

/**
 * ARCHITECTURE "Decisions" Payment: the rates, whole UGX per approved transcript, per approved
 * recording and per minute of approved audio (0 when unset). Throws FORBIDDEN for non-admins.
 */
export async function getRates(deps: AppDeps, user: SessionUser): Promise<PaymentRates> {
  requireAdmin(user);
  return findRates(deps.db);
}

/**
 * Sets the payment rates given (per transcript and per recording a positive whole number of UGX,
 * per audio minute a whole number from 0, checked by ZSetRatesInput),
 * in one transaction with one audit entry per rate that changed ('set-rate', entity 'setting',
 * the settings key, `{ from, to }`); the team report uses them at once. No live event is
 * recorded: none of the event kinds reports a settings change. Throws FORBIDDEN for non-admins.
 * Returns the message and the rates now in force.
 */
export async function updateRates(
  deps: AppDeps,
  user: SessionUser,
  input: SetRatesInput,
): Promise<{ message: string; rates: PaymentRates }> {
  requireAdmin(user);
  return deps.db.transaction().execute(async (trx) => {
    for (const kind of ["transcript", "recording", "audioMinute"] as const satisfies RateKind[]) {
      const value = input[kind];
      if (value === undefined) continue;
      const previous = await setRate(trx, kind, value);
      if (previous !== value) {
        await insertAuditEntry(trx, user.id, "set-rate", "setting", RATE_KEYS[kind], { from: previous, to: value });
      }
    }
    return { message: RATES_UPDATED, rates: await findRates(trx) };
  });
}

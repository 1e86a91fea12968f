import { adminProcedure, router } from "../trpc";
import {
  ZDashboardOverview,
  ZEngagementRow,
  ZPaymentRates,
  ZSetRatesInput,
  ZSetRatesOutput,
  ZTeamReport,
  ZTeamReportInput,
} from "../schemas/statistics";
import { getEngagement, getOverview, getRates, getTeamReport, updateRates } from "../services/statistics";
import { ZReviewerFigures, ZReviewerFiguresInput } from "../schemas/reviewer-figures";
import { getReviewerFigures } from "../services/reviewer-figures";

/** The Dashboard's statistics and reports (SPEC §2.6, §3); every procedure is Admin only (FORBIDDEN otherwise). */
export const statisticsRouter = router({
  /**
   * SPEC §2.6 cards → `{ users: { adminCount, staffCount }, tasks: { completed, pending },
   * submissions: { today, yesterday }, timeZone, programmeName }`: active users by role, tasks by
   * is_complete, submissions dated today / yesterday in APP_TIMEZONE, and the programme's name for
   * the welcome banner (PROGRAMME_NAME, SPEC §1).
   */
  overview: adminProcedure.output(ZDashboardOverview).query(({ ctx }) => getOverview(ctx, ctx.user)),
  /**
   * SPEC §2.6 Staff overall Activity and Work Load → `[{ id, username, tasks, completed, pending,
   * submissions }]`, one row per staff member by username (see getEngagement).
   */
  engagement: adminProcedure.output(ZEngagementRow.array()).query(({ ctx }) => getEngagement(ctx, ctx.user)),
  /**
   * SPEC §2.6 Team Engagement Report for the period [from, to) by review time (ISO dates, to
   * exclusive, either optional) → one SPEC §3 Team performance row per staff member; submissions a
   * percentage with 2 decimals, audio minutes of approved work (unrounded), payment in whole
   * UGX (definitions: getTeamReport). BAD_REQUEST for
   * a malformed date or 'from must be before to.'.
   */
  teamReport: adminProcedure
    .input(ZTeamReportInput)
    .output(ZTeamReport)
    .query(({ ctx, input }) => getTeamReport(ctx, ctx.user, input)),
  /**
   * Decision 025, the Dashboard's Reviews section: for the period [from, to) of review times (ISO
   * dates midnight in `timeZone`, the admin's IANA zone, default APP_TIMEZONE) →
   * `{ reviewers: [{ id, username, reviews, approvals, rejections, medianWaitSeconds }], days:
   * [{ day, counts: [{ reviewerId, reviews }] }], timeZone }` (see getReviewerFigures). BAD_REQUEST
   * for a malformed date or time zone, or 'from must be before to.'.
   */
  reviewers: adminProcedure
    .meta({
      rest: {
        method: "GET",
        path: "/api/statistics/reviewers",
        summary: "Reviewer figures",
        description:
          "SPEC §2.6 Dashboard, decision 025: the Reviews section. `from` and `to` (ISO date, midnight in `timeZone`, " +
          "or ISO date-time with Z or an offset; to exclusive; either optional) select reviews (approvals and " +
          "rejections) by review time; `timeZone` is the admin's IANA time zone (default APP_TIMEZONE). `reviewers`: " +
          "every active admin and anyone else with reviews in the period, by username, with reviews, approvals, " +
          "rejections and medianWaitSeconds (the median time from the judged version's save to its review, whole " +
          "seconds; null without reviews); the reviews of deleted accounts count under id null, 'Deleted account', " +
          "last. `days`: each day in timeZone with reviews, oldest first, with each reviewer's count. 400 for a " +
          "malformed date or time zone or 'from must be before to.', 401 without a session, 403 for staff.",
        tags: ["Statistics"],
      },
    })
    .input(ZReviewerFiguresInput)
    .output(ZReviewerFigures)
    .query(({ ctx, input }) => getReviewerFigures(ctx, ctx.user, input)),
  /** The payment rates → `{ transcript, recording, audioMinute }`, whole UGX per approved output / per minute of approved audio. */
  rates: adminProcedure.output(ZPaymentRates).query(({ ctx }) => getRates(ctx, ctx.user)),
  /**
   * Sets any of the payment rates (per transcript / recording positive whole UGX, per audio minute
   * whole UGX from 0; at most 100,000,000; BAD_REQUEST otherwise), audited, effective at once →
   * `{ message, rates }`. Admin only, enforced here. No live event (no kind fits).
   */
  setRates: adminProcedure
    .input(ZSetRatesInput)
    .output(ZSetRatesOutput)
    .mutation(({ ctx, input }) => updateRates(ctx, ctx.user, input)),
});

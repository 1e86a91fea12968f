import { z } from "zod";
import { ZTeamReportInput } from "./statistics";

const TIME_ZONE_RULE = "timeZone must be an IANA time zone such as Africa/Kampala or UTC.";

/** True when `name` is a time zone the runtime knows by its IANA name (e.g. 'Africa/Kampala', 'UTC'). */
function isIanaTimeZone(name: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/.test(name)) return false;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/**
 * The reviewer figures' period (decision 025): [from, to) of review times, as the Team Engagement
 * Report takes it (each bound an ISO date, midnight in `timeZone`, or an ISO date-time with Z or
 * an offset; either may be left out), and `timeZone`, the admin's IANA time zone, in which the
 * dates are read and reviews are counted per day (default: APP_TIMEZONE, else UTC).
 */
export const ZReviewerFiguresInput = ZTeamReportInput.unwrap()
  .extend({
    timeZone: z
      .string({ error: TIME_ZONE_RULE })
      .max(64, TIME_ZONE_RULE)
      .refine(isIanaTimeZone, TIME_ZONE_RULE)
      .optional(),
  })
  .prefault({});
export type ReviewerFiguresInput = z.infer<typeof ZReviewerFiguresInput>;

/** One reviewer's figures over the period (decision 025). */
const ZReviewerRow = z.object({
  /** The reviewer's user id; null for the reviews of accounts that are gone ('Deleted account'). */
  id: z.string().nullable(),
  username: z.string(),
  /** Approvals and rejections they made in the period. */
  reviews: z.number().int(),
  approvals: z.number().int(),
  rejections: z.number().int(),
  /** Median time from the judged version's save to its review, whole seconds; null without reviews. */
  medianWaitSeconds: z.number().nullable(),
});

/** One calendar day (in `timeZone`) with reviews, and each reviewer's count that day. */
const ZReviewDay = z.object({
  day: z.iso.date(),
  counts: z.array(z.object({ reviewerId: z.string().nullable(), reviews: z.number().int() })),
});
export type ReviewDay = z.infer<typeof ZReviewDay>;

/** The reviewer figures (decision 025): per reviewer totals, and reviews per day (only days with reviews, oldest first). */
export const ZReviewerFigures = z.object({
  reviewers: z.array(ZReviewerRow),
  days: z.array(ZReviewDay),
  /** The IANA time zone of the days and of date bounds. */
  timeZone: z.string(),
});
export type ReviewerFigures = z.infer<typeof ZReviewerFigures>;

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
  id: z.string().nullable().meta({ description: "The reviewer; null for the reviews of deleted accounts." }),
  username: z.string().meta({ description: "'Deleted account' for id null." }),
  /** Approvals and rejections they made in the period. */
  reviews: z.number().int(),
  approvals: z.number().int(),
  rejections: z.number().int(),
  medianWaitSeconds: z
    .number()
    .nullable()
    .meta({
      description:
        "Median time from the judged version's save to its review, whole seconds (percentile_cont(0.5)); " +
        "null without reviews in the period.",
    }),
});

/** One calendar day (in `timeZone`) with reviews, and each reviewer's count that day. */
const ZReviewDay = z.object({
  day: z.iso.date().meta({ description: "A calendar day in timeZone with reviews, YYYY-MM-DD." }),
  counts: z.array(z.object({ reviewerId: z.string().nullable(), reviews: z.number().int() })),
});
export type ReviewDay = z.infer<typeof ZReviewDay>;

/** The reviewer figures (decision 025): per reviewer totals, and reviews per day (only days with reviews, oldest first). */
export const ZReviewerFigures = z
  .object({
    reviewers: z.array(ZReviewerRow),
    days: z.array(ZReviewDay),
    timeZone: z.string().meta({ description: "The IANA time zone of the days and of date bounds." }),
  })
  .meta({
    examples: [
      {
        reviewers: [
          {
            id: "5f2c9a1e-7b3d-4e6f-8a0c-1d2e3f4a5b6c",
            username: "grace",
            reviews: 42,
            approvals: 37,
            rejections: 5,
            medianWaitSeconds: 12000,
          },
        ],
        days: [{ day: "2026-10-06", counts: [{ reviewerId: "5f2c9a1e-7b3d-4e6f-8a0c-1d2e3f4a5b6c", reviews: 9 }] }],
        timeZone: "Africa/Kampala",
      },
    ],
  });
export type ReviewerFigures = z.infer<typeof ZReviewerFigures>;

import { z } from "zod";
import { UNKNOWN_ID } from "./common";
import { ZReviewReason } from "./transcripts";

/** Most submissions one bulk review may name (decision 025): five Submissions pages of 20. */
const MAX_BULK_SUBMISSIONS = 100;
const NO_SUBMISSIONS_CHOSEN = "Select at least one submission.";
const TOO_MANY_SUBMISSIONS = "At most 100 submissions may be reviewed at once.";
const NO_OUTPUTS_CHOSEN = "Choose transcripts, recordings or both.";
const UNKNOWN_OUTPUT = "Outputs must be transcript or recording.";
const UNKNOWN_BULK_ACTION = "The action must be approve or reject.";
const REASON_WITH_REJECT_ONLY = "A reason may be given with a rejection only.";

const EXAMPLE_SUBMISSION = "0b7e2f4c-5d1a-4c8e-9f3b-2a6d8e1c4b70";
const OTHER_SUBMISSION = "9d4a6b2e-1c3f-4e5a-8b7c-0d1e2f3a4b5c";

/** The two reviewed outputs of a submission (SPEC §4). */
const ZReviewedOutput = z.enum(["transcript", "recording"], { message: UNKNOWN_OUTPUT });
export type ReviewedOutputName = z.infer<typeof ZReviewedOutput>;

/** A uuid list, 1..max long, duplicates dropped (first occurrence kept, order kept). */
const uniqueIds = z
  .array(z.string({ error: UNKNOWN_ID }).uuid(UNKNOWN_ID), { error: NO_SUBMISSIONS_CHOSEN })
  .min(1, NO_SUBMISSIONS_CHOSEN)
  .max(MAX_BULK_SUBMISSIONS, TOO_MANY_SUBMISSIONS)
  .transform((ids) => [...new Set(ids.map((id) => id.toLowerCase()))]);

/**
 * A bulk review (decision 025): approve or reject the chosen outputs of 1..100 submissions
 * (ids deduplicated), each output of each submission reviewed on its own as if it were Pending.
 * `reason` (trimmed, at most 1,000 characters, blank means none) goes with a rejection only and is
 * stored per rejected output.
 */
export const ZBulkReviewInput = z
  .object({
    submissionIds: uniqueIds.meta({
      description: `1 to ${MAX_BULK_SUBMISSIONS} submission ids; repeated ids count once.`,
    }),
    outputs: z
      .array(ZReviewedOutput, { error: NO_OUTPUTS_CHOSEN })
      .min(1, NO_OUTPUTS_CHOSEN)
      .max(2, NO_OUTPUTS_CHOSEN)
      .transform((outputs) => ZReviewedOutput.options.filter((output) => outputs.includes(output)))
      .meta({ description: "Which outputs of each submission: 'transcript', 'recording' or both." }),
    action: z.enum(["approve", "reject"], { message: UNKNOWN_BULK_ACTION }),
    reason: ZReviewReason.optional().meta({
      description:
        "With a rejection only: at most 1,000 characters, stored as the admin's comment on each rejected output and " +
        "sent to its assignee.",
    }),
  })
  .superRefine((input, ctx) => {
    if (input.action !== "reject" && input.reason) {
      ctx.addIssue({ code: "custom", message: REASON_WITH_REJECT_ONLY, path: ["reason"] });
    }
  })
  .meta({
    examples: [
      { submissionIds: [EXAMPLE_SUBMISSION, OTHER_SUBMISSION], outputs: ["transcript"], action: "approve" },
      {
        submissionIds: [EXAMPLE_SUBMISSION],
        outputs: ["transcript", "recording"],
        action: "reject",
        reason: "The speaker's names are misspelt.",
      },
    ],
  });
export type BulkReviewInput = z.output<typeof ZBulkReviewInput>;

/** One output a bulk review changed: its new approval status and the single review's success message. */
const ZBulkReviewDone = z.object({
  submissionId: z.string(),
  output: ZReviewedOutput,
  status: z.string(),
  message: z.string(),
});
/** One output a bulk review left as it was, and the server's reason ('The transcript is already Approved.'). */
const ZBulkReviewSkipped = z.object({ submissionId: z.string(), output: ZReviewedOutput, reason: z.string() });

/**
 * What a bulk review did, in the order asked (submission by submission, transcript before
 * recording), and the sentence that says it ('1 reviewed, 1 skipped.').
 */
export const ZBulkReviewOutput = z
  .object({ message: z.string(), done: z.array(ZBulkReviewDone), skipped: z.array(ZBulkReviewSkipped) })
  .meta({
    examples: [
      {
        message: "1 reviewed, 1 skipped.",
        done: [
          {
            submissionId: EXAMPLE_SUBMISSION,
            output: "transcript",
            status: "Approved",
            message: "Transcript approved successfully.",
          },
        ],
        skipped: [
          { submissionId: OTHER_SUBMISSION, output: "transcript", reason: "The transcript is already Approved." },
        ],
      },
    ],
  });
export type BulkReviewOutput = z.infer<typeof ZBulkReviewOutput>;

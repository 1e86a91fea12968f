import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { MAX_BULK_SUBMISSIONS, ZBulkReviewInput } from "@tafsiri/api";
import type { RestOptions } from "./options";
import { DONE, EXAMPLE_ID, ZDoneFields, answers } from "./shapes/common";

const OTHER_ID = "9d4a6b2e-1c3f-4e5a-8b7c-0d1e2f3a4b5c";
const FIELDS = ZBulkReviewInput.shape;

/**
 * The body of POST /api/reviews/bulk: the procedure's fields under their snake_case names, same rules
 * and messages. The lists are checked as sent (`.in`, before the procedure drops repeats), since a
 * schema that transforms loses its request example in the OpenAPI document.
 */
const ZBulkReviewBody = z
  .object({
    submission_ids: FIELDS.submissionIds.in.meta({
      description: `1 to ${MAX_BULK_SUBMISSIONS} submission ids; repeated ids count once.`,
    }),
    outputs: FIELDS.outputs.in.meta({
      description: "Which outputs of each submission: 'transcript', 'recording' or both.",
    }),
    action: FIELDS.action,
    reason: FIELDS.reason.meta({
      description:
        "With a rejection only: at most 1,000 characters, stored as the admin's comment on each rejected output and " +
        "sent to its assignee.",
    }),
  })
  .meta({
    examples: [
      { submission_ids: [EXAMPLE_ID, OTHER_ID], outputs: ["transcript"], action: "approve" },
      {
        submission_ids: [EXAMPLE_ID],
        outputs: ["transcript", "recording"],
        action: "reject",
        reason: "The speaker's names are misspelt.",
      },
    ],
  });

const ZOutput = z.enum(["transcript", "recording"]);
const ZBulkReviewAnswer = z
  .object({
    ...ZDoneFields,
    message: z.string(),
    done: z.array(z.object({ submission_id: z.string(), output: ZOutput, status: z.string(), message: z.string() })),
    skipped: z.array(z.object({ submission_id: z.string(), output: ZOutput, reason: z.string() })),
  })
  .meta({
    examples: [
      {
        ...DONE,
        message: "1 reviewed, 1 skipped.",
        done: [
          {
            submission_id: EXAMPLE_ID,
            output: "transcript",
            status: "Approved",
            message: "Transcript approved successfully.",
          },
        ],
        skipped: [{ submission_id: OTHER_ID, output: "transcript", reason: "The transcript is already Approved." }],
      },
    ],
  });

/** Decision 025: the bulk review path (admin). */
export const bulkReviewRoutes: FastifyPluginAsyncZod<RestOptions> = async (app) => {
  app.post(
    "/api/reviews/bulk",
    {
      schema: {
        summary: "Approve or reject many submissions (admin)",
        description:
          "SPEC §4, decision 025. Approves or rejects the chosen outputs of up to 100 submissions. Each output of each " +
          "submission is its own review from Pending, exactly as PUT /api/updatesubmissions/{id}/{userId} would do it " +
          "(the same notifications, comment, audit entry and live events); one that is not Pending any more, has " +
          "nothing submitted or belongs to an unknown submission is listed under `skipped` with the reason " +
          "('The transcript is already Approved.', 'No transcript submitted yet.', 'Submission not found.') and left " +
          "as it is. `done` and `skipped` follow the order asked, transcript before recording. 400 for a malformed " +
          "id, none or more than 100 ids, an unknown output or action, a reason over 1,000 characters or a reason " +
          "with an approval; 401; 403 for staff.",
        tags: ["Reviews"],
        security: [{ bearerAuth: [] }],
        body: ZBulkReviewBody,
        response: answers(ZBulkReviewAnswer),
      },
    },
    async (req) => {
      const out = await req.caller.reviews.bulk({
        submissionIds: req.body.submission_ids,
        outputs: req.body.outputs,
        action: req.body.action,
        reason: req.body.reason,
      });
      return {
        ...DONE,
        message: `${out.done.length} reviewed, ${out.skipped.length} skipped.`,
        done: out.done.map(({ submissionId, ...rest }) => ({ submission_id: submissionId, ...rest })),
        skipped: out.skipped.map(({ submissionId, ...rest }) => ({ submission_id: submissionId, ...rest })),
      };
    },
  );
};

import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  REASSIGN_ONLY_ON_REJECT,
  ZReassignTo,
  ZReviewReason,
  ZSetTaskStatusInput,
  reviewSubmission,
  type ReviewAction,
  type ReviewedKind,
} from "@tafsiri/api";
import type { RestOptions } from "./options";
import { signedInUser } from "./authenticate";
import { DONE, EXAMPLE_ID, EXAMPLE_USER_ID, ZDoneFields, ZPathId, answers } from "./shapes/common";
import { ZRestTask, restTask } from "./shapes/tasks";

/** The four shapes of PUT /api/updatesubmissions: exactly one of these fields is sent. */
const REVIEW_FIELDS = [
  "translation_script_approval_status",
  "recorded_audio_approval_status",
  "translation_script",
  "recorded_audio",
] as const;
const ONE_REVIEW =
  "Send one of translation_script_approval_status, recorded_audio_approval_status, translation_script: null or recorded_audio: null.";

const approval = (field: string) =>
  z.enum(["Approved", "Rejected"], { message: `${field} must be Approved or Rejected.` });
const cleared = (field: string, what: string) =>
  z.null({ message: `${field} may only be null (to delete the ${what}).` }).optional();

const ZUpdateSubmissionBody = z
  .object({
    translation_script_approval_status: approval("translation_script_approval_status").optional(),
    recorded_audio_approval_status: approval("recorded_audio_approval_status").optional(),
    translation_script: cleared("translation_script", "transcript"),
    recorded_audio: cleared("recorded_audio", "recording"),
    /** Why it was rejected (ignored for Approved and for deletions). */
    reason: ZReviewReason.optional(),
    /** Decision 025 'Reassign to…': with a rejection, the active staff member the task moves to. */
    reassign_to: ZReassignTo.optional(),
    /** The status the reviewer saw; left out: Pending for Approved/Rejected, the current one for deletions. */
    expectedStatus: z
      .enum(["No transcript", "No translation audio", "Pending", "Approved", "Rejected"], {
        message: "expectedStatus must be No transcript, No translation audio, Pending, Approved or Rejected.",
      })
      .optional(),
  })
  .superRefine((body, ctx) => {
    const given = REVIEW_FIELDS.filter((field) => body[field] !== undefined);
    if (given.length !== 1) ctx.addIssue({ code: "custom", message: ONE_REVIEW, path: [given[1] ?? REVIEW_FIELDS[0]] });
    const rejection =
      body.translation_script_approval_status === "Rejected" || body.recorded_audio_approval_status === "Rejected";
    if (body.reassign_to !== undefined && !rejection) {
      ctx.addIssue({ code: "custom", message: REASSIGN_ONLY_ON_REJECT, path: ["reassign_to"] });
    }
  })
  .meta({
    examples: [
      { translation_script_approval_status: "Rejected", reason: "The second paragraph is missing." },
      { recorded_audio_approval_status: "Rejected", reason: "Too quiet.", reassign_to: EXAMPLE_USER_ID },
      { recorded_audio_approval_status: "Approved", expectedStatus: "Pending" },
      { translation_script: null },
      { recorded_audio: null },
    ],
  });
type UpdateSubmissionBody = z.output<typeof ZUpdateSubmissionBody>;

const ZReviewAnswer = z
  .object({
    ...ZDoneFields,
    message: z.string(),
    translation_script_approval_status: z.string().optional(),
    recorded_audio_approval_status: z.string().optional(),
  })
  .meta({
    examples: [
      { ...DONE, message: "Transcript rejected successfully.", translation_script_approval_status: "Rejected" },
      {
        ...DONE,
        message: "Translation Audio file rejected successfully. The task is now assigned to amina.",
        recorded_audio_approval_status: "Rejected",
      },
      {
        ...DONE,
        message: "Translation Audio file approved successfully.",
        recorded_audio_approval_status: "Approved",
      },
    ],
  });

const STAGE_STATUS = ZSetTaskStatusInput.shape.translationStatus;
const ZTaskStatusBody = z
  .object({ translation_status: STAGE_STATUS, recording_status: STAGE_STATUS })
  .superRefine((body, ctx) => {
    if (body.translation_status === undefined && body.recording_status === undefined) {
      ctx.addIssue({
        code: "custom",
        message: "Send translation_status or recording_status.",
        path: ["translation_status"],
      });
    }
  })
  .meta({ examples: [{ translation_status: "Completed" }, { recording_status: "In Progress" }] });

const ZTaskUpdated = z.object({ ...ZDoneFields, message: z.string(), task: ZRestTask }).meta({
  examples: [
    {
      ...DONE,
      message: "Task updated successfully.",
      task: {
        _id: EXAMPLE_ID,
        audio_id: { _id: "3c1d7e9a-2b4f-4a6c-8e0d-9f1a2b3c4d5e", filename: "interview-07", category: "Control" },
        assigned_to: { _id: EXAMPLE_USER_ID, username: "amina" },
        translation_status: "Completed",
        recording_status: "In Progress",
        is_complete: false,
        submission: {
          _id: EXAMPLE_ID,
          translation_script_approval_status: "Approved",
          recorded_audio_approval_status: "Pending",
        },
      },
    },
  ],
});

/** Which output a body reviews, how, and the approval-status field the answer carries. */
function reviewOf(body: UpdateSubmissionBody): {
  kind: ReviewedKind;
  action: ReviewAction;
  field: "translation_script_approval_status" | "recorded_audio_approval_status";
} {
  const verb = (status: "Approved" | "Rejected"): ReviewAction => (status === "Approved" ? "approve" : "reject");
  if (body.translation_script_approval_status) {
    const action = verb(body.translation_script_approval_status);
    return { kind: "transcript", action, field: "translation_script_approval_status" };
  }
  if (body.recorded_audio_approval_status) {
    const action = verb(body.recorded_audio_approval_status);
    return { kind: "recording", action, field: "recorded_audio_approval_status" };
  }
  if (body.translation_script === null) {
    return { kind: "transcript", action: "remove", field: "translation_script_approval_status" };
  }
  return { kind: "recording", action: "remove", field: "recorded_audio_approval_status" };
}

const REVIEWS = ["Reviews"];
const BEARER: Record<string, string[]>[] = [{ bearerAuth: [] }, { apiToken: [] }];

/** SPEC §4, §7.1 review paths (admin): approve, reject or delete a submission's outputs; set a task's statuses. */
export const reviewRoutes: FastifyPluginAsyncZod<RestOptions> = async (app, { deps }) => {
  app.put(
    "/api/updatesubmissions/:id/:userId",
    {
      schema: {
        summary: "Review a submission (admin)",
        description:
          "SPEC §4, §7.1. {id} is the submission. The body is exactly one of `{ translation_script_approval_status: " +
          "'Approved' | 'Rejected', reason? }`, `{ recorded_audio_approval_status: 'Approved' | 'Rejected', reason? }`, " +
          "`{ translation_script: null }` (delete the transcript) or `{ recorded_audio: null }` (delete the recording), " +
          "optionally with `expectedStatus`, the status the reviewer saw (by default Pending for Approved/Rejected, the " +
          "current status for deletions). A reason (at most 1,000 characters) is stored as the admin's comment and sent " +
          "to the assignee. With a rejection, `reassign_to` (a staff user id; decision 025 'Reassign to…') moves the " +
          "task to that active staff member in the same transaction: its submission, versions and comments stay, the " +
          "new assignee is notified ('… and assigned it to you'), the previous one told ('… and reassigned it to " +
          "{username}'), the audit log records 'reassign', and the message ends 'The task is now assigned to " +
          "{username}.'. The acting user is the caller, whatever {userId} says. 400 for any other body, 'No " +
          "transcript submitted yet.', reassign_to without a rejection, not an active staff member ('Please select " +
          "a staff member to reassign.') or the current assignee ('This audio is already assigned to this staff " +
          "member.'), 401, 403 for staff, 404 'Submission not found.', 409 when the status is no longer the " +
          "expected one ('The transcript is already Approved.', 'The transcript is now Rejected; refresh and try " +
          "again.'). Nothing is written on any error.",
        tags: REVIEWS,
        security: BEARER,
        params: z.object({ id: ZPathId, userId: ZPathId }),
        body: ZUpdateSubmissionBody,
        response: answers(ZReviewAnswer),
      },
    },
    async (req) => {
      const { kind, action, field } = reviewOf(req.body);
      const out = await reviewSubmission(deps, signedInUser(req), req.params.id, kind, action, {
        expectedStatus: req.body.expectedStatus,
        reason: req.body.reason,
        reassignTo: req.body.reassign_to,
      });
      return { ...DONE, message: out.message, [field]: out.status };
    },
  );

  app.put(
    "/api/tasks/:id",
    {
      schema: {
        summary: "Set a task's statuses (admin)",
        description:
          "SPEC §4, §7.1. `{ translation_status }` and/or `{ recording_status }`, each 'In Progress' or 'Completed'; " +
          "is_complete is recomputed from the submission's approvals. Answers the task as GET /api/tasks/{id}. 400 for " +
          "another value or neither field, 401, 403 for staff, 404 'Task not found.'.",
        tags: ["Tasks"],
        security: BEARER,
        params: z.object({ id: ZPathId }),
        body: ZTaskStatusBody,
        response: answers(ZTaskUpdated),
      },
    },
    async (req) => {
      const out = await req.caller.tasks.setStatus({
        taskId: req.params.id,
        translationStatus: req.body.translation_status,
        recordingStatus: req.body.recording_status,
      });
      return { ...DONE, message: out.message, task: restTask(out.task) };
    },
  );
};

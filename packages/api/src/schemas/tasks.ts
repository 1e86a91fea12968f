import { z } from "zod";
import {
  ZId,
  ZPageInput,
  ZRecordingStatus,
  ZStageStatus,
  ZTranscriptStatus,
  ZUserRef,
  page,
  ZCategory,
  ZDurationSeconds,
} from "./common";
import { ZLanguagePair } from "./translation";

/** Empty staff ids are refused with the spec's message; anything else must be a uuid. */
const staffId = (message: string) => z.string({ message }).min(1, message).uuid("Unknown staff member.");

export const ZAssignTaskInput = z.object({ audioId: ZId, staffId: staffId("Please select a staff member.") });

export const ZBulkAssignInput = z.object({
  assignments: z.array(z.object({ audioId: z.string(), staffId: z.string() })),
});
export const ZBulkAssignOutput = z.object({
  results: z.array(z.object({ audioId: z.string(), ok: z.boolean(), message: z.string().nullable() })),
});

export const ZReassignInput = z.object({ audioId: ZId, staffId: staffId("Please select a staff member to reassign.") });

const ZTaskRef = z.object({ id: z.string(), audioId: z.string(), assignedTo: z.string() });
/** An assignment or reassignment: the task, and the sentence the admin is shown (SPEC §2.17, §2.18). */
export const ZTaskChanged = ZTaskRef.extend({ message: z.string() });

/** SPEC §2.8 task card. */
const ZTaskCard = z.object({
  id: z.string(),
  audioId: z.string(),
  filename: z.string().nullable(),
  category: ZCategory.nullable(),
  /** The audio's duration in seconds; null while not known yet. */
  durationSeconds: ZDurationSeconds,
  assignedTo: ZUserRef.nullable(),
  translationStatus: ZStageStatus,
  recordingStatus: ZStageStatus,
  isComplete: z.boolean(),
  transcriptStatus: ZTranscriptStatus,
  recordingApprovalStatus: ZRecordingStatus,
});

/** SPEC §2.8 task card of the Tasks page list. */
const ZTaskListCard = ZTaskCard.extend({
  /**
   * Decision 035: the audio's language pair, its own or else the programme's. tasks.list always
   * gives it; optional only so that a card of another list (a recommendation's task) is one too.
   */
  pair: ZLanguagePair.optional(),
});
export type TaskListCard = z.infer<typeof ZTaskListCard>;
export const ZTaskCardPage = page(ZTaskListCard);

/**
 * SPEC §2.8 Tasks page: without `assignedTo`, admins get every task and staff their own; with it,
 * that user's tasks (staff may only name themselves).
 */
export const ZListTasksInput = ZPageInput.extend({ assignedTo: ZId.optional() });
export type ListTasksInput = z.infer<typeof ZListTasksInput>;

/** One task (SPEC §3 Task): the task card plus its submission's id (null while there is no submission). */
export const ZTask = ZTaskCard.extend({ submissionId: z.string().nullable() });
export type TaskDetail = z.infer<typeof ZTask>;

/** A task id; anything that is not a known task's id is answered 'Task not found.'. */
export const ZTaskIdInput = z.object({ taskId: z.string() });

const STAGE_STATUS_INVALID = "Status must be In Progress or Completed.";
const STAGE_STATUS_REQUIRED = "Send translation_status or recording_status.";
const ZStageStatusValue = z.enum(["In Progress", "Completed"], { message: STAGE_STATUS_INVALID });

/** SPEC §4, §7.1 PUT api/tasks/{id} (admin): a task's translation and/or recording status. */
export const ZSetTaskStatusInput = z
  .object({
    taskId: z.string(),
    translationStatus: ZStageStatusValue.optional(),
    recordingStatus: ZStageStatusValue.optional(),
  })
  .refine((i) => i.translationStatus !== undefined || i.recordingStatus !== undefined, STAGE_STATUS_REQUIRED);
export type SetTaskStatusInput = z.infer<typeof ZSetTaskStatusInput>;
export const ZSetTaskStatusOutput = z.object({ message: z.string(), task: ZTask });

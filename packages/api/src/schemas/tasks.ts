import { z } from "zod";
import { ZId, ZPageInput, ZRecordingStatus, ZStageStatus, ZTranscriptStatus, ZUserRef, page, ZCategory } from "./common";

/** Empty staff ids are refused with the spec's message; anything else must be a uuid. */
const staffId = (message: string) => z.string({ message }).min(1, message).uuid("Unknown staff member.");

export const ZAssignTaskInput = z.object({ audioId: ZId, staffId: staffId("Please select a staff member.") });
export type AssignTaskInput = z.infer<typeof ZAssignTaskInput>;

export const ZBulkAssignInput = z.object({
  assignments: z.array(z.object({ audioId: z.string(), staffId: z.string() })),
});
export const ZBulkAssignOutput = z.object({
  results: z.array(z.object({ audioId: z.string(), ok: z.boolean(), message: z.string().nullable() })),
});

export const ZReassignInput = z.object({ audioId: ZId, staffId: staffId("Please select a staff member to reassign.") });

export const ZTaskRef = z.object({ id: z.string(), audioId: z.string(), assignedTo: z.string() });

/** SPEC §2.8 task card. */
export const ZTaskCard = z.object({
  id: z.string(),
  audioId: z.string(),
  filename: z.string().nullable(),
  category: ZCategory.nullable(),
  assignedTo: ZUserRef.nullable(),
  translationStatus: ZStageStatus,
  recordingStatus: ZStageStatus,
  isComplete: z.boolean(),
  transcriptStatus: ZTranscriptStatus,
  recordingApprovalStatus: ZRecordingStatus,
});
export type TaskCard = z.infer<typeof ZTaskCard>;
export const ZTaskCardPage = page(ZTaskCard);
export const ZListTasksInput = ZPageInput;

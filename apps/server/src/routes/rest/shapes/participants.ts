import { z } from "zod";
import { PARTICIPANT_GROUPS } from "@tafsiri/domain";
import type { RouterOutputs } from "@tafsiri/api";

type ParticipantBrief = NonNullable<RouterOutputs["participants"]["linkAudio"]["participant"]>;

/** One problem of a refused CSV import: the CSV line (the header is line 1) and what is wrong. */
const ZRestImportProblem = z.object({ line: z.number().int(), message: z.string() });

/** 400 of POST /api/participants/import: the failure body, with every problem when rows failed. */
export const ZRestImportRefused = z
  .object({
    status: z.literal("failed"),
    success: z.literal(false),
    message: z.string(),
    problems: z.array(ZRestImportProblem).optional(),
  })
  .meta({
    examples: [
      {
        status: "failed",
        success: false,
        message: "The CSV file has 2 problems; nothing was imported.",
        problems: [
          { line: 3, message: "group: Group must be Control or Dementia." },
          { line: 7, message: "The code P0042 is also on line 2." },
        ],
      },
    ],
  });

/** A participant as staff see it on an audio: code, group, age in months at the session. */
export const ZRestParticipantBrief = z
  .object({ code: z.string(), group: z.enum(PARTICIPANT_GROUPS), age_months_at_recording: z.number().int().nullable() })
  .nullable();

/** The REST brief of a procedure's ZParticipantBrief. */
export function restParticipantBrief(brief: ParticipantBrief | null): z.output<typeof ZRestParticipantBrief> {
  return brief && { code: brief.code, group: brief.group, age_months_at_recording: brief.ageMonthsAtRecording };
}

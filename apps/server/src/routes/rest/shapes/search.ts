import { z } from "zod";
import type { RouterOutputs } from "@tafsiri/api";
import { EXAMPLE_ID, EXAMPLE_USER_ID, ZRestDurationSeconds, ZRestUserRef, restUserRef } from "./common";
import { CATEGORIES } from "@tafsiri/domain";

type AudioSearchResult = RouterOutputs["search"]["audios"][number];

/**
 * SPEC §3 Audio in search results: `{ _id, filename, category, duration_seconds, task: { _id,
 * assigned_to } | null }`; duration_seconds is null while the length is not known.
 */
export const ZRestSearchResult = z.object({
  _id: z.string(),
  filename: z.string(),
  category: z.enum(CATEGORIES),
  duration_seconds: ZRestDurationSeconds,
  task: z.object({ _id: z.string(), assigned_to: ZRestUserRef }).nullable(),
});

/** The answer of GET /api/search: the matching audios (at most 20). */
export const ZRestSearchResults = z.array(ZRestSearchResult).meta({
  examples: [
    [
      {
        _id: "3c1d7e9a-2b4f-4a6c-8e0d-9f1a2b3c4d5e",
        filename: "interview-07",
        category: "Control",
        duration_seconds: 245.3,
        task: { _id: EXAMPLE_ID, assigned_to: { _id: EXAMPLE_USER_ID, username: "amina" } },
      },
    ],
  ],
});

/** `?q=`: the keyword; left out or blank, the answer is []. */
export const ZSearchQuery = z.object({
  q: z
    .string()
    .optional()
    .meta({ examples: ["interview"] }),
});

/** The REST search result of a procedure's result. */
export function restSearchResult(result: AudioSearchResult): z.output<typeof ZRestSearchResult> {
  return {
    _id: result.id,
    filename: result.filename,
    category: result.category,
    duration_seconds: result.durationSeconds,
    task: result.task ? { _id: result.task.id, assigned_to: restUserRef(result.task.assignedTo) } : null,
  };
}

import { z } from "zod";
import { ZUserRef } from "./common";

/** What a review decided (decision 025). */
const ZReviewAction = z.enum(["approve", "reject"]);

/** One review of a transcript version: who decided what, when (ISO time) and why (a rejection's reason or null). */
const ZVersionReview = z.object({
  action: ZReviewAction,
  /** Null when the reviewer's account no longer exists. */
  reviewer: ZUserRef.nullable(),
  reviewedAt: z.string(),
  reason: z.string().nullable(),
});

/** One saved transcript version: its .cha file name, when (ISO) and by whom it was saved, its reviews newest first. */
const ZTranscriptVersionEntry = z.object({
  id: z.string(),
  fileName: z.string(),
  savedAt: z.string(),
  savedBy: ZUserRef.nullable(),
  /** The version the submission names now. */
  current: z.boolean(),
  reviews: z.array(ZVersionReview),
});

/**
 * Decision 025: a transcript's version history (newest first, at most TRANSCRIPT_HISTORY_LIMIT) and
 * what the word-level diff compares: `lastReviewed`, the version the newest review judged (null when
 * never reviewed, or when that version is still the current one: nothing changed since), and
 * `current`, the version the submission names now (null when there is none).
 */
export const ZTranscriptHistory = z.object({
  versions: z.array(ZTranscriptVersionEntry),
  lastReviewed: z
    .object({
      versionId: z.string(),
      text: z.string(),
      savedAt: z.string(),
      review: ZVersionReview,
    })
    .nullable(),
  current: z.object({ versionId: z.string(), text: z.string() }).nullable(),
});
export type TranscriptHistory = z.infer<typeof ZTranscriptHistory>;

/** The most versions the history lists (the newest ones). */
export const TRANSCRIPT_HISTORY_LIMIT = 200;

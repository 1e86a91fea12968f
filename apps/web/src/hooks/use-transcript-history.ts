import { useEffect, useRef } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import type { RouterOutputs } from "@tafsiri/api";
import { useTRPC } from "#web/lib/trpc";

/** `transcripts.history` (decision 025): an audio's transcript versions, the current text and the version last reviewed. */
export type TranscriptHistory = RouterOutputs["transcripts"]["history"];
/** One saved transcript version with its reviews. */
export type TranscriptVersionEntry = TranscriptHistory["versions"][number];
/** One approval or rejection of a transcript version. */
export type TranscriptVersionReview = TranscriptVersionEntry["reviews"][number];

/**
 * SPEC §8 'Error fetching transcript:', the console's message for a failed `transcripts.get`. Every
 * screen reading an audio's transcript passes it as the query's meta, so the query logs it whichever
 * of its readers rendered last.
 */
export const TRANSCRIPT_FETCH_FAILED = "Error fetching transcript:";

/**
 * Decision 025: the transcript history of `audioId` (admins only; `enabled` false fetches nothing,
 * e.g. for staff). It follows the same live events as the transcript: whenever the audio's
 * `transcripts.get` is fetched again (a save, a review or a deletion, by anyone, arrives as an
 * 'audio.changed' event), the history is fetched again too.
 */
export function useTranscriptHistory(audioId: string, enabled = true) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const input = { audioId };
  const transcript = useQuery({
    ...trpc.transcripts.get.queryOptions(input),
    enabled,
    meta: { errorMessage: TRANSCRIPT_FETCH_FAILED },
  });
  const history = useQuery({ ...trpc.transcripts.history.queryOptions(input), enabled });
  const seen = useRef(transcript.dataUpdatedAt);
  const updatedAt = transcript.dataUpdatedAt;
  useEffect(() => {
    const before = seen.current;
    seen.current = updatedAt;
    // The first answer comes with the history's own first fetch; later ones mean something changed.
    if (!enabled || before === 0 || before === updatedAt) return;
    void queryClient.invalidateQueries({ queryKey: trpc.transcripts.history.queryKey({ audioId }) });
  }, [audioId, enabled, queryClient, trpc, updatedAt]);
  return history;
}

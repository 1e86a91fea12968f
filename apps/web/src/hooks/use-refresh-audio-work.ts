import { useCallback } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "#web/lib/trpc";

/**
 * Refetches everything a transcript or recording change affects: the transcript, the recording,
 * the audio (its task statuses) and the task lists.
 */
export function useRefreshAudioWork(): () => void {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return useCallback(() => {
    for (const queryKey of [
      trpc.transcripts.pathKey(),
      trpc.recordings.pathKey(),
      trpc.audios.pathKey(),
      trpc.tasks.pathKey(),
    ]) {
      void queryClient.invalidateQueries({ queryKey });
    }
  }, [queryClient, trpc]);
}

import { useEffect, useState } from "react";
import { skipToken, useQuery } from "@tanstack/react-query";
import { toast } from "sonner";
import { getCurrentAudioId } from "../../../lib/current-audio";
import { errorMessage, useTRPC } from "../../../lib/trpc";

/**
 * The current audio of the audiomanagement screens (SPEC §2.1: its id is kept in local storage).
 * `audioId` is null when none was selected. A failed load toasts 'Error fetching audio details' (SPEC §8).
 */
export function useCurrentAudio() {
  const [audioId] = useState(getCurrentAudioId);
  const trpc = useTRPC();
  const query = useQuery(trpc.audios.get.queryOptions(audioId ? { audioId } : skipToken));

  useEffect(() => {
    if (!query.error) return;
    console.error("Error fetching audio details", query.error);
    toast.error("Error fetching audio details", { id: "audio-details-error", description: errorMessage(query.error) });
  }, [query.error]);

  return { audioId, query };
}

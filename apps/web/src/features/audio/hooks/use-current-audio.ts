import { useEffect, useState } from "react";
import { useLocation } from "react-router";
import { skipToken, useQuery } from "@tanstack/react-query";
import { toast } from "sonner";
import { getCurrentAudioId } from "#web/lib/current-audio";
import { errorMessage, useTRPC } from "#web/lib/trpc";

/** SPEC §8: a failed load of the current audio, logged (the query's meta) and toasted. */
const AUDIO_FETCH_FAILED = "Error fetching audio details";

/**
 * The current audio of the audiomanagement screens (SPEC §2.1: its id is kept in local storage).
 * `audioId` is null when none was selected. A failed load toasts 'Error fetching audio details' (SPEC §8).
 */
export function useCurrentAudio() {
  // Read again on each navigation: a bell entry about another audio may lead to this same screen.
  const { key } = useLocation();
  const [current, setCurrent] = useState(() => ({ key, audioId: getCurrentAudioId() }));
  if (current.key !== key) setCurrent({ key, audioId: getCurrentAudioId() });
  const { audioId } = current;
  const trpc = useTRPC();
  const query = useQuery({
    ...trpc.audios.get.queryOptions(audioId ? { audioId } : skipToken),
    meta: { errorMessage: AUDIO_FETCH_FAILED },
  });

  useEffect(() => {
    if (!query.error) return;
    toast.error(AUDIO_FETCH_FAILED, { id: "audio-details-error", description: errorMessage(query.error) });
  }, [query.error]);

  return { audioId, query };
}

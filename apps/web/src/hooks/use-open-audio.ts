import { useCallback } from "react";
import { useNavigate } from "react-router";
import { useQueryClient } from "@tanstack/react-query";
import { setCurrentAudioId } from "#web/lib/current-audio";
import { useSession } from "./use-session";
import { useTRPC, useTRPCClient } from "#web/lib/trpc";
import { paths } from "#web/config/paths";

/**
 * Selecting an audio (SPEC §2.1, §4), from a task card or a recommended-recording card: stores its
 * id as the current audio, and for an Admin records the opening (audios.markOpened, fire and
 * forget: a failure is only logged), then goes to /audiomanagement/audiocontrol.
 */
export function useOpenAudio(): (audioId: string) => void {
  const session = useSession();
  const navigate = useNavigate();
  const trpc = useTRPC();
  const client = useTRPCClient();
  const queryClient = useQueryClient();
  const isAdmin = session?.role === "Admin";

  return useCallback(
    (audioId: string) => {
      setCurrentAudioId(audioId);
      if (isAdmin) {
        client.audios.markOpened
          .mutate({ audioId })
          .then(() => queryClient.invalidateQueries({ queryKey: trpc.audios.get.queryKey({ audioId }) }))
          .catch((error: unknown) => console.error("Failed to record the opening of the audio", error));
      }
      void navigate(paths.audio);
    },
    [client, isAdmin, navigate, queryClient, trpc],
  );
}

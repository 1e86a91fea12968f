import { useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "#web/lib/trpc";

/** A function that refetches every participants query (list, a participant, their audios, the balance) after a change. */
export function useInvalidateParticipants(): () => Promise<void> {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries(trpc.participants.pathFilter());
}

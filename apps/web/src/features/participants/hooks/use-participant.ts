import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "#web/lib/trpc";

/** `participants.get` of `participantId` (decision 024): the participant's page and its title share this query. */
export function useParticipant(participantId: string) {
  const trpc = useTRPC();
  return useQuery(trpc.participants.get.queryOptions({ participantId }));
}

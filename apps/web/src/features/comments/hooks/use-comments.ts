import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "#web/lib/trpc";

/** SPEC §8: a failed load of the comments, logged (meta) and shown by the Feedback panel. */
export const COMMENTS_FETCH_FAILED = "Error fetching comments";

/**
 * The comments of an audio (SPEC §2.14), oldest first, and the mutation adding one. A successful
 * add refetches the list at once; everyone else's copy follows through the live 'audio.changed'
 * event (see features/live).
 */
export function useComments(audioId: string) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const listOptions = trpc.comments.list.queryOptions({ audioId });
  const list = useQuery({ ...listOptions, meta: { errorMessage: COMMENTS_FETCH_FAILED } });
  const add = useMutation(
    trpc.comments.add.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: listOptions.queryKey }),
    }),
  );
  return { list, add };
}

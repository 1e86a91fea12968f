import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "#web/lib/trpc";

/** The programme's translation settings (`translation.settings`, decision 035): languages and the two rules. */
export function useTranslationSettings() {
  const trpc = useTRPC();
  return useQuery({
    ...trpc.translation.settings.queryOptions(),
    meta: { errorMessage: "Failed to load the translation settings." },
  });
}

/**
 * Saves the programme's translation settings whole (`translation.setSettings`, decision 035);
 * on success the settings query holds what the server stored (repeated codes kept once).
 */
export function useSaveTranslationSettings() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return useMutation(
    trpc.translation.setSettings.mutationOptions({
      onSuccess: async ({ settings }) => {
        queryClient.setQueryData(trpc.translation.settings.queryKey(), settings);
        await queryClient.invalidateQueries(trpc.translation.settings.pathFilter());
      },
    }),
  );
}

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "#web/lib/trpc";
import type { LanguagePair } from "#web/features/translation-admin/lib/translation-types";

/** The glossary of `pair` by source term (`translation.glossary`, decision 035). */
export function useGlossary(pair: LanguagePair) {
  const trpc = useTRPC();
  return useQuery({
    ...trpc.translation.glossary.queryOptions(pair),
    meta: { errorMessage: "Failed to load the glossary." },
  });
}

/** A function that reads every glossary again after a change (an added, imported or removed term). */
export function useInvalidateGlossary(): () => Promise<void> {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries(trpc.translation.glossary.pathFilter());
}

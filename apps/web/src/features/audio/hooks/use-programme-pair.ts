import { useQuery } from "@tanstack/react-query";
import type { LanguagePair } from "@tafsiri/domain";
import { useTRPC } from "#web/lib/trpc";

/**
 * Decision 035: the programme's language pair (its first source language and its target language,
 * from `translation.settings`), which an audio without languages of its own is translated in;
 * null while loading or when it could not be read.
 */
export function useProgrammePair(): LanguagePair | null {
  const trpc = useTRPC();
  const settings = useQuery(trpc.translation.settings.queryOptions());
  const source = settings.data?.sourceLanguages[0];
  return source && settings.data ? { source, target: settings.data.targetLanguage } : null;
}

import { useQuery } from "@tanstack/react-query";
import type { RouterOutputs } from "@tafsiri/api";
import { useTRPC } from "#web/lib/trpc";
import { useDebouncedValue } from "./use-debounced-value";

/** One answer of `search.audios`: the audio, its category and its task's assignee (null when unassigned). */
export type AudioSearchResult = RouterOutputs["search"]["audios"][number];

/** How long typing must pause before the keyword is sent (ms). */
const SEARCH_DEBOUNCE_MS = 250;

/**
 * What the search dialog shows for a keyword: `idle` (blank keyword: no result, nothing asked),
 * `searching` (waiting for the pause in typing or for the server; `results` are those of the
 * previous keyword meanwhile), `done` (the server's answer, possibly empty) or `failed`.
 */
export interface AudioSearch {
  state: "idle" | "searching" | "done" | "failed";
  /** The keyword the results answer (trimmed); "" when none. */
  term: string;
  results: readonly AudioSearchResult[];
}

const NO_RESULTS: readonly AudioSearchResult[] = [];

/**
 * The header search (SPEC §2.3, §5): asks `search.audios` for the trimmed keyword once typing has
 * paused for SEARCH_DEBOUNCE_MS. A blank keyword clears the results and sends no request. The
 * server limits Staff to audios assigned to them. A failed search is only logged (SPEC §8).
 */
export function useAudioSearch(keyword: string): AudioSearch {
  const trpc = useTRPC();
  const term = keyword.trim();
  const debounced = useDebouncedValue(term, SEARCH_DEBOUNCE_MS);
  const query = useQuery({
    ...trpc.search.audios.queryOptions({ q: debounced }),
    enabled: debounced !== "",
    meta: { errorMessage: "Search failed" },
  });

  if (term === "") return { state: "idle", term: "", results: NO_RESULTS };
  const results = debounced !== "" && query.data ? query.data : NO_RESULTS;
  const resultTerm = results === NO_RESULTS ? "" : debounced;
  if (term !== debounced || query.isFetching || query.isPending)
    return { state: "searching", term: resultTerm, results };
  if (query.isError) return { state: "failed", term: "", results: NO_RESULTS };
  return { state: "done", term: debounced, results };
}

import { z } from "zod";
import { SEARCH_KEYWORD_MAX_LENGTH, SEARCH_KEYWORD_TOO_LONG } from "@tafsiri/domain";
import { ZCategory, ZDurationSeconds, ZUserRef } from "./common";

/** SPEC §2.3, §5: the search keyword; empty or blank answers no result. */
export const ZSearchInput = z.object({
  q: z.string({ error: "Search keyword must be text." }).max(SEARCH_KEYWORD_MAX_LENGTH, SEARCH_KEYWORD_TOO_LONG),
});
export type SearchInput = z.infer<typeof ZSearchInput>;

/** SPEC §3 Audio in search results: the audio and its task (null when unassigned) with its assignee. */
const ZAudioSearchResult = z.object({
  id: z.string(),
  filename: z.string(),
  category: ZCategory,
  /** Seconds; null while not known yet. */
  durationSeconds: ZDurationSeconds,
  task: z.object({ id: z.string(), assignedTo: ZUserRef.nullable() }).nullable(),
});
export type AudioSearchResult = z.infer<typeof ZAudioSearchResult>;
export const ZAudioSearchResults = z.array(ZAudioSearchResult);

import { searchAudios, SEARCH_LIMIT } from "@tafsiri/db/repositories/search";
import type { AppDeps, SessionUser } from "../context";
import type { AudioSearchResult, SearchInput } from "../schemas/search";

/**
 * SPEC §2.3, §5 search: up to 20 audios whose filename contains the keyword (case-insensitive,
 * any part; `%` and `_` are literal), prefix matches first, then by filename. Staff find only
 * audios whose task is assigned to them, admins all. A blank keyword answers [] without a query.
 */
export async function searchAudioFiles(
  deps: AppDeps,
  user: SessionUser,
  input: SearchInput,
): Promise<AudioSearchResult[]> {
  const keyword = input.q.trim();
  if (keyword === "") return [];
  return searchAudios(deps.db, {
    keyword,
    staffId: user.role === "Admin" ? null : user.id,
    limit: SEARCH_LIMIT,
  });
}

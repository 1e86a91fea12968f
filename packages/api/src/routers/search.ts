import { authedProcedure, router } from "../trpc";
import { ZAudioSearchResults, ZSearchInput } from "../schemas/search";
import { searchAudioFiles } from "../services/search";

export const searchRouter = router({
  /**
   * SPEC §2.3, §5 header search: up to 20 audios whose filename contains `q` (case-insensitive),
   * prefix matches first; staff only audios assigned to them, admins all; blank `q` → [].
   */
  audios: authedProcedure
    .input(ZSearchInput)
    .output(ZAudioSearchResults)
    .query(({ ctx, input }) => searchAudioFiles(ctx, ctx.user, input)),
});

import { z } from "zod";
import { adminProcedure, authedProcedure, router } from "../trpc";
import {
  ZAudioDetail,
  ZAudioIdInput,
  ZDeleteAudioOutput,
  ZListAudiosInput,
  ZManagedAudioPage,
  ZUnassignedAudioPage,
} from "../schemas/audios";
import { ZCategory, ZPageInput } from "../schemas/common";
import { deleteAudio, getAudio, listManagedAudios, listUnassigned, markAudioOpened } from "../services/audios";

export const audiosRouter = router({
  /** SPEC §2.11: one audio the caller may see (staff: assigned or recommended to them). NOT_FOUND / FORBIDDEN otherwise. */
  get: authedProcedure
    .input(ZAudioIdInput)
    .output(ZAudioDetail)
    .query(({ ctx, input }) => getAudio(ctx, ctx.user, input.audioId)),
  /** SPEC §4: selecting an audio; for admins records lastOpenedBy/timeLastOpened, for staff does nothing. */
  markOpened: authedProcedure
    .input(ZAudioIdInput)
    .output(z.object({ ok: z.boolean() }))
    .mutation(({ ctx, input }) => markAudioOpened(ctx, ctx.user, input.audioId)),
  /** SPEC §2.18 Manage Audios: audios of a category with their task and duration (seconds, null while not known), newest first, paginated in SQL. */
  list: adminProcedure
    .input(ZListAudiosInput)
    .output(ZManagedAudioPage)
    .query(({ ctx, input }) => listManagedAudios(ctx, ctx.user, input)),
  /** SPEC §2.17 Assign Tasks: audios of a category without a task, by filename, with their duration (seconds, null while not known). */
  unassigned: adminProcedure
    .input(ZPageInput.extend({ category: ZCategory, limit: z.number().int().min(1).max(200).default(100) }))
    .output(ZUnassignedAudioPage)
    .query(({ ctx, input }) => listUnassigned(ctx, ctx.user, input)),
  /** SPEC §2.18 Delete: removes the audio, its task, submission, comments, recommendations and files. */
  delete: adminProcedure
    .input(ZAudioIdInput)
    .output(ZDeleteAudioOutput)
    .mutation(({ ctx, input }) => deleteAudio(ctx, ctx.user, input.audioId)),
});

import { z } from "zod";
import { adminProcedure, router } from "../trpc";
import {
  ZBalance,
  ZImportParticipantsInput,
  ZImportParticipantsResult,
  ZLinkAudioInput,
  ZLinkAudioResult,
  ZListParticipantsInput,
  ZParticipant,
  ZParticipantAudio,
  ZParticipantFields,
  ZParticipantIdInput,
  ZParticipantListPage,
  ZParticipantsCsv,
  ZUpdateParticipantInput,
} from "../schemas/participants";
import {
  createParticipant,
  getParticipant,
  linkAudio,
  listParticipantPage,
  participantAudios,
  participantBalance,
  updateParticipant,
} from "../services/participants";
import { exportParticipantsCsv, importParticipantsCsv } from "../services/participants-csv";

/** Research participants (decision 024): Admin only (FORBIDDEN otherwise). */
export const participantsRouter = router({
  /** `{ search?, group?, consent?, page, limit }` → `{ items, total, totalPages }`, by code; search is a code prefix, any case. */
  list: adminProcedure
    .input(ZListParticipantsInput)
    .output(ZParticipantListPage)
    .query(({ ctx, input }) => listParticipantPage(ctx, ctx.user, input)),
  /** `{ participantId }` → the participant (age today in months, audio count). NOT_FOUND 'Participant not found.'. */
  get: adminProcedure
    .input(ZParticipantIdInput)
    .output(ZParticipant)
    .query(({ ctx, input }) => getParticipant(ctx, ctx.user, input.participantId)),
  /** ZParticipantFields → the new participant. CONFLICT for a code taken whatever its case. */
  create: adminProcedure
    .input(ZParticipantFields)
    .output(ZParticipant)
    .mutation(({ ctx, input }) => createParticipant(ctx, ctx.user, input)),
  /** `{ participantId, ...ZParticipantFields }` → the participant. CONFLICT for a taken code or a group its audios contradict. */
  update: adminProcedure
    .input(ZUpdateParticipantInput)
    .output(ZParticipant)
    .mutation(({ ctx, input }) => updateParticipant(ctx, ctx.user, input)),
  /** `{ participantId }` → its linked audios, newest session first. */
  audios: adminProcedure
    .input(ZParticipantIdInput)
    .output(z.array(ZParticipantAudio))
    .query(({ ctx, input }) => participantAudios(ctx, ctx.user, input.participantId)),
  /** `{ csv }` → `{ created, updated, problems }`: all rows or none; every problem with its CSV line. */
  importCsv: adminProcedure
    .input(ZImportParticipantsInput)
    .output(ZImportParticipantsResult)
    .mutation(({ ctx, input }) => importParticipantsCsv(ctx, ctx.user, input.csv)),
  /** → `{ csv }`: every participant with the import's columns, by code. */
  exportCsv: adminProcedure.output(ZParticipantsCsv).query(({ ctx }) => exportParticipantsCsv(ctx, ctx.user)),
  /** → `{ rows }`: participants and approved recordings per group × sex × age band, zeros included. */
  balance: adminProcedure.output(ZBalance).query(({ ctx }) => participantBalance(ctx, ctx.user)),
  /**
   * `{ audioId, participantId | null, sessionDate }` → `{ audioId, participant, sessionDate }`: links
   * (or, with null, unlinks) an audio. BAD_REQUEST when its category and the participant's group differ.
   */
  linkAudio: adminProcedure
    .input(ZLinkAudioInput)
    .output(ZLinkAudioResult)
    .mutation(({ ctx, input }) => linkAudio(ctx, ctx.user, input)),
});

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
  ZParticipantSaved,
  ZParticipantsCsv,
  ZUpdateParticipantInput,
} from "../schemas/participants";
import {
  createParticipant,
  getParticipant,
  listParticipantPage,
  participantAudios,
  participantBalance,
  updateParticipant,
} from "../services/participants";
import { exportParticipantsCsv, importParticipantsCsv } from "../services/participants-csv";
import { linkAudio } from "../services/audio-participants";
import { ZSpeechMeasures } from "../schemas/speech-measures";
import { speechMeasuresReport } from "../services/speech-measures";

const PARTICIPANTS = ["Participants"];
const ADMIN_ONLY = "401 without a session, 403 for staff.";

/** Research participants (decision 024): Admin only (FORBIDDEN otherwise). */
export const participantsRouter = router({
  /** `{ search?, group?, consent?, page, limit }` → `{ items, total, totalPages }`, by code; search is a code prefix, any case. */
  list: adminProcedure
    .meta({
      rest: {
        method: "GET",
        path: "/api/participants",
        summary: "List participants",
        description:
          'ARCHITECTURE "Long recordings and the corpus", decision 024. Participants ordered by code, with each ' +
          "one's age today in months and number of linked audios; `search` is a code prefix whatever its case, " +
          `\`group\` and \`consent\` filter. 400 for a bad filter. ${ADMIN_ONLY}`,
        tags: PARTICIPANTS,
        snakeCase: true,
        list: { key: "participants", defaultLimit: 20 },
      },
    })
    .input(ZListParticipantsInput)
    .output(ZParticipantListPage)
    .query(({ ctx, input }) => listParticipantPage(ctx, ctx.user, input)),
  /** `{ participantId }` → the participant (age today in months, audio count). NOT_FOUND 'Participant not found.'. */
  get: adminProcedure
    .meta({
      rest: {
        method: "GET",
        path: "/api/participants/:id",
        params: { id: "participantId" },
        summary: "Get a participant",
        description: `ARCHITECTURE "Long recordings and the corpus", decision 024. One participant. 400 'Unknown id.', 404 'Participant not found.'. ${ADMIN_ONLY}`,
        tags: PARTICIPANTS,
        snakeCase: true,
      },
    })
    .input(ZParticipantIdInput)
    .output(ZParticipant)
    .query(({ ctx, input }) => getParticipant(ctx, ctx.user, input.participantId)),
  /** ZParticipantFields → `{ message, participant }`, the new participant. CONFLICT for a code taken whatever its case. */
  create: adminProcedure
    .meta({
      rest: {
        method: "POST",
        path: "/api/participants",
        summary: "Record a participant",
        description:
          'ARCHITECTURE "Long recordings and the corpus", decision 024. A pseudonymous code (1 to 20 letters, ' +
          "digits, '_' or '-'; never a name), the group, and optionally sex, birth_date or age_months (with " +
          "age_recorded_on, today when left out), education_years, languages (ISO 639-3), scores (MMSE, MoCA: 0 " +
          "to 30), notes (at most 5,000 characters), consent_status and consent_date. Answers 201. 400 with the " +
          "first failing field's message, 409 'A participant with the code P0042 already exists.' (any case). " +
          ADMIN_ONLY,
        tags: PARTICIPANTS,
        snakeCase: true,
        status: 201,
        done: true,
      },
    })
    .input(ZParticipantFields)
    .output(ZParticipantSaved)
    .mutation(({ ctx, input }) => createParticipant(ctx, ctx.user, input)),
  /** `{ participantId, ...ZParticipantFields }` → `{ message, participant }`. CONFLICT for a taken code or a group its audios contradict. */
  update: adminProcedure
    .meta({
      rest: {
        method: "PUT",
        path: "/api/participants/:id",
        params: { id: "participantId" },
        summary: "Edit a participant",
        description:
          'ARCHITECTURE "Long recordings and the corpus", decision 024. Replaces every field (as POST). Changing ' +
          "the consent to withdrawn supersedes the exports that hold the participant. 400, 404, 409 for a code " +
          "another participant has or a group its linked audios contradict ('Participant P0042 has Control " +
          `audios; their category must change first.'). ${ADMIN_ONLY}`,
        tags: PARTICIPANTS,
        snakeCase: true,
        done: true,
      },
    })
    .input(ZUpdateParticipantInput)
    .output(ZParticipantSaved)
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
   * Decision 035, "Speech measures": → `{ speaker: 'PAR', rows }`, per group × measure of PAR on the
   * original audio (speaking time ms, speaking-time ratio 0–1, pauses ≥ 250 ms per recording, mean
   * pause ms, response latency ms, segments per minute): n, mean, SD, median, q1, q3, IQR; n 0 and
   * null figures where nothing is measured. FORBIDDEN for staff.
   */
  measures: adminProcedure.output(ZSpeechMeasures).query(({ ctx }) => speechMeasuresReport(ctx, ctx.user)),
  /**
   * `{ audioId, participantId | null, sessionDate }` → `{ audioId, participant, sessionDate }`: links
   * (or, with null, unlinks) an audio. BAD_REQUEST when its category and the participant's group differ.
   */
  linkAudio: adminProcedure
    .meta({
      rest: {
        method: "POST",
        path: "/api/audios/:id/participant",
        params: { id: "audioId" },
        summary: "Link an audio to a participant",
        description:
          'ARCHITECTURE "Long recordings and the corpus", decision 024. Links the audio to a participant and a ' +
          "session day (`participant_id` null unlinks it). 400 'This audio is labelled Control but participant " +
          "P0042 is in the Dementia group.' (nothing changed), 'Unknown id.'; 404 for an unknown audio or " +
          `participant. ${ADMIN_ONLY}`,
        tags: ["Audios", ...PARTICIPANTS],
        snakeCase: true,
        done: true,
      },
    })
    .input(ZLinkAudioInput)
    .output(ZLinkAudioResult)
    .mutation(({ ctx, input }) => linkAudio(ctx, ctx.user, input)),
});

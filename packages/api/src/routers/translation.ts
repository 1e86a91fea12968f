import { z } from "zod";
import { adminProcedure, authedProcedure, router } from "../trpc";
import { ZAudioIdInput, ZId } from "../schemas/common";
import { ZSaveTranscriptOutput } from "../schemas/transcripts";
import {
  ZAddGlossaryTermInput,
  ZAudioLanguagesInput,
  ZConfirmSpansInput,
  ZExportedFile,
  ZGlossaryExportInput,
  ZGlossaryTerm,
  ZImportInput,
  ZLanguagePair,
  ZMemoryMatch,
  ZMemoryMatchesInput,
  ZProposedSpans,
  ZSaveSegmentsInput,
  ZRedoTakesInput,
  ZSegmentGrid,
  ZSegmentIdInput,
  ZTakesOutput,
  ZTranslationSettings,
} from "../schemas/translation";
import { askTakeRedo, assembleTakes, listSegmentTakes, removeTake } from "../translation/takes";
import { confirmSpans, proposeSpans } from "../translation/span-matching";
import {
  getTranslationSettings,
  setAudioLanguages,
  updateTranslationSettings,
} from "../translation/translation-settings";
import { getSegmentGrid, saveSegmentDraft, submitSegments } from "../translation/segment-grid";
import { exportMemory, findMatches, importMemory } from "../translation/memory";
import {
  addGlossaryTerm,
  exportGlossary,
  getGlossary,
  importGlossary,
  removeGlossaryTerm,
} from "../translation/glossary";

const ZMessage = z.object({ message: z.string() });
const ZAssembled = ZMessage.extend({ status: z.string(), durationMs: z.number() });

/** Decision 035: translating segment by segment: languages, the segment grid, the memory and the glossary. */
export const translationRouter = router({
  /** The programme's translation settings (languages, who writes the source, CHAT markers kept). */
  settings: authedProcedure.output(ZTranslationSettings).query(({ ctx }) => getTranslationSettings(ctx)),
  /** Admin: stores the programme's translation settings whole → `{ message, settings }`. */
  setSettings: adminProcedure
    .input(ZTranslationSettings)
    .output(ZMessage.extend({ settings: ZTranslationSettings }))
    .mutation(({ ctx, input }) => updateTranslationSettings(ctx, ctx.user, input)),
  /** Admin: an audio's own languages (null: the programme's) → `{ message, pair }`. NOT_FOUND 'Audio not found.'. */
  setAudioLanguages: adminProcedure
    .input(ZAudioLanguagesInput)
    .output(ZMessage.extend({ pair: ZLanguagePair }))
    .mutation(({ ctx, input }) => setAudioLanguages(ctx, ctx.user, input)),
  /** The segment grid of an audio the caller may see (getSegmentGrid). NOT_FOUND / FORBIDDEN as transcripts.get. */
  segments: authedProcedure
    .input(ZAudioIdInput)
    .output(ZSegmentGrid)
    .query(({ ctx, input }) => getSegmentGrid(ctx, ctx.user, input.audioId)),
  /** Keeps the grid's rows as a draft → `{ message, changed }` (saveSegmentDraft's rules and errors). */
  saveDraft: authedProcedure
    .input(ZSaveSegmentsInput)
    .output(ZMessage.extend({ changed: z.number().int() }))
    .mutation(({ ctx, input }) => saveSegmentDraft(ctx, ctx.user, input)),
  /** SPEC §4 Save from the grid: the checks, then the transcript file → as transcripts.save (submitSegments). */
  submit: authedProcedure
    .input(ZSaveSegmentsInput)
    .output(ZSaveTranscriptOutput)
    .mutation(({ ctx, input }) => submitSegments(ctx, ctx.user, input)),
  /** The best three memory matches of a source for an audio the caller may see (findMatches). */
  matches: authedProcedure
    .input(ZMemoryMatchesInput)
    .output(z.array(ZMemoryMatch))
    .query(({ ctx, input }) => findMatches(ctx, ctx.user, input)),
  /** Admin: imports a TMX file's units of a pair → `{ message, imported }`. */
  importMemory: adminProcedure
    .input(ZImportInput)
    .output(ZMessage.extend({ imported: z.number().int() }))
    .mutation(({ ctx, input }) => importMemory(ctx, ctx.user, input)),
  /** Admin: the memory of a pair as TMX 1.4b → `{ fileName, contentType, content }`. */
  exportMemory: adminProcedure
    .input(ZLanguagePair)
    .output(ZExportedFile.extend({ count: z.number().int() }))
    .query(({ ctx, input }) => exportMemory(ctx, ctx.user, input)),
  /** The glossary of a pair, for every signed-in user. */
  glossary: authedProcedure
    .input(ZLanguagePair)
    .output(z.array(ZGlossaryTerm))
    .query(({ ctx, input }) => getGlossary(ctx, input)),
  /** Admin: adds a term (or a new note to one) → `{ message }`. */
  addTerm: adminProcedure
    .input(ZAddGlossaryTermInput)
    .output(ZMessage)
    .mutation(({ ctx, input }) => addGlossaryTerm(ctx, ctx.user, input)),
  /** Admin: removes a term → `{ message }`. NOT_FOUND 'Glossary term not found.'. */
  removeTerm: adminProcedure
    .input(z.object({ id: ZId }))
    .output(ZMessage)
    .mutation(({ ctx, input }) => removeGlossaryTerm(ctx, ctx.user, input.id)),
  /** Admin: imports a CSV or TBX glossary into a pair → `{ message, added, updated }`. */
  importGlossary: adminProcedure
    .input(ZImportInput)
    .output(ZMessage.extend({ added: z.number().int(), updated: z.number().int() }))
    .mutation(({ ctx, input }) => importGlossary(ctx, ctx.user, input)),
  /** Admin: the glossary of a pair as CSV or TBX → `{ fileName, contentType, content }`. */
  exportGlossary: adminProcedure
    .input(ZGlossaryExportInput)
    .output(ZExportedFile)
    .query(({ ctx, input }) => exportGlossary(ctx, ctx.user, input)),
  /** Decision 035, oral translation: an audio's takes and their checks (listSegmentTakes). NOT_FOUND / FORBIDDEN as transcripts.get. */
  takes: authedProcedure
    .input(ZAudioIdInput)
    .output(ZTakesOutput)
    .query(({ ctx, input }) => listSegmentTakes(ctx, ctx.user, input.audioId)),
  /** Removes a grid row's take → `{ message }` (removeTake's errors). Takes are stored by `POST /api/translation/takes/{segmentId}`. */
  removeTake: authedProcedure
    .input(ZSegmentIdInput)
    .output(ZMessage)
    .mutation(({ ctx, input }) => removeTake(ctx, ctx.user, input.segmentId)),
  /** Makes the translated recording from the takes → `{ status, message, durationMs }` (assembleTakes' errors). */
  assembleTakes: authedProcedure
    .input(ZAudioIdInput)
    .output(ZAssembled)
    .mutation(({ ctx, input }) => assembleTakes(ctx, ctx.user, input.audioId)),
  /**
   * SPEC §2.13, decision 035: each row's span in a whole uploaded recording, proposed by the voice
   * activity detector → `{ recordingDurationMs, spans }` (proposeSpans' errors). Changes nothing.
   */
  proposeSpans: authedProcedure
    .input(ZAudioIdInput)
    .output(ZProposedSpans)
    .query(({ ctx, input }) => proposeSpans(ctx, ctx.user, input.audioId)),
  /** SPEC §2.13, decision 035: stores the spans staff confirm, one per row → `{ message }` (confirmSpans' errors). */
  confirmSpans: authedProcedure
    .input(ZConfirmSpansInput)
    .output(ZMessage)
    .mutation(({ ctx, input }) => confirmSpans(ctx, ctx.user, input)),
  /** Admin: asks for takes to be recorded again, each with a note → `{ message }` (askTakeRedo). */
  redoTakes: adminProcedure
    .input(ZRedoTakesInput)
    .output(ZMessage)
    .mutation(({ ctx, input }) => askTakeRedo(ctx, ctx.user, input)),
});

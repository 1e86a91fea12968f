import {
  chatSegmentSpans,
  MIN_PAUSE_MS,
  paragraphSpans,
  parseTranscript,
  speakerMeasures,
  type SpeakerMeasures,
  type SpeakerSpan,
} from "@tafsiri/domain";
import {
  replaceSpeechMeasures,
  saveStretches,
  stretchesOfFile,
  type StoredStretches,
  type UnmeasuredAudio,
} from "@tafsiri/db/repositories/speech-measures";
import { exportedTranslations } from "@tafsiri/db/repositories/translation/export-segments";
import type { AppDeps } from "../context";
import { StoredFileMissingError } from "../storage/file-storage";
import { SpeechDecodeError } from "../segments/detect-speech";
import { detectSpeechInTurn } from "../segments/suggest-segments";
import type { TranslationSettings } from "../schemas/translation";
import { audioTranslation, type AudioTranslation } from "../export/translation-files";

/**
 * Decision 035, "Speech measures": measuring one recording's original audio. The detector runs
 * with a minimum silence of MIN_PAUSE_MS and no padding, so every gap it leaves between two
 * stretches is a pause candidate of at least that length and no stretch is widened into one.
 */
const MEASURE_SPEECH = { minSilenceMs: MIN_PAUSE_MS, speechPadMs: 0 };

/** The detector's settings as stored with the stretches and written into `measures.csv`'s notes. */
export const MEASURE_VAD = `Silero VAD threshold 0.5; minimum silence ${MIN_PAUSE_MS} ms; no padding`;

/**
 * The speech stretches of an audio's original file `fileKey` of `mimeType`: the stored ones, else
 * a detector run now (queued behind any other, detectSpeechInTurn), stored under the file key (a
 * file that cannot be decoded, or is missing, is stored as failed and not tried again).
 * Rejects with SpeechModelUnavailableError when the model cannot load here, and with a storage or
 * database error as it is; neither is stored.
 */
export async function stretchesOfAudio(
  deps: Pick<AppDeps, "db" | "storage">,
  audio: { audioId: string; fileKey: string; mimeType: string },
): Promise<StoredStretches> {
  const stored = await stretchesOfFile(deps.db, audio.fileKey);
  if (stored) return stored;
  let found: StoredStretches;
  try {
    found = {
      status: "ready",
      stretches: await detectSpeechInTurn(deps.storage, audio.fileKey, audio.mimeType, { speech: MEASURE_SPEECH }),
    };
  } catch (error) {
    if (!(error instanceof SpeechDecodeError || error instanceof StoredFileMissingError)) throw error;
    found = { status: "failed" };
  }
  await saveStretches(deps.db, { fileKey: audio.fileKey, audioId: audio.audioId, vad: MEASURE_VAD, found });
  return found;
}

/**
 * The speaker segments an audio's measures are made of: the spans its exported CHAT file bullets
 * (decision 035): its translated segments' spans (chatSegmentSpans) when it has segments, else its
 * transcript's paragraphs' spans (paragraphSpans); segments without a span are left out. `endsTimed`
 * is true when every kept segment has an end of its own (paragraph spans, and segments without
 * one, run to the next one's start, which says nothing of when the speaker stopped).
 */
function measuredSpans(
  transcriptText: string,
  translation: AudioTranslation,
  durationMs: number | null,
): { spans: SpeakerSpan[]; endsTimed: boolean } {
  const spans: SpeakerSpan[] = [];
  if (translation.segments) {
    let endsTimed = true;
    const chatSpans = chatSegmentSpans(translation.segments, durationMs);
    translation.segments.forEach((segment, i) => {
      const span = chatSpans[i];
      if (!span) return;
      spans.push({ speaker: segment.speaker, ...span });
      if (segment.endMs === null) endsTimed = false;
    });
    return { spans, endsTimed };
  }
  const paragraphs = parseTranscript(transcriptText);
  paragraphSpans(
    paragraphs.map((p) => p.startMs),
    durationMs,
  ).forEach((span, i) => {
    const paragraph = paragraphs[i]!;
    if (span && paragraph.text.trim() !== "") spans.push({ speaker: paragraph.speaker, ...span });
  });
  return { spans, endsTimed: false };
}

/** The measures (speakerMeasures) of an audio from its spans (measuredSpans) and stored stretches. */
export function measuresOf(
  transcriptText: string,
  translation: AudioTranslation,
  durationMs: number | null,
  found: StoredStretches,
): SpeakerMeasures[] {
  const { spans, endsTimed } = measuredSpans(transcriptText, translation, durationMs);
  return speakerMeasures(spans, found.status === "ready" ? found.stretches : null, durationMs, endsTimed);
}

/**
 * Decision 035, "Speech measures": measures the audio `audio` (an approved transcript not yet
 * measured on its file; nextUnmeasuredAudio) and stores its measures per speaker with the
 * transcript version they come from. Its stretches come from stretchesOfAudio (a detector run
 * when its file has none); its segments are those its export writes (audioTranslation with the
 * programme's `settings`, then measuredSpans). Returns 'failed' when its file cannot be decoded
 * (nothing measured), else 'measured'. Rejects as stretchesOfAudio does.
 */
export async function measureAudio(
  deps: Pick<AppDeps, "db" | "storage">,
  audio: UnmeasuredAudio,
  settings: TranslationSettings,
): Promise<"measured" | "failed"> {
  const found = await stretchesOfAudio(deps, audio);
  if (found.status === "failed") return "failed";
  const translation = audioTranslation(
    audio,
    (await exportedTranslations(deps.db, [audio.audioId])).get(audio.audioId),
    settings,
  );
  const durationMs = audio.durationSeconds === null ? null : Math.round(audio.durationSeconds * 1000);
  const measures = measuresOf(audio.transcriptText, translation, durationMs, found);
  await deps.db.transaction().execute((trx) =>
    replaceSpeechMeasures(
      trx,
      {
        audioId: audio.audioId,
        category: audio.category,
        fileKey: audio.fileKey,
        transcriptKey: audio.transcriptKey,
        durationMs,
      },
      measures,
    ),
  );
  return "measured";
}

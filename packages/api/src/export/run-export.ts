import { createHash } from "node:crypto";
import path from "node:path";
import { Readable } from "node:stream";
import {
  exportFileRecords,
  exportSelectionPage,
  exportSelectionSummary,
  failExport,
  finishExport,
  insertExportFiles,
  insertExportParticipants,
  latestFinishedExport,
  setExportContent,
  setExportProgress,
  type ExportedAudio,
  type ExportFileRecord,
  type ExportSelection,
  type LeftOutCounts,
} from "@tafsiri/db/repositories/exports";
import { exportedTranslations, exportTranslationsHash } from "@tafsiri/db/repositories/translation/export-segments";
import { currentRecordingSpans } from "@tafsiri/db/repositories/translation/recording-spans";
import type { Executor } from "@tafsiri/db";
import type { AppDeps } from "../context";
import { recordEvent } from "../live/record";
import { recordWebhookEvent } from "../webhooks/record-webhook-event";
import { StoredFileMissingError } from "../storage/file-storage";
import { chatFile, type ChatSettings, type ChatTranscript } from "@tafsiri/domain";
import { writeDatasetZip, type DatasetFile } from "./dataset-zip";
import { manifestFiles, type ManifestAudio } from "./manifest";
import { chatParticipant, participantAtSession, type ParticipantAtSession } from "./participant-data";
import { supersedeIfConsentEnded } from "./supersede";
import { audioTranslation, CorpusFiles, type AudioTranslation } from "./translation-files";
import { MeasuresFile } from "./measures-file";
import { exportedRecording, ParallelCorpus, recordingChatFile, type ExportedRecording } from "./parallel-corpus";
import { jobRun, type MetricsJobResult } from "../metrics/jobs";
import type { TranslationSettings } from "../schemas/translation";
import { languagePairOf, readTranslationSettings } from "../translation/translation-settings";

/** How long an export's download link works after it finished: 24 hours. */
const EXPORT_LINK_TTL_MS = 24 * 60 * 60 * 1000;
/** Audios read per query of the selection. */
const PAGE_SIZE = 200;
/** Progress is written (and announced) at most this often, in ms. */
const PROGRESS_EVERY_MS = 500;
/** The heartbeat of a job busy with one long file, in ms. */
const HEARTBEAT_MS = 15_000;
/** A running export not heard from for this long (ms) was abandoned: its process stopped. */
export const EXPORT_ABANDONED_AFTER_MS = 2 * 60 * 1000;
/** Part of every content key: raise it when what an export writes for the same sources changes. */
const FORMAT = "tafsiri-export-5";

/** What the job of one export needs to know: what to select and how to write the transcripts. */
export interface ExportPlan {
  exportId: string;
  choiceKey: string;
  selection: ExportSelection;
  chat: ChatSettings;
}

/** The storage key of an export's zip. */
function exportArchiveKey(exportId: string): string {
  return `exports/${exportId}.zip`;
}

/** What an export's content key is made of. */
interface ExportContent {
  /** exportSelectionSummary's answer: the sources (participants included) and what was left out. */
  summary: { audios: number; sourcesHash: string; leftOut: LeftOutCounts };
  /** exportTranslationsHash's answer: the audios' languages, grid rows and source segments (decision 035). */
  translationsHash: string;
  /** The programme's translation settings (the language pair of an audio without its own). */
  translation: TranslationSettings;
}

/** What an export holds now: its selection's summary, its translations' hash and the translation settings. */
async function exportContent(deps: AppDeps, selection: ExportSelection): Promise<ExportContent> {
  return {
    summary: await exportSelectionSummary(deps.db, selection),
    translationsHash: await exportTranslationsHash(deps.db, selection),
    translation: await readTranslationSettings(deps.db),
  };
}

/**
 * The hash naming what an export holds: its sources (exportSelectionSummary, participants
 * included), what the consent gate left out (the counts `left_out.*` list), the CHAT settings and
 * (decision 035) the audios' translations and the programme's language pair.
 */
function contentKeyOf(content: ExportContent, chat: ChatSettings): string {
  const { summary, translationsHash, translation } = content;
  const pair = languagePairOf(translation, { sourceLanguage: null, targetLanguage: null });
  return createHash("sha256")
    .update(
      `${FORMAT}\n${summary.sourcesHash}\n${JSON.stringify(summary.leftOut)}\n${JSON.stringify(chat)}\n` +
        `${translationsHash}\n${JSON.stringify(pair)}`,
    )
    .digest("hex");
}

/** Records that export `exportId` changed, for the admins' Export pages, and pokes the bus after the commit. */
async function announce(deps: AppDeps, exportId: string, change: (trx: Executor) => Promise<void>) {
  await deps.db.transaction().execute(async (trx) => {
    await change(trx);
    await recordEvent(trx, { audience: "admins", kind: "export.changed", payload: { exportId } });
  });
  deps.events.poke();
  deps.webhooks?.wake();
}

/** The audio's duration in whole ms, rounded down so that no bullet ends past the audio; null when not known. */
function durationMsOf(audio: ExportedAudio): number | null {
  return audio.audioDurationSeconds === null ? null : Math.floor(audio.audioDurationSeconds * 1000 + 1e-6);
}

/**
 * What the CHAT file of `audio` is made of (decisions 024 and 035): the transcript, the media name,
 * the category, the participant as of the session, the session day, the audio's duration in ms,
 * its segments (source and translation; null when the main tier holds the transcript) and its
 * language pair.
 */
function chatTranscript(
  audio: ExportedAudio,
  participant: ParticipantAtSession,
  translation: AudioTranslation,
): Required<ChatTranscript> {
  return {
    text: audio.transcriptText,
    mediaName: audio.filename,
    category: audio.category,
    participant: chatParticipant(participant),
    sessionDate: audio.sessionDate,
    durationMs: durationMsOf(audio),
    segments:
      translation.segments?.map(({ speaker, startMs, endMs, source, target }) => ({
        speaker,
        startMs,
        endMs,
        source,
        target,
      })) ?? null,
    languages: translation.pair,
  };
}

/** The path in the zip of an audio's own audio file: `{category}/{filename}/{filename}{.ext}`. */
function audioPathOf(audio: ExportedAudio): string {
  return `${audio.category}/${audio.filename}/${audio.filename}${path.posix.extname(audio.audioKey).toLowerCase()}`;
}

/**
 * The files of one audio in the zip, under `{category}/{filename}/`. The `.cha` file's source names
 * its transcript version and a hash of everything else it is written from (CHAT settings,
 * participant, session day, duration, and (decision 035) segments and language pair), so an edit
 * of any of them writes it again. Decision 035: the approved translated recording (`recording`,
 * exportedRecording) is followed by its own CHAT file (recordingChatFile).
 */
function audioFiles(
  deps: AppDeps,
  audio: ExportedAudio,
  participant: ParticipantAtSession,
  chat: ChatSettings,
  translation: AudioTranslation,
  recording: ExportedRecording | null,
): Array<Omit<DatasetFile, "known"> & { source: string; kind: ManifestAudio["files"][number]["kind"] }> {
  const folder = `${audio.category}/${audio.filename}/`;
  const { text, ...made } = chatTranscript(audio, participant, translation);
  const chatSource = createHash("sha256")
    .update(JSON.stringify([chat, made]))
    .digest("hex")
    .slice(0, 32);
  const files: Array<Omit<DatasetFile, "known"> & { source: string; kind: ManifestAudio["files"][number]["kind"] }> = [
    {
      kind: "audio",
      path: audioPathOf(audio),
      source: audio.audioKey,
      compress: false,
      open: () => deps.storage.read(audio.audioKey),
    },
    {
      kind: "transcript",
      path: `${folder}${audio.filename}.cha`,
      source: `${audio.transcriptKey} as CHAT ${chatSource}`,
      // A few KB of text: stored as it is, which spares a deflate stream (and its memory) a file.
      compress: false,
      open: async () => Readable.from([Buffer.from(chatFile({ text, ...made }, chat), "utf8")]),
    },
  ];
  if (recording) {
    files.push({
      kind: "recording",
      path: recording.path,
      source: recording.key,
      compress: false,
      open: () => deps.storage.read(recording.key),
    });
    const recordingChat = recordingChatFile(recording, chat);
    if (recordingChat) files.push(recordingChat);
  }
  return files;
}

/**
 * Writes export `plan.exportId` (a running row) and marks it done or failed.
 * Reads the selection a page at a time, streams every audio's original audio, approved transcript
 * as CHAT (decision 035: the source on the main tier and the translation on `%xtra`/`%eng`, see
 * chatFile and audioTranslation) and approved recording into `exports/{id}.zip` in storage, then
 * `segments.tsv` and `translation-memory.tmx` (every exported segment, and the approved pairs as
 * TMX 1.4b: CorpusFiles), `measures.csv` and `measures-summary.csv` (decision 035: the speech
 * measures of each original audio, its stretches found now when none are stored: MeasuresFile),
 * the parallel speech corpus (decision 035: `parallel/{src}-{tgt}/` segments.yaml, segments.{src},
 * segments.{tgt}, covost.tsv: ParallelCorpus; each approved recording's own `.cha` is among its
 * audio's files), then `manifest.csv`, `manifest.jsonl`, `left_out.csv` and
 * `left_out.json` last (writeDatasetZip), and records progress
 * (audios done of total, at most every 500 ms, each time an 'export.changed' event to the admins).
 * Decision 024: only audios whose participant consented are taken (the selection's consent gate);
 * the manifests carry each one's participant and count what was left out by reason; the export's
 * participants are recorded (export_participants) in the transaction that marks it done, which
 * also supersedes it at once if one of them withdrew consent meanwhile. When the newest finished,
 * not superseded export of the same choice is still downloadable and holds the same content, its
 * zip is offered again; otherwise its unchanged files are copied without hashing them again. Never
 * throws: a failure marks the export failed with a message and is logged through `deps.log`.
 */
export async function runExport(deps: AppDeps, plan: ExportPlan): Promise<void> {
  const { exportId } = plan;
  let heartbeat: NodeJS.Timeout | undefined;
  // Counted as one export run, ok or failed (decision 028).
  const started = performance.now();
  let result: MetricsJobResult = "failed";
  let corpus: CorpusFiles | undefined;
  let measures: MeasuresFile | undefined;
  let parallel: ParallelCorpus | undefined;
  try {
    const content = await exportContent(deps, plan.selection);
    const { summary } = content;
    const contentKey = contentKeyOf(content, plan.chat);
    await announce(deps, exportId, (trx) => setExportContent(trx, exportId, summary.audios, contentKey));

    const previous = await latestFinishedExport(deps.db, plan.choiceKey, new Date());
    const previousFiles = previous
      ? await exportFileRecords(deps.db, previous.id)
      : new Map<string, ExportFileRecord>();
    if (previous && previous.contentKey === contentKey) {
      await announce(deps, exportId, async (trx) => {
        await insertExportFiles(trx, exportId, [...previousFiles.values()]);
        await insertExportParticipants(trx, exportId, [], previous.id);
        await finishExport(trx, exportId, {
          fileKey: previous.fileKey,
          sizeBytes: previous.sizeBytes,
          expiresAt: new Date(Date.now() + EXPORT_LINK_TTL_MS),
          reusedFiles: previousFiles.size,
          reusedArchive: true,
        });
        await supersedeIfConsentEnded(trx, exportId);
        await recordWebhookEvent(trx, "export.ready", { export: { _id: exportId, reused_archive: true } });
      });
      result = "ok";
      return;
    }

    let done = 0;
    let lastReport = Date.now();
    heartbeat = setInterval(() => {
      setExportProgress(deps.db, exportId, done, summary.audios).catch(() => undefined);
    }, HEARTBEAT_MS);
    const report = async () => {
      if (Date.now() - lastReport < PROGRESS_EVERY_MS) return;
      lastReport = Date.now();
      await announce(deps, exportId, (trx) => setExportProgress(trx, exportId, done, Math.max(summary.audios, done)));
    };

    const manifest: ManifestAudio[] = [];
    const sources = new Map<string, string>();
    const participants = new Set<string>();
    let reusedFiles = 0;
    const corpusFiles = await CorpusFiles.create(
      languagePairOf(content.translation, { sourceLanguage: null, targetLanguage: null }),
    );
    corpus = corpusFiles;
    // Decision 035: the speech measures of the original audios (measures.csv, measures-summary.csv).
    const measuresFile = (measures = await MeasuresFile.create(deps));
    // Decision 035: the parallel speech corpus (parallel/{src}-{tgt}/).
    const parallelCorpus = (parallel = await ParallelCorpus.create());
    async function* files(): AsyncGenerator<DatasetFile> {
      let after: string | null = null;
      for (;;) {
        const page = await exportSelectionPage(deps.db, plan.selection, after, PAGE_SIZE);
        if (page.length === 0) break;
        const translations = await exportedTranslations(
          deps.db,
          page.map((audio) => audio.audioId),
        );
        const recordingSpans = await currentRecordingSpans(
          deps.db,
          page.map((audio) => audio.audioId),
        );
        for (const audio of page) {
          const participant = participantAtSession(audio.participant, audio.sessionDate);
          participants.add(audio.participant.id);
          const entry: ManifestAudio = { audio, participant, files: [] };
          const translation = audioTranslation(audio, translations.get(audio.audioId), content.translation);
          await corpusFiles.add({
            audioFile: audioPathOf(audio),
            durationMs: durationMsOf(audio),
            participant,
            approvedAt: audio.transcriptApprovedAt,
            transcriptText: audio.transcriptText,
            translation,
          });
          await measuresFile.add(audio, audioPathOf(audio), participant, translation);
          const made = chatTranscript(audio, participant, translation);
          const recording = exportedRecording(audio, made, translation, recordingSpans.get(audio.audioId));
          const [audioFile, durationMs] = [audioPathOf(audio), durationMsOf(audio)];
          await parallelCorpus.add({ audioFile, durationMs, participant, translation, recording });
          for (const file of audioFiles(deps, audio, participant, plan.chat, translation, recording)) {
            const earlier = previousFiles.get(file.path);
            const known =
              earlier && earlier.source === file.source
                ? { sizeBytes: earlier.sizeBytes, sha256: earlier.sha256 }
                : undefined;
            if (known) reusedFiles++;
            sources.set(file.path, file.source);
            entry.files.push({ kind: file.kind, path: file.path });
            yield { path: file.path, open: file.open, compress: file.compress, known };
          }
          manifest.push(entry);
          done++;
          await report();
        }
        after = page.at(-1)?.audioId ?? null;
      }
      // Decision 035: the corpus-wide files, once every audio added its segments.
      for (const file of [
        ...(await corpusFiles.files(exportId)),
        ...(await measuresFile.files(exportId)),
        ...parallelCorpus.files(exportId),
      ]) {
        sources.set(file.path, file.source);
        yield { path: file.path, open: file.open, compress: file.compress };
      }
    }

    const key = exportArchiveKey(exportId);
    const { records, sizeBytes } = await writeDatasetZip(deps.storage, key, files(), {
      closing: (written) =>
        manifestFiles(manifest, written, {
          counts: summary.leftOut,
          includeRestricted: plan.selection.includeRestricted,
        }),
    });
    // The selection may have changed while the zip was written: then its content has no key, and
    // no later export takes this zip for an unchanged one.
    const after = await exportContent(deps, plan.selection);
    const finalKey = contentKeyOf(after, plan.chat) === contentKey && after.summary.audios === done ? contentKey : null;
    clearInterval(heartbeat);
    await announce(deps, exportId, async (trx) => {
      await insertExportFiles(
        trx,
        exportId,
        records.map((r) => ({
          path: r.path,
          source: sources.get(r.path) ?? "",
          sizeBytes: r.sizeBytes,
          sha256: r.sha256,
        })),
      );
      await insertExportParticipants(trx, exportId, participants);
      await setExportContent(trx, exportId, done, finalKey);
      await finishExport(trx, exportId, {
        fileKey: key,
        sizeBytes,
        expiresAt: new Date(Date.now() + EXPORT_LINK_TTL_MS),
        reusedFiles,
        reusedArchive: false,
      });
      await supersedeIfConsentEnded(trx, exportId);
      await recordWebhookEvent(trx, "export.ready", {
        export: { _id: exportId, size_bytes: sizeBytes, reused_archive: false },
      });
    });
    result = "ok";
  } catch (error) {
    clearInterval(heartbeat);
    deps.log?.(`export ${exportId} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    const message =
      error instanceof StoredFileMissingError
        ? "A file of the selection is missing from storage; the export stopped. See the server log."
        : "The export stopped because of a server error. Try again; the server log tells more.";
    await announce(deps, exportId, (trx) => failExport(trx, exportId, message)).catch(() => undefined);
  } finally {
    await corpus?.dispose().catch(() => undefined);
    await measures?.dispose().catch(() => undefined);
    await parallel?.dispose().catch(() => undefined);
    jobRun("export", result, (performance.now() - started) / 1000);
  }
}

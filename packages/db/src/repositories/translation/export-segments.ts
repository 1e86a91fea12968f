import { sql } from "kysely";
import type { SourceSegment, TranslationSegment } from "@tafsiri/domain";
import type { Executor } from "../../connection";
import { selected, type ExportSelection } from "../exports/selection";

/**
 * What a dataset export reads of the audios' translations (decision 035): each audio's own
 * languages, its segment grid rows and its source segments, a page of audios at a time, and one
 * hash of all of them (and of the rows' spans in the translated recording) over an export's
 * selection, so an export whose translations changed is never taken for an unchanged one
 * (decision 019, "Reuse by content").
 */

/** One exported audio's translation as stored. */
export interface ExportedTranslation {
  /** The audio's own languages (ISO 639-3); null: the programme's. */
  sourceLanguage: string | null;
  targetLanguage: string | null;
  /** Its segment grid rows in order; [] when it was never saved in the grid. */
  rows: TranslationSegment[];
  /** Its source segments in order; [] when its initial transcript gave none. */
  source: SourceSegment[];
}

/**
 * The translations of `audioIds` (a page of an export's selection), by audio id: three queries
 * however many audios. An id that names no audio is left out of the map.
 */
export async function exportedTranslations(
  db: Executor,
  audioIds: readonly string[],
): Promise<Map<string, ExportedTranslation>> {
  const found = new Map<string, ExportedTranslation>();
  if (audioIds.length === 0) return found;
  const audios = await db
    .selectFrom("audios")
    .select(["id", "sourceLanguage", "targetLanguage"])
    .where("id", "in", audioIds)
    .execute();
  for (const audio of audios) {
    found.set(audio.id, {
      sourceLanguage: audio.sourceLanguage,
      targetLanguage: audio.targetLanguage,
      rows: [],
      source: [],
    });
  }
  const rows = await db
    .selectFrom("translationSegments")
    .select(["audioId", "id", "speaker", "startMs", "endMs", "source", "target", "state"])
    .where("audioId", "in", audioIds)
    .orderBy("audioId")
    .orderBy("position")
    .execute();
  for (const { audioId, ...row } of rows) found.get(audioId)?.rows.push(row);
  const sources = await db
    .selectFrom("sourceSegments")
    .select(["audioId", "speaker", "startMs", "endMs", "text"])
    .where("audioId", "in", audioIds)
    .orderBy("audioId")
    .orderBy("position")
    .execute();
  for (const { audioId, ...segment } of sources) found.get(audioId)?.source.push(segment);
  return found;
}

/**
 * A hash (md5) of the translations of every audio an export of `s` takes (the consent gate
 * applied, as exportSelectionSummary counts them), in audio id order: each audio's own languages,
 * its grid rows (speaker, times, source, target), its source segments and its grid rows' spans in
 * its current translated recording (recording_spans: the parallel speech corpus). '' when it takes
 * none.
 */
export async function exportTranslationsHash(db: Executor, s: ExportSelection): Promise<string> {
  const row = await selected(db, s)
    .select((eb) =>
      sql<string | null>`md5(string_agg(${eb.ref("audios.id")}::text || ':' ||
        coalesce(${eb.ref("audios.sourceLanguage")}, '') || ':' || coalesce(${eb.ref("audios.targetLanguage")}, '') || ':' ||
        coalesce((select md5(string_agg(row(t.speaker, t.start_ms, t.end_ms, t.source, t.target)::text, ','
          order by t.position)) from translation_segments t where t.audio_id = ${eb.ref("audios.id")}), '') || ':' ||
        coalesce((select md5(string_agg(row(g.speaker, g.start_ms, g.end_ms, g.text)::text, ','
          order by g.position)) from source_segments g where g.audio_id = ${eb.ref("audios.id")}), '') || ':' ||
        coalesce((select md5(string_agg(row(r.segment_id, r.start_ms, r.end_ms)::text, ','
          order by r.segment_id)) from recording_spans r where r.audio_id = ${eb.ref("audios.id")}
          and r.recording_key = ${eb.ref("submissions.recordedAudio")}), ''),
        ',' order by ${eb.ref("audios.id")}))`.as("hash"),
    )
    .executeTakeFirstOrThrow();
  return row.hash ?? "";
}

import { CsvSyntaxError, PARTICIPANT_CODE_PATTERN, readCsvRecords, type CsvRecord } from "@tafsiri/domain";
import { audioMimeType } from "#web/lib/audio-files";
import type { AudioParticipantLink } from "./upload";

/**
 * Decision 024: a bulk upload's zip may hold `participants.csv` with the columns filename,
 * participant_code and session_date (YYYY-MM-DD, may be empty): each audio is then uploaded with its
 * row's participant and day. Read in the browser before the upload starts, so what does not match
 * (rows naming no file of the zip, audio files without a row, rows that cannot be read) is shown
 * first, as warnings: the upload goes on, files without a row are uploaded unlinked.
 */

/** What participants.csv says of a zip's audio files. */
export interface ZipParticipants {
  /** The link of each audio file named by a row, by the file's name in the zip. */
  links: Map<string, AudioParticipantLink>;
  /** 'Line 3: missing.wav' for each row whose file is not in the zip. */
  rowsWithoutFile: string[];
  /** The audio files of the zip that no row names. */
  filesWithoutRow: string[];
  /** Rows or columns that cannot be read ('Line 4: …'). */
  problems: string[];
}

const MANIFEST = "participants.csv";
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** "a/b/c.wav" → "c.wav". */
const baseName = (path: string): string => path.split("/").pop() ?? path;
/** "c.take1.wav" → "c" (an audio's filename is its name up to the first dot). */
const stem = (name: string): string => name.split(".")[0] ?? name;

/**
 * Reads `participants.csv` of a zip (anywhere in it, any case) and matches its rows with the zip's
 * audio files, by file name with or without its extension (case-insensitive). Null when the zip
 * holds no participants.csv; rejects when the archive cannot be read.
 */
export async function readZipParticipants(zipFile: Blob): Promise<ZipParticipants | null> {
  const { default: JSZip } = await import("jszip");
  const zip = await JSZip.loadAsync(zipFile);
  const entries = Object.values(zip.files).filter((e) => !e.dir && !e.name.startsWith("__MACOSX/"));
  const manifest = entries.find((e) => baseName(e.name).toLowerCase() === MANIFEST);
  if (!manifest) return null;
  const audioNames = entries
    .map((e) => baseName(e.name))
    .filter((name) => !name.startsWith(".") && audioMimeType(name) !== null);

  const result: ZipParticipants = { links: new Map(), rowsWithoutFile: [], filesWithoutRow: [], problems: [] };
  let records: CsvRecord[];
  try {
    records = readCsvRecords(await manifest.async("string"));
  } catch (error) {
    if (!(error instanceof CsvSyntaxError)) throw error;
    result.problems.push(`Line ${error.line}: ${error.message} ${MANIFEST} is not used.`);
    result.filesWithoutRow = audioNames;
    return result;
  }
  const [header, ...rows] = records;
  const columns = (header?.fields ?? []).map((c) => c.trim().toLowerCase());
  const at = {
    filename: columns.indexOf("filename"),
    code: columns.indexOf("participant_code"),
    day: columns.indexOf("session_date"),
  };
  if (at.filename < 0 || at.code < 0) {
    result.problems.push(`Line 1: ${MANIFEST} needs the columns filename, participant_code and session_date.`);
    result.filesWithoutRow = audioNames;
    return result;
  }
  const named = new Set<string>();
  for (const { line, fields: cells } of rows) {
    const filename = (cells[at.filename] ?? "").trim();
    const participantCode = (cells[at.code] ?? "").trim();
    const sessionDate = at.day < 0 ? "" : (cells[at.day] ?? "").trim();
    const file = audioNames.find(
      (name) => name.toLowerCase() === filename.toLowerCase() || stem(name).toLowerCase() === filename.toLowerCase(),
    );
    if (file) named.add(file);
    if (!file) result.rowsWithoutFile.push(`Line ${line}: ${filename || "(no file name)"}`);
    else if (!PARTICIPANT_CODE_PATTERN.test(participantCode))
      result.problems.push(
        `Line ${line}: "${participantCode}" is not a participant code; ${file} is uploaded unlinked.`,
      );
    else if (sessionDate && !DAY.test(sessionDate))
      result.problems.push(`Line ${line}: the session date is written YYYY-MM-DD; ${file} is uploaded unlinked.`);
    else result.links.set(file, { participantCode, sessionDate: sessionDate || null });
  }
  result.filesWithoutRow = audioNames.filter((name) => !named.has(name));
  return result;
}

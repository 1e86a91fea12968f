import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { promisify } from "node:util";
import JSZip from "jszip";
import type { Locator, Page } from "playwright-core";
import { PARTICIPANT_CSV_COLUMNS } from "@tafsiri/domain";

/**
 * Helpers of the corpus browser test (decision 024): recordings spoken by espeak-ng in the test
 * run, participants CSV files written from their columns, and an export's zip read as a person
 * gets it (the Download link).
 */

const exec = promisify(execFile);

/** A recording made for the test, and when each of its spoken turns begins (seconds). */
export interface SpokenInterview {
  file: string;
  turnStarts: number[];
}

/**
 * Writes `file` (a 16 kHz mono 16-bit WAV): each of `turns` spoken by espeak-ng, with `pause`
 * seconds of silence before each turn and after the last, so that the turns of an interview can be
 * told apart by ear and by time. Answers the file and where each turn begins, after its silence (espeak-ng adds little of its own).
 */
export async function speakInterview(file: string, turns: readonly string[], pause: number): Promise<SpokenInterview> {
  const padded: string[] = [];
  const turnStarts: number[] = [];
  let length = 0;
  for (const [n, turn] of turns.entries()) {
    const spoken = `${file}.turn-${n}.wav`;
    const turnFile = `${file}.padded-${n}.wav`;
    await exec("espeak-ng", ["-s", "150", "-w", spoken, turn]);
    // Resampled, with the silence before it (and after it too for the last turn).
    const after = n === turns.length - 1 ? pause : 0;
    await exec("sox", [spoken, "-r", "16000", "-c", "1", "-b", "16", turnFile, "pad", String(pause), String(after)]);
    turnStarts.push(length + pause);
    length += Number((await exec("soxi", ["-D", turnFile])).stdout.trim());
    padded.push(turnFile);
  }
  await exec("sox", [...padded, file]);
  return { file, turnStarts };
}

/** Writes `file` as an MP3 (mono, 64 kbit/s) of `text` spoken by espeak-ng, through ffmpeg. Returns `file`. */
export async function speakMp3(file: string, text: string): Promise<string> {
  const spoken = `${file}.spoken.wav`;
  await exec("espeak-ng", ["-s", "150", "-w", spoken, text]);
  await exec("ffmpeg", [
    "-hide_banner",
    "-loglevel",
    "error",
    "-nostdin",
    "-y",
    "-i",
    spoken,
    "-ac",
    "1",
    "-b:a",
    "64k",
    file,
  ]);
  return file;
}

/** A participants CSV (PARTICIPANT_CSV_COLUMNS' header) with a row per object; a column not given is empty. */
export function participantsCsv(rows: ReadonlyArray<Record<string, string>>): string {
  const line = (row: Record<string, string>) => PARTICIPANT_CSV_COLUMNS.map((column) => row[column] ?? "").join(",");
  return [PARTICIPANT_CSV_COLUMNS.join(","), ...rows.map(line)].join("\n");
}

/** An export's zip as downloaded, and the URL its Download link had. */
export interface DownloadedExport {
  zip: JSZip;
  href: string;
}

/** Clicks the Download link of the Exports table's row `row` and reads the zip the browser saved. */
export async function downloadExport(page: Page, row: Locator): Promise<DownloadedExport> {
  const link = row.getByRole("link", { name: "Download", exact: true });
  const href = await link.getAttribute("href");
  if (!href) throw new Error("The export's Download link has no href.");
  const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
  return { zip: await JSZip.loadAsync(await readFile(await download.path())), href };
}

/** The text of `name` in `zip`; throws naming the file when the zip does not hold it. */
export async function zipText(zip: JSZip, name: string): Promise<string> {
  const entry = zip.file(name);
  if (!entry) throw new Error(`The zip holds no ${name}; it holds ${Object.keys(zip.files).join(", ")}.`);
  return entry.async("string");
}

/** The lines of manifest.jsonl in `zip`, parsed. */
export async function manifestRows(zip: JSZip): Promise<Array<Record<string, string | number | null>>> {
  const text = (await zipText(zip, "manifest.jsonl")).trim();
  return text === "" ? [] : text.split("\n").map((line) => JSON.parse(line) as Record<string, string | number | null>);
}

import { stringify } from "csv-stringify/sync";
import {
  CsvSyntaxError,
  PARTICIPANT_CSV_COLUMNS,
  PARTICIPANT_GROUPS,
  readCsvRecords,
  SCORE_INSTRUMENT_KEYS,
  type CsvRecord,
  type ScoreInstrument,
} from "@tafsiri/domain";
import type { Participant as ParticipantRow } from "@tafsiri/db";
import { insertAuditEntry } from "@tafsiri/db/repositories/audit-log";
import {
  findParticipantsByCodes,
  insertParticipants,
  listAllParticipants,
  participantsWithAudiosOutsideGroup,
  updateParticipantRow,
} from "@tafsiri/db/repositories/participants";
import type { AppDeps, SessionUser } from "../context";
import { ZParticipantFields, type ParticipantFields } from "../schemas/participants";
import { requireAdmin } from "./access";
import {
  auditParticipantChange,
  changedFields,
  codeTakenMessage,
  columnsOf,
  groupLockedMessage,
  participantOf,
  storedFields,
  todayOf,
} from "./participants";
import { AppError } from "../errors/app-error";

/**
 * Participants as CSV (decision 024): the import (all rows or nothing, every problem with its
 * line) and the export, with the same columns. Read by csv-parse (readCsvRecords of
 * @tafsiri/domain), written by csv-stringify.
 */

/** At most this many problems are listed; past it, one more line says how many were left out. */
const MAX_LISTED_PROBLEMS = 500;

/** One problem of an import: the CSV line (the header is line 1) and what is wrong. */
interface ImportProblem {
  line: number;
  message: string;
}

/** The CSV column a field of ZParticipantFields comes from (for problem messages). */
function columnOf(path: ReadonlyArray<PropertyKey>, scores: ScoreInstrument[]): string {
  const [field, index, sub] = path;
  switch (field) {
    case "group":
      return "group";
    case "birthDate":
      return "birth_date";
    case "ageMonths":
      return "age_years/age_months";
    case "ageRecordedOn":
      return "age_recorded_on";
    case "educationYears":
      return "education_years";
    case "consentStatus":
      return "consent";
    case "consentDate":
      return "consent_date";
    case "scores": {
      const key = scores[Number(index)]?.toLowerCase() ?? "score";
      return sub === "takenOn" ? `${key}_date` : key;
    }
    default:
      return String(field);
  }
}

const WHOLE = /^\d+$/;
const DECIMAL = /^\d+(\.\d+)?$/;

/**
 * A row's fields: the stored participant's (when its code exists) with the row's columns over them,
 * validated by ZParticipantFields. Returns the fields, or the row's problems (each naming its column).
 */
function rowFields(
  cells: Map<string, string>,
  existing: ParticipantRow | undefined,
  today: string,
): { fields: ParticipantFields; problems: [] } | { fields: null; problems: string[] } {
  const problems: string[] = [];
  // A stored participant's fields as ZParticipantFields takes them (it drops the rest).
  const input: Record<string, unknown> = existing ? { ...participantOf(existing, 0, today) } : {};
  const cell = (column: string) => cells.get(column)?.trim();
  const has = (column: string) => cells.has(column);
  const day = (column: string): string | null => cell(column) || null;
  const whole = (column: string): number | null | undefined => {
    const value = cell(column) ?? "";
    if (value === "") return null;
    if (!WHOLE.test(value)) {
      problems.push(`${column}: must be a whole number.`);
      return undefined;
    }
    return Number(value);
  };

  input.code = cell("code") ?? "";
  if (has("group")) {
    const raw = cell("group") ?? "";
    input.group = PARTICIPANT_GROUPS.find((g) => g.toLowerCase() === raw.toLowerCase()) ?? raw;
  }
  if (has("sex")) {
    const raw = (cell("sex") ?? "").toLowerCase();
    input.sex = raw === "" ? null : raw === "f" ? "female" : raw === "m" ? "male" : raw;
  }
  if (has("birth_date")) input.birthDate = day("birth_date");
  if (has("age_years") || has("age_months")) {
    const years = whole("age_years");
    const months = whole("age_months");
    if (years !== undefined && months !== undefined)
      input.ageMonths = years === null && months === null ? null : (years ?? 0) * 12 + (months ?? 0);
  }
  if (has("age_recorded_on")) input.ageRecordedOn = day("age_recorded_on");
  if (has("education_years")) {
    const years = whole("education_years");
    if (years !== undefined) input.educationYears = years;
  }
  if (has("languages")) input.languages = (cell("languages") ?? "").split(/[\s;]+/).filter((l) => l !== "");
  let scores = [...((input.scores as ParticipantFields["scores"] | undefined) ?? [])];
  for (const key of SCORE_INSTRUMENT_KEYS) {
    const column = key.toLowerCase();
    if (!has(column) && !has(`${column}_date`)) continue;
    const value = cell(column) ?? "";
    const takenOn = day(`${column}_date`);
    scores = scores.filter((s) => s.instrument !== key);
    if (value === "") {
      if (takenOn) problems.push(`${column}_date: is given without a ${column} score.`);
      continue;
    }
    if (!DECIMAL.test(value)) {
      problems.push(`${column}: must be a number.`);
      continue;
    }
    scores.push({ instrument: key, score: Number(value), takenOn });
  }
  input.scores = scores;
  if (has("notes")) input.notes = cells.get("notes") ?? "";
  if (has("consent")) {
    const raw = (cell("consent") ?? "").toLowerCase().replace(/\s+/g, "_");
    input.consentStatus = raw === "" ? "not_recorded" : raw;
  }
  if (has("consent_date")) input.consentDate = day("consent_date");

  const parsed = ZParticipantFields.safeParse(input);
  if (!parsed.success) {
    const instruments = scores.map((s) => s.instrument as ScoreInstrument);
    for (const issue of parsed.error.issues) problems.push(`${columnOf(issue.path, instruments)}: ${issue.message}`);
  }
  if (problems.length > 0 || !parsed.success) return { fields: null, problems };
  return { fields: parsed.data, problems: [] };
}

/** The result of importParticipantsCsv. */
export interface ImportResult {
  created: number;
  updated: number;
  problems: ImportProblem[];
}

/** Problems, at most MAX_LISTED_PROBLEMS of them, and a last one saying how many more there are. */
function listed(problems: ImportProblem[]): ImportProblem[] {
  if (problems.length <= MAX_LISTED_PROBLEMS) return problems;
  const more = problems.length - MAX_LISTED_PROBLEMS;
  return [
    ...problems.slice(0, MAX_LISTED_PROBLEMS),
    { line: problems[MAX_LISTED_PROBLEMS]!.line, message: `… and ${more} more problems.` },
  ];
}

/** The header's problems: unknown, repeated and missing columns (all on line 1). */
function headerProblems(header: string[]): ImportProblem[] {
  const problems: ImportProblem[] = [];
  const seen = new Set<string>();
  for (const name of header) {
    if (!PARTICIPANT_CSV_COLUMNS.includes(name)) {
      problems.push({
        line: 1,
        message: `Unknown column "${name.slice(0, 40)}". The columns are: ${PARTICIPANT_CSV_COLUMNS.join(", ")}.`,
      });
    } else if (seen.has(name)) problems.push({ line: 1, message: `The column "${name}" is given twice.` });
    seen.add(name);
  }
  if (!seen.has("code")) problems.push({ line: 1, message: 'The header has no "code" column.' });
  return problems;
}

/**
 * Decision 024 (admin): imports participants from CSV text (header row required; columns
 * PARTICIPANT_CSV_COLUMNS, any order; age_years and age_months add up to the age in months;
 * languages separated by spaces or ';'). A row whose code exists (any case) updates that
 * participant with the row's columns (`updated` counts those it changed); any other creates one. Every row is validated and every
 * problem listed with its CSV line (the header is line 1; unknown columns, duplicate codes in the
 * file, a group its linked audios contradict); when there is any, NOTHING is written and the
 * result carries the problems with created = updated = 0. Otherwise one transaction writes all
 * rows, audits participants.imported {created, updated} and each consent change
 * (participant.consent_changed; a withdrawal supersedes the exports holding the participant).
 * Throws FORBIDDEN for staff; CONFLICT when another admin creates one of the codes meanwhile.
 * The result says what happened in a sentence: '2 participants created, 1 updated.' or 'The CSV
 * file has 2 problems; nothing was imported.'.
 */
export async function importParticipantsCsv(
  deps: AppDeps,
  user: SessionUser,
  csv: string,
): Promise<ImportResult & { message: string }> {
  const result = await importRows(deps, user, csv);
  const count = result.problems.length;
  const message =
    count > 0
      ? `The CSV file has ${count} problem${count === 1 ? "" : "s"}; nothing was imported.`
      : `${result.created} participant${result.created === 1 ? "" : "s"} created, ${result.updated} updated.`;
  return { message, ...result };
}

/** importParticipantsCsv without its sentence. */
async function importRows(deps: AppDeps, user: SessionUser, csv: string): Promise<ImportResult> {
  requireAdmin(user);
  let records: CsvRecord[];
  try {
    records = readCsvRecords(csv);
  } catch (error) {
    if (error instanceof CsvSyntaxError)
      return { created: 0, updated: 0, problems: [{ line: error.line, message: error.message }] };
    throw error;
  }
  const [headerRecord, ...rows] = records;
  if (!headerRecord)
    return {
      created: 0,
      updated: 0,
      problems: [{ line: 1, message: "The CSV file is empty: a header row is required." }],
    };
  const header = headerRecord.fields.map((name) => name.trim().toLowerCase());
  const problems = headerProblems(header);
  if (problems.length > 0) return { created: 0, updated: 0, problems };
  if (rows.length === 0)
    return { created: 0, updated: 0, problems: [{ line: 2, message: "The CSV file has no participants." }] };

  const today = todayOf(deps);
  const result = await deps.db.transaction().execute(async (trx) => {
    const codeIndex = header.indexOf("code");
    const existing = await findParticipantsByCodes(trx, [
      ...new Set(rows.map((r) => (r.fields[codeIndex] ?? "").trim()).filter((c) => c !== "" && c.length <= 20)),
    ]);
    const byCode = new Map(existing.map((p) => [p.code.toLowerCase(), p]));
    const firstLineOf = new Map<string, number>();
    const accepted: Array<{ line: number; fields: ParticipantFields; existing: ParticipantRow | undefined }> = [];
    for (const row of rows) {
      if (row.fields.length !== header.length) {
        problems.push({
          line: row.line,
          message: `The line has ${row.fields.length} fields but the header has ${header.length} columns.`,
        });
        continue;
      }
      const cells = new Map(header.map((name, i) => [name, row.fields[i] ?? ""]));
      const code = (cells.get("code") ?? "").trim();
      const key = code.toLowerCase();
      const earlier = firstLineOf.get(key);
      if (code !== "" && earlier !== undefined) {
        problems.push({ line: row.line, message: `The code ${code} is also on line ${earlier}.` });
        continue;
      }
      if (code !== "") firstLineOf.set(key, row.line);
      const found = byCode.get(key);
      const result = rowFields(cells, found, today);
      if (result.fields === null) {
        for (const message of result.problems) problems.push({ line: row.line, message });
        continue;
      }
      accepted.push({ line: row.line, fields: result.fields, existing: found });
    }
    const regrouped = accepted.filter((a) => a.existing && a.existing.studyGroup !== a.fields.group);
    const locked = await participantsWithAudiosOutsideGroup(
      trx,
      regrouped.map((a) => ({ participantId: a.existing!.id, group: a.fields.group })),
    );
    for (const a of regrouped) {
      if (locked.has(a.existing!.id))
        problems.push({ line: a.line, message: groupLockedMessage(a.existing!.code, a.existing!.studyGroup) });
    }
    if (problems.length > 0) {
      return { created: 0, updated: 0, problems: listed(problems.sort((a, b) => a.line - b.line)) };
    }

    const creates = accepted.filter((a) => !a.existing).map((a) => columnsOf(storedFields(a.fields, today)));
    for (let i = 0; i < creates.length; i += 1000) {
      await insertParticipants(trx, creates.slice(i, i + 1000)).catch((error: unknown) => {
        const unique = typeof error === "object" && error !== null && "code" in error && error.code === "23505";
        throw unique ? new AppError("CONFLICT", codeTakenMessage(creates[i]!.code)) : error;
      });
    }
    let updated = 0;
    for (const a of accepted) {
      if (!a.existing) continue;
      const stored = storedFields(a.fields, today);
      // A row that changes nothing writes nothing (re-importing an export is quick).
      if (changedFields(a.existing, stored).length === 0 && a.existing.consentStatus === stored.consentStatus) continue;
      await updateParticipantRow(trx, a.existing.id, columnsOf(stored));
      await auditParticipantChange(trx, user.id, a.existing, stored, { quiet: true });
      updated += 1;
    }
    const result = { created: creates.length, updated };
    await insertAuditEntry(trx, user.id, "participants.imported", "participant", null, result);
    return { ...result, problems: [] };
  });
  // A withdrawal may have superseded exports (export.changed events): deliver them now.
  deps.events.poke();
  return result;
}

/**
 * Decision 024 (admin): every participant as CSV text with PARTICIPANT_CSV_COLUMNS (header row
 * first), ordered by code; the age as years and months; languages separated by spaces. The import
 * reads it back unchanged. Throws FORBIDDEN for staff.
 */
export async function exportParticipantsCsv(deps: AppDeps, user: SessionUser): Promise<{ csv: string }> {
  requireAdmin(user);
  const rows = await listAllParticipants(deps.db);
  const records = rows.map((p) => {
    const scoreCells = SCORE_INSTRUMENT_KEYS.flatMap((key) => {
      const score = p.scores.find((s) => s.instrument === key);
      return score ? [String(score.score), score.takenOn ?? ""] : ["", ""];
    });
    return [
      p.code,
      p.studyGroup,
      p.sex ?? "",
      p.birthDate ?? "",
      p.ageMonths === null ? "" : String(Math.floor(p.ageMonths / 12)),
      p.ageMonths === null ? "" : String(p.ageMonths % 12),
      p.ageRecordedOn ?? "",
      p.educationYears === null ? "" : String(p.educationYears),
      p.languages.join(" "),
      ...scoreCells,
      p.notes,
      p.consentStatus,
      p.consentDate ?? "",
    ];
  });
  return { csv: stringify([[...PARTICIPANT_CSV_COLUMNS], ...records]) };
}

import { CATEGORIES } from "@tafsiri/domain";
import type { ExportChoiceInput, ExportItem } from "#web/lib/api-types";

/** What an export takes: Control, Dementia or both. */
export type CategoryChoice = ExportItem["category"];
/** Which audios an export takes: completed tasks, or every audio with an approved transcript. */
export type StatusChoice = ExportItem["status"];
/** A speaker role of CHAT's list, as `exports.create` accepts it. */
type ChatRole = ExportItem["chat"]["participantRole"];

/** The category choices in the order the form shows them, with their labels. */
export const CATEGORY_CHOICES: ReadonlyArray<{ value: CategoryChoice; label: string }> = [
  { value: "both", label: CATEGORIES.join(" and ") },
  ...CATEGORIES.map((category) => ({ value: category, label: category })),
];

/** The status choices in the order the form shows them, with their labels and hints. */
export const STATUS_CHOICES: ReadonlyArray<{ value: StatusChoice; label: string; hint: string }> = [
  {
    value: "completed",
    label: "Completed tasks only",
    hint: "Audios whose transcript and recording are both approved.",
  },
  {
    value: "approved-transcript",
    label: "Everything with an approved transcript",
    hint: "Also audios whose recording is missing or not approved yet (their recording is left out).",
  },
];

/** The Export form as typed: every field a string or a choice. */
export interface ExportFormValues {
  category: CategoryChoice;
  status: StatusChoice;
  /** First and last day of the approval period (YYYY-MM-DD), empty for no limit. */
  approvedFrom: string;
  approvedTo: string;
  /** ISO 639-3 codes separated by commas, the main language first. */
  languages: string;
  participantRole: ChatRole;
  corpus: string;
  /** Decision 024: also export participants whose consent is restricted. */
  includeRestricted: boolean;
}

/**
 * The form's defaults, the server's own: both categories, completed tasks, any time, English,
 * Participant, 'tafsiri', consent 'given' only.
 */
export const DEFAULT_EXPORT_FORM: ExportFormValues = {
  category: "both",
  status: "completed",
  approvedFrom: "",
  approvedTo: "",
  languages: "eng",
  participantRole: "Participant",
  corpus: "tafsiri",
  includeRestricted: false,
};

/** The language codes typed: split on commas (and spaces), trimmed, lower-cased, empty ones dropped. */
function languageCodes(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((code) => code.trim().toLowerCase())
    .filter((code) => code.length > 0);
}

/**
 * The form's values as `exports.create`'s input; empty days mean no limit. The
 * server checks the rest (codes, corpus, the order of the days) and answers a message to show.
 */
export function exportChoice(values: ExportFormValues): ExportChoiceInput {
  return {
    category: values.category,
    status: values.status,
    approvedFrom: values.approvedFrom || null,
    approvedTo: values.approvedTo || null,
    chat: {
      languages: languageCodes(values.languages),
      participantRole: values.participantRole,
      corpus: values.corpus.trim(),
    },
    includeRestricted: values.includeRestricted,
  };
}

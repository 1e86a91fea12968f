/**
 * The vocabulary of the CHAT (`.cha`) files a dataset export writes: TalkBank's transcript format,
 * checked by its CHECK program (decision 024, "CHAT that says it"). Pure data, no I/O.
 */

/** What the export form asks about the CHAT headers (settings with sensible defaults). */
export interface ChatSettings {
  /**
   * ISO 639-3 codes of the transcript's languages, the first the main one (`@Languages`, `@ID`),
   * for a transcript written without its language pair. Decision 035: the dataset export always
   * gives each file its audio's pair (the source language, or the target language when the main
   * tier holds the translation), so there this is accepted (the export form, REST) but not written.
   */
  languages: string[];
  /** The participant's role in CHAT's list of roles (`@Participants`, `@ID`). */
  participantRole: ChatRole;
  /** The corpus name in `@ID`: letters, digits, `_` and `-`. */
  corpus: string;
}

/** The roles of CHAT's depfile a recording of this programme may give its participant. */
export const CHAT_ROLES = ["Participant", "Target_Adult", "Investigator", "Speaker", "Subject"] as const;
type ChatRole = (typeof CHAT_ROLES)[number];

/** The settings an export starts with: English, the participant as `PAR` (as in DementiaBank). */
export const DEFAULT_CHAT_SETTINGS: ChatSettings = {
  languages: ["eng"],
  participantRole: "Participant",
  corpus: "tafsiri",
};

/** The speaker code of the participant's tier (`*PAR:`). */
export const PARTICIPANT_CODE = "PAR";
/** The speaker code of the investigator's tier (`*INV:`) and the role it is written with. */
export const INVESTIGATOR_CODE = "INV";
export const INVESTIGATOR_ROLE = "Investigator";

/** What ends a CHAT utterance: `.`, `?`, `!`, and the special terminators a CHAT source may hold. */
export const CHAT_TERMINATORS = [
  ".",
  "?",
  "!",
  // Trailing off, trailing off of a question, question with exclamation.
  "+...",
  "+..?",
  "+!?",
  // Interruption (of a question), self-interruption (of a question).
  "+/.",
  "+/?",
  "+//.",
  "+//?",
] as const;
export type ChatTerminator = (typeof CHAT_TERMINATORS)[number];

/** CHAT's word for speech nobody transcribed (`www`): a main tier whose source was never written. */
export const CHAT_UNTRANSCRIBED = "www";

/**
 * The dependent tiers a translation goes on (decision 035): `%eng` when the translation is in
 * English (CHAT's tier for English translations), otherwise `%xtra` (what TalkBank's batchalign
 * writes; any `%x` tier is CHAT's user-defined tier). Never `%tra`: retired, and refused by
 * TalkBank's chatter (error E605).
 */
export type ChatTranslationTier = "eng" | "xtra";

/** CHAT's media bullet delimiter (U+0015, NAK): `\u0015<start ms>_<end ms>\u0015`. */
export const CHAT_BULLET = "\u0015";

/** The months of CHAT's `@Date` (`05-MAR-2026`). */
export const CHAT_MONTHS = [
  "JAN",
  "FEB",
  "MAR",
  "APR",
  "MAY",
  "JUN",
  "JUL",
  "AUG",
  "SEP",
  "OCT",
  "NOV",
  "DEC",
] as const;

import type { Category } from "@tafsiri/db";

/**
 * Issue 12 Build 2: a transcript as a CHAT (`.cha`) file, the format of TalkBank and its CHECK
 * program, for the dataset export. The transcripts Tafsiri stores stay plain text (SPEC §3); this
 * only writes the exported copy.
 */

/** What the export form asks about the CHAT headers (issue 12: settings with sensible defaults). */
export interface ChatSettings {
  /** ISO 639-3 codes of the transcript's languages, the first the main one (`@Languages`, `@ID`). */
  languages: string[];
  /** The speaker's role in CHAT's list of roles (`@Participants`, `@ID`). */
  participantRole: ChatRole;
  /** The corpus name in `@ID`: letters, digits, `_` and `-`. */
  corpus: string;
}

/** The roles of CHAT's depfile a recording of this programme may have. */
export const CHAT_ROLES = ["Participant", "Target_Adult", "Investigator", "Speaker", "Subject"] as const;
export type ChatRole = (typeof CHAT_ROLES)[number];

/** The settings an export starts with: English, the participant as `PAR` (as in DementiaBank). */
export const DEFAULT_CHAT_SETTINGS: ChatSettings = {
  languages: ["eng"],
  participantRole: "Participant",
  corpus: "tafsiri",
};

/** The speaker code of every utterance: the one participant of a recording. */
export const PARTICIPANT_CODE = "PAR";

/** What ends a CHAT utterance. */
export const CHAT_TERMINATORS = [".", "?", "!"] as const;

/**
 * Characters CHAT reserves for its own codes (annotations `[…]`, scopes `<…>`, `@` word forms,
 * `&` fragments, `#` pauses, `+` linkers, `(…)` omissions, `*` `%` `$` `^` `~` `=` `_` `|` `\` `{}`
 * `"`), and control characters: dropped from the text, so a translated sentence never reads as a
 * code to CHECK.
 */
const RESERVED = /[[\]<>@&#+()*%$^~=_|\\{}"\u0000-\u001f\u007f]/g;

/**
 * The utterance of one paragraph: reserved characters dropped, whitespace collapsed, sentence
 * ends inside the paragraph turned into commas (CHAT allows one terminator per utterance, at its
 * end), commas written apart (` , `), and a terminator after a space at the end: the paragraph's
 * own `?` or `!`, otherwise `.`. Null when nothing is left to say.
 */
export function chatUtterance(paragraph: string): string | null {
  let text = paragraph.replace(RESERVED, " ").replace(/\s+/g, " ").trim();
  const last = text.at(-1);
  const terminator = last === "?" || last === "!" ? last : ".";
  // Sentence ends inside the paragraph become commas, written apart as DementiaBank's files write
  // them ("home , then"); commas already there are spaced too.
  // Semicolons, colons and dashes between words are pauses too; a comma, dot or colon between
  // digits (1,000 3.5 10:30) is part of the number.
  text = text
    .replace(/[.?!…]+$/u, "")
    .replace(/(?<!\d)[.?!…:]+|[.?!…:]+(?!\d)/gu, ",")
    .replace(/[;]|\s[–—-]+\s/gu, ",")
    .replace(/\s*(?:,(?!\d)|(?<!\d),)[\s,]*/g, " , ")
    .replace(/^[\s,]+|[\s,]+$/g, "");
  if (!/[\p{L}\p{N}]/u.test(text)) return null;
  return `${text} ${terminator}`;
}

/** What one exported transcript is made from. */
export interface ChatTranscript {
  /** The transcript as stored: plain text, one paragraph per line. */
  text: string;
  /** The audio file's name in the export, without its extension (`@Media`). */
  mediaName: string;
  /** The audio's group, written in `@ID` (Control or Dementia, as DementiaBank's `@ID` does). */
  category: Category;
}

/**
 * The CHAT file of a transcript (issue 12 Build 2): `@UTF8`, `@Begin`, `@Languages`,
 * `@Participants`, `@ID` (10 `|`-separated fields: language, corpus, code, age, sex, group, SES,
 * role, education, custom), `@Media` (the audio, `audio`), one `*PAR:` line per paragraph with
 * text (chatUtterance), `@End`; a tab after each tier code, lines joined with `\n` and ending with
 * one. A transcript without a word has no utterance line. Throws on settings CHAT cannot carry
 * (no language, a code that is not 3 lowercase letters, a corpus with other characters).
 */
export function chatFile(transcript: ChatTranscript, settings: ChatSettings = DEFAULT_CHAT_SETTINGS): string {
  if (settings.languages.length === 0 || !settings.languages.every((code) => /^[a-z]{3}$/.test(code))) {
    throw new Error("CHAT languages must be ISO 639-3 codes of three lowercase letters.");
  }
  if (!/^[A-Za-z0-9_-]+$/.test(settings.corpus)) {
    throw new Error("The CHAT corpus name may hold only letters, digits, '_' and '-'.");
  }
  const media = transcript.mediaName.replace(/[\s,]+/g, "_");
  const id = [
    settings.languages[0],
    settings.corpus,
    PARTICIPANT_CODE,
    "",
    "",
    transcript.category,
    "",
    settings.participantRole,
    "",
    "",
  ];
  const utterances = transcript.text
    .split(/\r?\n/)
    .map(chatUtterance)
    .filter((line): line is string => line !== null);
  const lines = [
    "@UTF8",
    "@Begin",
    `@Languages:\t${settings.languages.join(", ")}`,
    `@Participants:\t${PARTICIPANT_CODE} ${settings.participantRole}`,
    `@ID:\t${id.join("|")}|`,
    `@Media:\t${media}, audio`,
    ...utterances.map((utterance) => `*${PARTICIPANT_CODE}:\t${utterance}`),
    "@End",
  ];
  return `${lines.join("\n")}\n`;
}

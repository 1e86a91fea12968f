import { chatAge } from "../participant-age";
import { PARTICIPANT_GROUPS, SEXES, type ParticipantGroup, type Sex } from "../participant-fields";
import { parseTranscript } from "../transcript-lines";
import {
  CHAT_BULLET,
  CHAT_MONTHS,
  CHAT_ROLES,
  DEFAULT_CHAT_SETTINGS,
  INVESTIGATOR_CODE,
  INVESTIGATOR_ROLE,
  PARTICIPANT_CODE,
  type ChatSettings,
} from "./chat-settings";
import { chatUtterances, chatUtteranceText } from "./chat-utterances";

/**
 * A stored transcript as a CHAT (`.cha`) file, the format of TalkBank and its CHECK program, for
 * the dataset export (decision 024, "CHAT that says it"). The transcripts Tafsiri stores stay plain
 * text (SPEC §3); this only writes the exported copy.
 */

/** The participant of a recording as its `@ID` line writes them (decision 024). */
export interface ChatParticipant {
  /** The pseudonymous code (P0042). Not written: the tier code is always `PAR`. */
  code: string;
  group: ParticipantGroup;
  sex: Sex | null;
  /** Age in whole months on the session day. */
  ageMonths: number | null;
  educationYears: number | null;
  /** MMSE score (0–30), written in `@ID`'s custom field as DementiaBank does. */
  mmse: number | null;
}

/** What one exported transcript is made from. */
export interface ChatTranscript {
  /** The transcript as stored: one paragraph per line, with optional time and speaker (transcript-lines). */
  text: string;
  /** The audio file's name in the export, without its extension (`@Media`). */
  mediaName: string;
  /** The audio's group, written in `@ID` when the recording has no participant. */
  category: ParticipantGroup;
  /** The recording's participant; absent or null: unknown (only the group is written). */
  participant?: ChatParticipant | null;
  /** The session day, YYYY-MM-DD (`@Date`); absent or null: no `@Date`. */
  sessionDate?: string | null;
  /** The audio's duration in ms: the end of the last timed paragraph; absent or null: unknown. */
  durationMs?: number | null;
}

/** A stretch of the recording in whole milliseconds, start < end. */
export interface ChatSpan {
  startMs: number;
  endMs: number;
}

/** A YYYY-MM-DD day as CHAT's `@Date` writes it (`2026-03-05` → `05-MAR-2026`); null when not a real calendar day. */
function chatDate(day: string): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return null;
  const [, year = "", month = "", date = ""] = match;
  const parsed = new Date(Date.UTC(Number(year), Number(month) - 1, Number(date)));
  if (parsed.getUTCFullYear() !== Number(year) || parsed.getUTCMonth() !== Number(month) - 1) return null;
  if (parsed.getUTCDate() !== Number(date)) return null;
  return `${date}-${CHAT_MONTHS[Number(month) - 1]}-${year}`;
}

/**
 * The span of each paragraph from the paragraphs' start times (ms, null when not marked) in
 * transcript order: a paragraph runs from its start to the next usable start, the last one to the
 * audio's duration. A start is usable when it is later than every usable start before it (a time
 * out of order is ignored, so spans never go back or overlap). Null when the paragraph has no
 * usable start, or its end is unknown or not after its start.
 */
export function paragraphSpans(starts: readonly (number | null)[], durationMs: number | null): (ChatSpan | null)[] {
  const usable: (number | null)[] = [];
  let latest = -Infinity;
  for (const start of starts) {
    const ok = start !== null && Number.isFinite(start) && start >= 0 && start > latest;
    usable.push(ok ? Math.round(start) : null);
    if (ok) latest = start;
  }
  const end = durationMs !== null && Number.isFinite(durationMs) ? Math.round(durationMs) : null;
  let next: number | null = end;
  const spans: (ChatSpan | null)[] = new Array<ChatSpan | null>(starts.length).fill(null);
  for (let i = starts.length - 1; i >= 0; i--) {
    const start = usable[i] ?? null;
    if (start === null) continue;
    if (next !== null && next > start) spans[i] = { startMs: start, endMs: next };
    next = start;
  }
  return spans;
}

/**
 * A paragraph's span shared among its utterances in proportion to their length in characters:
 * boundaries at start + round(span × characters so far / all characters), so the parts follow one
 * another without gap or overlap (each ends where the next starts), in whole ms. An utterance whose
 * share rounds to nothing gets no span (null).
 */
export function splitSpan(span: ChatSpan, lengths: readonly number[]): (ChatSpan | null)[] {
  const total = lengths.reduce((sum, length) => sum + length, 0);
  if (total <= 0) return lengths.map(() => null);
  const width = span.endMs - span.startMs;
  let before = 0;
  return lengths.map((length, i) => {
    const from = span.startMs + Math.round((width * before) / total);
    before += length;
    const to = i === lengths.length - 1 ? span.endMs : span.startMs + Math.round((width * before) / total);
    return to > from ? { startMs: from, endMs: to } : null;
  });
}

/** A whole number ≥ 0 as text, or "" when unknown or not one. */
function wholeField(value: number | null | undefined): string {
  return value !== null && value !== undefined && Number.isInteger(value) && value >= 0 ? String(value) : "";
}

/** The MMSE as `@ID`'s custom field: a score from 0 to 30 (a half point kept), or "". */
function mmseField(value: number | null | undefined): string {
  return value !== null && value !== undefined && Number.isFinite(value) && value >= 0 && value <= 30
    ? String(value)
    : "";
}

/**
 * The CHAT file of a transcript (decision 024). Lines, joined with `\n` and ending with one:
 * `@UTF8`, `@Begin`, `@Languages`, `@Participants` (`PAR <role>`, and `INV Investigator` when a
 * paragraph is the investigator's), one `@ID` per speaker — PAR's
 * `lang|corpus|PAR|<age Y;MM.>|<sex>|<group>||<role>|<education years>|<MMSE>|` from the
 * participant, fields empty when unknown and only the audio's category as group without a
 * participant; INV's `lang|corpus|INV|||||Investigator|||` — `@Media: <name>, audio`, `@Date`
 * (`05-MAR-2026`) when the session day is known, the utterances, `@End`.
 *
 * Each paragraph (parseTranscript) goes on its speaker's tier, one `*PAR:`/`*INV:` line per
 * sentence (chatUtterances). A paragraph with a usable start time (paragraphSpans) gets CHAT's
 * media bullet `\u0015<start>_<end>\u0015` after the terminator and a space; when it makes several
 * utterances, its span is shared among them in proportion to their length in characters
 * (splitSpan), so bullets are whole ms, in order, never overlapping. A transcript without a word
 * has no utterance line. Throws on settings CHAT cannot carry (no language, a code that is not
 * three lowercase letters, a corpus name with other characters than letters, digits, `_`, `-`,
 * a role not in CHAT_ROLES).
 */
export function chatFile(transcript: ChatTranscript, settings: ChatSettings = DEFAULT_CHAT_SETTINGS): string {
  if (settings.languages.length === 0 || !settings.languages.every((code) => /^[a-z]{3}$/.test(code))) {
    throw new Error("CHAT languages must be ISO 639-3 codes of three lowercase letters.");
  }
  if (!/^[A-Za-z0-9_-]+$/.test(settings.corpus)) {
    throw new Error("The CHAT corpus name may hold only letters, digits, '_' and '-'.");
  }
  if (!(CHAT_ROLES as readonly string[]).includes(settings.participantRole)) {
    throw new Error(`The CHAT participant role must be one of ${CHAT_ROLES.join(", ")}.`);
  }
  const language = settings.languages[0] as string;
  const paragraphs = parseTranscript(transcript.text);
  const spans = paragraphSpans(
    paragraphs.map((paragraph) => paragraph.startMs),
    transcript.durationMs ?? null,
  );
  const tiers = paragraphs.flatMap((paragraph, i) => {
    const texts = chatUtterances(paragraph.text).map(chatUtteranceText);
    const span = spans[i];
    const parts = span
      ? splitSpan(
          span,
          texts.map((text) => text.length),
        )
      : [];
    return texts.map((text, k) => {
      const part = parts[k];
      const bullet = part ? ` ${CHAT_BULLET}${part.startMs}_${part.endMs}${CHAT_BULLET}` : "";
      return `*${paragraph.speaker}:\t${text}${bullet}`;
    });
  });

  const participant = transcript.participant ?? null;
  const group = participant && PARTICIPANT_GROUPS.includes(participant.group) ? participant.group : transcript.category;
  const age = participant?.ageMonths;
  const participantId = [
    language,
    settings.corpus,
    PARTICIPANT_CODE,
    age !== null && age !== undefined && Number.isInteger(age) && age >= 0 ? chatAge(age) : "",
    participant?.sex && SEXES.includes(participant.sex) ? participant.sex : "",
    group,
    "",
    settings.participantRole,
    wholeField(participant?.educationYears),
    mmseField(participant?.mmse),
  ];
  const investigator = paragraphs.some((paragraph) => paragraph.speaker === INVESTIGATOR_CODE);
  const investigatorId = [language, settings.corpus, INVESTIGATOR_CODE, "", "", "", "", INVESTIGATOR_ROLE, "", ""];
  const date = transcript.sessionDate ? chatDate(transcript.sessionDate) : null;
  // @Media names a file: no space, comma or control character in it, and never empty.
  const media = transcript.mediaName.replace(/[\s,\p{Cc}\p{Cf}\u2022]+/gu, "_") || "audio";

  const lines = [
    "@UTF8",
    "@Begin",
    `@Languages:\t${settings.languages.join(", ")}`,
    `@Participants:\t${PARTICIPANT_CODE} ${settings.participantRole}${investigator ? `, ${INVESTIGATOR_CODE} ${INVESTIGATOR_ROLE}` : ""}`,
    `@ID:\t${participantId.join("|")}|`,
    ...(investigator ? [`@ID:\t${investigatorId.join("|")}|`] : []),
    `@Media:\t${media}, audio`,
    ...(date ? [`@Date:\t${date}`] : []),
    ...tiers,
    "@End",
  ];
  return `${lines.join("\n")}\n`;
}

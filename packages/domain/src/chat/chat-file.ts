import { chatAge } from "../participant-age";
import { PARTICIPANT_GROUPS, SEXES, type ParticipantGroup, type Sex } from "../participant-fields";
import type { LanguagePair } from "../translation/segments";
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
import { paragraphTiers, segmentTiers, translationTier, type ChatSegment, type ChatSpan } from "./chat-tiers";

// The tiers and their times, for the index (which lists this file) and the export.
export {
  chatSegmentSpans,
  paragraphSpans,
  segmentSpans,
  sourceUtterances,
  splitSpan,
  type ChatSegment,
  type ChatSpan,
} from "./chat-tiers";

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
  /**
   * Decision 035: the recording's segments, source and translation. When one of them has a source,
   * the file holds the sources on the main tier and the translations on a dependent tier, and
   * `text` is not written; otherwise (absent, null, or no source) the main tier holds `text`.
   */
  segments?: readonly ChatSegment[] | null;
  /**
   * Decision 035: the recording's language pair. `@Languages` and `@ID` then name the language of
   * the main tier (the source, or the target when the main tier holds the translation) and the
   * settings' languages are not written; absent or null: the settings' languages.
   */
  languages?: LanguagePair | null;
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
 * The CHAT file of a transcript (decisions 024 and 035). Lines, joined with `\n` and ending with one:
 * `@UTF8`, `@Begin`, `@Languages`, `@Participants` (`PAR <role>`, and `INV Investigator` when an
 * utterance is the investigator's), one `@ID` per speaker — PAR's
 * `lang|corpus|PAR|<age Y;MM.>|<sex>|<group>||<role>|<education years>|<MMSE>|` from the
 * participant, fields empty when unknown and only the audio's category as group without a
 * participant; INV's `lang|corpus|INV|||||Investigator|||` — `@Media: <name>, audio`, `@Date`
 * (`05-MAR-2026`) when the session day is known, the utterances, `@End`.
 *
 * The language (`@Languages`, each `@ID`) is the language of the main tier: with the recording's
 * language pair (`languages`), its source when the file holds sources, its target otherwise;
 * without a pair, the settings' languages (the first in `@ID`).
 *
 * Translated segments (decision 035: `segments`, one of them with a source): each segment's
 * source on its speaker's main tier, kept as written when it is a CHAT utterance (sourceUtterances;
 * `www .` when it has none), with CHAT's media bullet `\u0015<start>_<end>\u0015` after the
 * terminator and a space from its span (segmentSpans, shared among its utterances by length); then
 * its translation on the dependent tier `%eng` (target `eng`) or `%xtra` (any other target),
 * after its last utterance, on one line as written.
 *
 * Otherwise, the stored transcript (`text`): each paragraph (parseTranscript) goes on its
 * speaker's tier, one `*PAR:`/`*INV:` line per sentence (chatUtterances). A paragraph with a
 * usable start time (paragraphSpans) gets the media bullet; when it makes several utterances, its
 * span is shared among them in proportion to their length in characters (splitSpan), so bullets
 * are whole ms, in order, never overlapping. A transcript without a word has no utterance line.
 *
 * Throws on settings CHAT cannot carry (no language, a code that is not three lowercase letters,
 * a corpus name with other characters than letters, digits, `_`, `-`, a role not in CHAT_ROLES).
 */
export function chatFile(transcript: ChatTranscript, settings: ChatSettings = DEFAULT_CHAT_SETTINGS): string {
  const pair = transcript.languages ?? null;
  const translated = (transcript.segments ?? []).some((segment) => segment.source.trim() !== "");
  const languages = pair ? [translated ? pair.source : pair.target] : settings.languages;
  if (languages.length === 0 || !languages.every((code) => /^[a-z]{3}$/.test(code))) {
    throw new Error("CHAT languages must be ISO 639-3 codes of three lowercase letters.");
  }
  if (!/^[A-Za-z0-9_-]+$/.test(settings.corpus)) {
    throw new Error("The CHAT corpus name may hold only letters, digits, '_' and '-'.");
  }
  if (!(CHAT_ROLES as readonly string[]).includes(settings.participantRole)) {
    throw new Error(`The CHAT participant role must be one of ${CHAT_ROLES.join(", ")}.`);
  }
  const language = languages[0] as string;
  const lines = translated
    ? segmentTiers(transcript.segments ?? [], transcript.durationMs ?? null, translationTier(pair?.target ?? ""))
    : paragraphTiers(transcript.text, transcript.durationMs ?? null);
  const tiers = lines.map((line) => {
    if ("tier" in line) return `%${line.tier}:\t${line.text}`;
    const bullet = line.span ? ` ${CHAT_BULLET}${line.span.startMs}_${line.span.endMs}${CHAT_BULLET}` : "";
    return `*${line.speaker}:\t${line.text}${bullet}`;
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
  const investigator = lines.some((line) => "speaker" in line && line.speaker === INVESTIGATOR_CODE);
  const investigatorId = [language, settings.corpus, INVESTIGATOR_CODE, "", "", "", "", INVESTIGATOR_ROLE, "", ""];
  const date = transcript.sessionDate ? chatDate(transcript.sessionDate) : null;
  // @Media names a file: no space, comma or control character in it, and never empty.
  const media = transcript.mediaName.replace(/[\s,\p{Cc}\p{Cf}\u2022]+/gu, "_") || "audio";

  const header = [
    "@UTF8",
    "@Begin",
    `@Languages:\t${languages.join(", ")}`,
    `@Participants:\t${PARTICIPANT_CODE} ${settings.participantRole}${investigator ? `, ${INVESTIGATOR_CODE} ${INVESTIGATOR_ROLE}` : ""}`,
    `@ID:\t${participantId.join("|")}|`,
    ...(investigator ? [`@ID:\t${investigatorId.join("|")}|`] : []),
    `@Media:\t${media}, audio`,
    ...(date ? [`@Date:\t${date}`] : []),
  ];
  return `${[...header, ...tiers, "@End"].join("\n")}\n`;
}

/** A translated recording as the media of its own CHAT file (decision 035, the parallel speech corpus). */
export interface ChatRecording {
  /** The recording's file name in the export, without its extension (`@Media`). */
  mediaName: string;
  /** Its duration in ms; null when not known (the spans are then taken as given). */
  durationMs: number | null;
  /** Each segment's span in the recording, whole ms, in the order of the transcript's segments; null: none. */
  spans: readonly (ChatSpan | null)[];
}

/**
 * The transcript of a translated recording (decision 035: a `.cha` has one `@Media`, so the
 * re-recorded translation gets a file of its own), for chatFile: each segment with a translation
 * has its translation as what was said (the main tier: kept as written when a CHAT utterance,
 * else made CHAT as typed text is) and its source as its translation (the dependent tier: `%eng`
 * when the source language is `eng`, else `%xtra`), its times its span in the recording
 * (`recording.spans`, same order as `transcript.segments`; no bullet without one), so chatFile
 * keeps the bullets in order and within `recording.durationMs` as it does for the original audio
 * (segmentSpans); `@Languages` and `@ID` name the target language; speakers, participant, session
 * day and category are kept; `@Media` names the recording. A segment without a translation was not
 * spoken in it and is left out. Returns null when the transcript has no language pair, no segment
 * with a source, or none with a translation (nothing to pair).
 */
export function translatedRecordingTranscript(
  transcript: ChatTranscript,
  recording: ChatRecording,
): ChatTranscript | null {
  const pair = transcript.languages ?? null;
  const segments = transcript.segments ?? [];
  if (!pair || !segments.some((segment) => segment.source.trim() !== "")) return null;
  if (!segments.some((segment) => segment.target.trim() !== "")) return null;
  return {
    ...transcript,
    mediaName: recording.mediaName,
    durationMs: recording.durationMs,
    languages: { source: pair.target, target: pair.source },
    segments: segments.map((segment, i): ChatSegment => {
      const spoken = segment.target.trim() !== "";
      const span = spoken ? (recording.spans[i] ?? null) : null;
      return {
        speaker: segment.speaker,
        startMs: span?.startMs ?? null,
        endMs: span?.endMs ?? null,
        source: spoken ? segment.target : "",
        target: spoken ? segment.source : "",
      };
    }),
  };
}

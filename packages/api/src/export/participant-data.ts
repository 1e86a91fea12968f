import {
  ageInMonthsOn,
  SCORE_INSTRUMENT_KEYS,
  type ChatParticipant,
  type CognitiveScore,
  type ParticipantGroup,
  type ScoreInstrument,
  type Sex,
} from "@tafsiri/domain";
import type { ExportedParticipant } from "@tafsiri/db/repositories/exports";

/**
 * What a dataset export writes of a participant for one recording (decision 024): pure functions,
 * no I/O. Never a name (there are none) and never the notes.
 */

/** A cognitive score as exported: the score and the day it was taken (YYYY-MM-DD, null if not known). */
interface ExportedScore {
  score: number;
  takenOn: string | null;
}

/** A participant as of one recording session. */
export interface ParticipantAtSession {
  code: string;
  group: ParticipantGroup;
  sex: Sex | null;
  /** Age in whole months on the session day (from the birth date, or the recorded age moved on); null if not known. */
  ageMonths: number | null;
  educationYears: number | null;
  /** ISO 639-3 codes. */
  languages: string[];
  /** Per instrument, the score taken nearest the session day (scoreNearest); null when none was given. */
  scores: Record<ScoreInstrument, ExportedScore | null>;
}

/** Days since 1970-01-01 of a YYYY-MM-DD day. */
function dayNumber(day: string): number {
  return Date.parse(`${day}T00:00:00Z`) / 86_400_000;
}

/**
 * Of `scores`, the one of `instrument` taken nearest `sessionDate` (YYYY-MM-DD; the earlier one on
 * a tie); without a session day, the latest taken. A score whose day is not known counts only when
 * no dated one exists. Null when the instrument has no score.
 */
function scoreNearest(
  scores: CognitiveScore[],
  instrument: ScoreInstrument,
  sessionDate: string | null,
): ExportedScore | null {
  let best: CognitiveScore | null = null;
  let bestRank = Infinity;
  for (const s of scores) {
    if (s.instrument !== instrument) continue;
    let rank: number;
    if (s.takenOn === null) rank = Number.MAX_SAFE_INTEGER;
    else if (sessionDate === null) rank = -dayNumber(s.takenOn);
    else {
      const distance = dayNumber(s.takenOn) - dayNumber(sessionDate);
      // Earlier wins a tie: the score stood when the recording was made.
      rank = Math.abs(distance) * 2 + (distance > 0 ? 1 : 0);
    }
    if (best === null || rank < bestRank) {
      best = s;
      bestRank = rank;
    }
  }
  return best ? { score: best.score, takenOn: best.takenOn } : null;
}

/** Participant `p` as of the session of `sessionDate` (YYYY-MM-DD, null when not known). */
export function participantAtSession(p: ExportedParticipant, sessionDate: string | null): ParticipantAtSession {
  const scores = Object.fromEntries(
    SCORE_INSTRUMENT_KEYS.map((instrument) => [instrument, scoreNearest(p.scores, instrument, sessionDate)]),
  ) as Record<ScoreInstrument, ExportedScore | null>;
  return {
    code: p.code,
    group: p.group,
    sex: p.sex,
    ageMonths: ageInMonthsOn(p, sessionDate),
    educationYears: p.educationYears,
    languages: p.languages,
    scores,
  };
}

/** The CHAT writer's participant of `at` (`@ID`: group, sex, age, education; the MMSE nearest the session). */
export function chatParticipant(at: ParticipantAtSession): ChatParticipant {
  return {
    code: at.code,
    group: at.group,
    sex: at.sex,
    ageMonths: at.ageMonths,
    educationYears: at.educationYears,
    mmse: at.scores.MMSE?.score ?? null,
  };
}

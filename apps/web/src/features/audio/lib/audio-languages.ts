import { LANGUAGE_CODE, type LanguagePair } from "@tafsiri/domain";

/**
 * An audio's own languages (decision 035) as the upload form and the Manage Audios dialog take
 * them: ISO 639-3 codes checked with LANGUAGE_CODE of @tafsiri/domain, the rule the server checks
 * with; an empty field keeps the programme's language.
 */

/** The server's message for a code that is not ISO 639-3, said in the browser before sending. */
const LANGUAGE_CODE_MESSAGE = "A language is an ISO 639-3 code of three lower-case letters, such as eng or swa.";

/** The two fields as typed. */
export interface LanguageFieldValues {
  source: string;
  target: string;
}

/** The fields' problems, by field; a field without one is absent. */
export type LanguageFieldErrors = Partial<Record<keyof LanguageFieldValues, string>>;

/** A code as typed, trimmed and lower-cased; null when empty (the programme's language). */
function typedLanguage(text: string): string | null {
  const code = text.trim().toLowerCase();
  return code === "" ? null : code;
}

/** The browser's check: each field empty or an ISO 639-3 code (after trimming and lower-casing). */
export function languageErrors(values: LanguageFieldValues): LanguageFieldErrors {
  const errors: LanguageFieldErrors = {};
  for (const field of ["source", "target"] as const) {
    const code = typedLanguage(values[field]);
    if (code !== null && !LANGUAGE_CODE.test(code)) errors[field] = LANGUAGE_CODE_MESSAGE;
  }
  return errors;
}

/** `{ sourceLanguage, targetLanguage }` of the fields (null for an empty one), as the server takes them. */
export function audioLanguagesOf(values: LanguageFieldValues): {
  sourceLanguage: string | null;
  targetLanguage: string | null;
} {
  return { sourceLanguage: typedLanguage(values.source), targetLanguage: typedLanguage(values.target) };
}

/** 'eng → swa'. */
export function pairLabel(pair: LanguagePair): string {
  return `${pair.source} → ${pair.target}`;
}

/**
 * The pair of an audio that has languages of its own ('lug → eng'; the programme's, when known,
 * for the one it leaves to the programme), or null when it has none.
 */
export function ownPairLabel(
  audio: { sourceLanguage: string | null; targetLanguage: string | null },
  programme: LanguagePair | null,
): string | null {
  if (audio.sourceLanguage === null && audio.targetLanguage === null) return null;
  return pairLabel({
    source: audio.sourceLanguage ?? programme?.source ?? "the programme's",
    target: audio.targetLanguage ?? programme?.target ?? "the programme's",
  });
}

import { LANGUAGE_CODE } from "@tafsiri/domain";
import type { LanguagePair, TranslationSettings } from "./translation-types";

/**
 * Management → Translation's 'Languages and rules' form (decision 035): the settings as the
 * inputs hold them, the browser's check of the language codes (LANGUAGE_CODE of @tafsiri/domain,
 * the rule the server checks with; the server has the last word, e.g. on how many source
 * languages there may be) and `translation.setSettings`'s input.
 */

/** The form as typed: the languages as text, the two switches as they are. */
export interface SettingsFormValues {
  /** ISO 639-3 codes separated by commas or spaces, the main (default) source language first. */
  sourceLanguages: string;
  targetLanguage: string;
  staffWriteSource: boolean;
  keepChatMarkers: boolean;
}

/** The form's errors, by field; a field without a problem is absent. */
export type SettingsFormErrors = Partial<Record<"sourceLanguages" | "targetLanguage", string>>;

/** The form of saved settings: the source languages joined with ', '. */
export function settingsFormOf(settings: TranslationSettings): SettingsFormValues {
  return {
    sourceLanguages: settings.sourceLanguages.join(", "),
    targetLanguage: settings.targetLanguage,
    staffWriteSource: settings.staffWriteSource,
    keepChatMarkers: settings.keepChatMarkers,
  };
}

/** The codes typed: split on commas, semicolons and spaces, lower-cased, empty ones dropped. */
export function languageCodes(text: string): string[] {
  return text
    .split(/[\s,;]+/)
    .map((code) => code.trim().toLowerCase())
    .filter((code) => code.length > 0);
}

/** Why `code` (as typed, lower-cased) is not an ISO 639-3 code, or null when it is one. */
export function languageCodeProblem(code: string): string | null {
  if (code === "") return "Give a language code, such as swa.";
  return LANGUAGE_CODE.test(code)
    ? null
    : `"${code}" is not an ISO 639-3 code: write three lower-case letters, such as eng or swa.`;
}

/** The browser's checks: at least one source language, and every code an ISO 639-3 code. */
export function settingsErrors(values: SettingsFormValues): SettingsFormErrors {
  const errors: SettingsFormErrors = {};
  const sources = languageCodes(values.sourceLanguages);
  if (sources.length === 0) errors.sourceLanguages = "Give at least one source language, such as eng.";
  else {
    const problem = sources.map(languageCodeProblem).find((p) => p !== null);
    if (problem) errors.sourceLanguages = problem;
  }
  const target = languageCodeProblem(values.targetLanguage.trim().toLowerCase());
  if (target) errors.targetLanguage = target;
  return errors;
}

/** `translation.setSettings`'s input of a form that passed settingsErrors (repeated codes kept once). */
export function settingsInput(values: SettingsFormValues): TranslationSettings {
  return {
    sourceLanguages: [...new Set(languageCodes(values.sourceLanguages))],
    targetLanguage: values.targetLanguage.trim().toLowerCase(),
    staffWriteSource: values.staffWriteSource,
    keepChatMarkers: values.keepChatMarkers,
  };
}

/** The programme's pairs: each source language into the target language, the default (first) one first. */
export function programmePairs(settings: TranslationSettings): LanguagePair[] {
  return settings.sourceLanguages.map((source) => ({ source, target: settings.targetLanguage }));
}

/** A pair for people: 'eng → swa'. */
export function pairLabel(pair: LanguagePair): string {
  return `${pair.source} → ${pair.target}`;
}

/** Whether two pairs are the same. */
export function samePair(a: LanguagePair, b: LanguagePair): boolean {
  return a.source === b.source && a.target === b.target;
}

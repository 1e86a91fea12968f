import type { LanguagePair } from "@tafsiri/domain";
import type { Executor } from "@tafsiri/db";
import {
  findTranslationSettings,
  storeTranslationSettings,
  updateAudioLanguages,
} from "@tafsiri/db/repositories/translation/translation-settings";
import { insertAuditEntry } from "@tafsiri/db/repositories/audit-log";
import type { AppDeps, SessionUser } from "../context";
import type { TranslationSettings } from "../schemas/translation";
import { lockAudioAccess, requireAdmin } from "../services/access";

/** Decision 035: the settings of a programme that never set them. */
export const DEFAULT_TRANSLATION_SETTINGS: TranslationSettings = {
  sourceLanguages: ["eng"],
  targetLanguage: "swa",
  staffWriteSource: true,
  keepChatMarkers: true,
};

/** The programme's translation settings, the defaults filling what was never set. */
export async function readTranslationSettings(db: Executor): Promise<TranslationSettings> {
  return { ...DEFAULT_TRANSLATION_SETTINGS, ...(await findTranslationSettings(db)) };
}

/** Decision 035: the programme's translation settings, for every signed-in user (staff see the languages). */
export function getTranslationSettings(deps: AppDeps): Promise<TranslationSettings> {
  return readTranslationSettings(deps.db);
}

/**
 * Decision 035 (admin): stores the programme's translation settings whole, audited
 * 'translation.settings' with the old and new values. Throws FORBIDDEN for staff. Returns them
 * and the sentence said.
 */
export async function updateTranslationSettings(
  deps: AppDeps,
  user: SessionUser,
  settings: TranslationSettings,
): Promise<{ message: string; settings: TranslationSettings }> {
  requireAdmin(user);
  const unique = { ...settings, sourceLanguages: [...new Set(settings.sourceLanguages)] };
  await deps.db.transaction().execute(async (trx) => {
    const before = await readTranslationSettings(trx);
    await storeTranslationSettings(trx, unique);
    await insertAuditEntry(trx, user.id, "translation.settings", "setting", "translation", {
      from: before,
      to: unique,
    });
  });
  return { message: "Translation settings saved.", settings: unique };
}

/** An audio's language pair: its own languages, else the programme's (the first source language). */
export function languagePairOf(
  settings: TranslationSettings,
  audio: { sourceLanguage: string | null; targetLanguage: string | null },
): LanguagePair {
  return {
    source: audio.sourceLanguage ?? settings.sourceLanguages[0] ?? DEFAULT_TRANSLATION_SETTINGS.sourceLanguages[0]!,
    target: audio.targetLanguage ?? settings.targetLanguage,
  };
}

/**
 * Decision 035 (admin): an audio's own languages (null: the programme's), audited
 * 'audio.languages'. Throws FORBIDDEN for staff, NOT_FOUND 'Audio not found.'. Returns the
 * sentence said and the audio's pair now.
 */
export async function setAudioLanguages(
  deps: AppDeps,
  user: SessionUser,
  input: { audioId: string; sourceLanguage: string | null; targetLanguage: string | null },
): Promise<{ message: string; pair: LanguagePair }> {
  requireAdmin(user);
  const audio = await deps.db.transaction().execute(async (trx) => {
    const { audio } = await lockAudioAccess(trx, user, input.audioId);
    await updateAudioLanguages(trx, audio.id, input.sourceLanguage, input.targetLanguage);
    await insertAuditEntry(trx, user.id, "audio.languages", "audio", audio.id, {
      audioId: audio.id,
      sourceLanguage: input.sourceLanguage,
      targetLanguage: input.targetLanguage,
    });
    return { ...audio, sourceLanguage: input.sourceLanguage, targetLanguage: input.targetLanguage };
  });
  const pair = languagePairOf(await readTranslationSettings(deps.db), audio);
  return { message: `Languages of ${audio.filename}: ${pair.source} → ${pair.target}.`, pair };
}

import { sql } from "kysely";
import type { DbTransaction, Executor } from "../../connection";

/** The settings row holding the programme's translation settings (decision 035). */
export const TRANSLATION_KEY = "translation";

/** The stored form of the programme's translation settings; the service fills the defaults. */
export interface StoredTranslationSettings {
  sourceLanguages?: string[];
  targetLanguage?: string;
  staffWriteSource?: boolean;
  keepChatMarkers?: boolean;
}

/** The programme's translation settings as stored ({} when never set). */
export async function findTranslationSettings(db: Executor): Promise<StoredTranslationSettings> {
  const row = await db.selectFrom("settings").select("value").where("key", "=", TRANSLATION_KEY).executeTakeFirst();
  return (row?.value ?? {}) as StoredTranslationSettings;
}

/** Stores the programme's translation settings whole (inserting the row when missing). */
export async function storeTranslationSettings(trx: DbTransaction, value: StoredTranslationSettings): Promise<void> {
  await trx
    .insertInto("settings")
    .values({ key: TRANSLATION_KEY, value: sql`${JSON.stringify(value)}::jsonb`, updatedAt: new Date() })
    .onConflict((oc) =>
      oc.column("key").doUpdateSet((eb) => ({ value: eb.ref("excluded.value"), updatedAt: new Date() })),
    )
    .execute();
}

/** Sets an audio's own languages (null: the programme's). */
export async function updateAudioLanguages(
  trx: DbTransaction,
  audioId: string,
  sourceLanguage: string | null,
  targetLanguage: string | null,
): Promise<void> {
  await trx.updateTable("audios").set({ sourceLanguage, targetLanguage }).where("id", "=", audioId).execute();
}

import type { Page } from "playwright-core";
import { atPath, signIn } from "./browser";
import type { TestUser } from "./server";

/** The audio-management screens a task opens onto, by their link's name, with their path. */
const AUDIO_SCREENS = {
  "Translated Transcript": "/audiomanagement/trascript",
  "Translated Audio": "/audiomanagement/translatedaudio",
} as const;

/**
 * Signs `user` in on `page`, opens the task card of `filename` on the Tasks page and goes on to
 * `screen` through the audio-management navigation, as a staff member would.
 */
async function openTaskScreen(
  page: Page,
  user: TestUser,
  filename: string,
  screen: keyof typeof AUDIO_SCREENS,
): Promise<void> {
  await signIn(page, user);
  await atPath(page, "/Audios");
  await page.getByRole("list", { name: "Tasks" }).getByRole("button").filter({ hasText: filename }).click();
  await atPath(page, "/audiomanagement/audiocontrol");
  await page
    .getByRole("navigation", { name: "Audio management" })
    .getByRole("link", { name: screen, exact: true })
    .click();
  await atPath(page, AUDIO_SCREENS[screen]);
}

/**
 * Signs `user` in on `page`, opens the task card of `filename` on the Tasks page and goes on to its
 * Translated Transcript screen through the audio-management navigation, as a staff member would.
 */
export async function openTranslatedTranscript(page: Page, user: TestUser, filename: string): Promise<void> {
  await openTaskScreen(page, user, filename, "Translated Transcript");
}

/** The same as openTranslatedTranscript, for the task's Translated Audio screen (SPEC §2.13). */
export async function openTranslatedAudio(page: Page, user: TestUser, filename: string): Promise<void> {
  await openTaskScreen(page, user, filename, "Translated Audio");
}

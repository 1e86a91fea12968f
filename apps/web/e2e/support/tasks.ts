import type { Page } from "playwright-core";
import { atPath, signIn } from "./browser";
import type { TestUser } from "./server";

/**
 * Signs `user` in on `page`, opens the task card of `filename` on the Tasks page and goes on to its
 * Translated Transcript screen through the audio-management navigation, as a staff member would.
 */
export async function openTranslatedTranscript(page: Page, user: TestUser, filename: string): Promise<void> {
  await signIn(page, user);
  await atPath(page, "/Audios");
  await page.getByRole("list", { name: "Tasks" }).getByRole("button").filter({ hasText: filename }).click();
  await atPath(page, "/audiomanagement/audiocontrol");
  await page
    .getByRole("navigation", { name: "Audio management" })
    .getByRole("link", { name: "Translated Transcript", exact: true })
    .click();
  await atPath(page, "/audiomanagement/trascript");
}

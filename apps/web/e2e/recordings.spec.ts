// SPEC §2.9 Recommended Recordings (/Recordings) in a real browser: staff A's audio, with a saved
// transcript, is recommended to staff B. B, already on the page, sees the card appear without a
// reload (live), with the recipient, the assignee, the category and the statuses; clicking it opens
// the audio control page of that audio. Staff A, to whom nothing was recommended, sees 'No
// recommendations available'. The admin sees the card too, and opening it records the admin's
// last opening.
import { beforeAll, expect } from "vitest";
import type { Locator, Page } from "playwright-core";
import {
  atPath,
  describeBrowser,
  markWindow,
  notReloaded,
  screenshot,
  seen,
  signIn,
  useBrowserSuite,
} from "./support/browser";
import { seedAudio } from "./support/seed";
import { createSteps } from "./support/steps";
import type { TestUser } from "./support/server";

const FILENAME = "recommended-control";
const TRANSCRIPT_TEXT = "Habari za jioni.";

/** The card of `filename` in the Recommended Recordings list. */
function recommendationCard(page: Page, filename: string): Locator {
  return page.getByRole("list", { name: "Recommended recordings" }).getByRole("button").filter({ hasText: filename });
}

/** What every viewer's card shows for the recommendation (SPEC §2.9). */
async function expectCardContents(card: Locator, assignee: TestUser, recipient: TestUser): Promise<void> {
  await seen(card.getByText(FILENAME, { exact: true }));
  await seen(card.getByText("Category: Control", { exact: true }));
  await seen(card.getByText(`Assigned to ${assignee.username}`, { exact: true }));
  await seen(card.getByText(`Recommended to ${recipient.username}`, { exact: true }));
  await seen(card.getByText("Translation: In Progress", { exact: true }));
  await seen(card.getByText("Recording: In Progress", { exact: true }));
  await seen(card.getByText("Incomplete", { exact: true }));
  await seen(card.getByText("Pending", { exact: true }));
  await seen(card.getByText("No Recording", { exact: true }));
  expect(await card.getAttribute("class")).toContain("card-control");
}

describeBrowser("recommended recordings", () => {
  const suite = useBrowserSuite();
  const step = createSteps();
  let admin: TestUser;
  let staffA: TestUser;
  let staffB: TestUser;
  let audioId: string;
  let pageB: Page;

  beforeAll(async () => {
    const { server } = suite;
    admin = await server.createUser("Admin");
    staffA = await server.createUser("Staff");
    staffB = await server.createUser("Staff");
    // An uploaded audio assigned to staff A, through the services the REST upload uses, with a
    // saved transcript (the translation stage has a result, so it may be recommended).
    audioId = await seedAudio(server, admin, { filename: FILENAME, assignTo: staffA });
    await server.harness.caller(staffA).transcripts.save({ audioId, text: TRANSCRIPT_TEXT });
  });

  step("staff B, with nothing recommended yet, sees 'No recommendations available'", async () => {
    pageB = await suite.newPage("staff-b");
    await signIn(pageB, staffB);
    await pageB.goto("/Recordings");
    await seen(pageB.getByRole("heading", { name: "Recommended Recordings", level: 1 }));
    await seen(pageB.getByText("No recommendations available", { exact: true }));
    await screenshot(pageB, "recordings-01-staff-b-empty");
  });

  step("A recommends the audio to B: B's card appears without a reload, with its details", async () => {
    await markWindow(pageB);
    const result = await suite.server.harness.caller(staffA).recommendations.create({ audioId, staffId: staffB.id });
    expect(result.message).toBe("Recommendation sent successfully!.");

    const card = await seen(recommendationCard(pageB, FILENAME));
    expect(await notReloaded(pageB)).toBe(true);
    await expectCardContents(card, staffA, staffB);
    expect(await pageB.getByText("No recommendations available", { exact: true }).count()).toBe(0);
    await screenshot(pageB, "recordings-02-staff-b-card");
  });

  step("B opens the card with the keyboard and lands on the audio control page of that audio", async () => {
    const card = recommendationCard(pageB, FILENAME);
    await card.focus();
    await pageB.keyboard.press("Enter");
    await atPath(pageB, "/audiomanagement/audiocontrol");
    await seen(pageB.getByRole("heading", { name: FILENAME, level: 1 }));
    await screenshot(pageB, "recordings-03-staff-b-audio-control");
  });

  step("staff A, to whom nothing was recommended, sees 'No recommendations available'", async () => {
    const pageA = await suite.newPage("staff-a");
    await signIn(pageA, staffA);
    await pageA.goto("/Recordings");
    await seen(pageA.getByRole("heading", { name: "Recommended Recordings", level: 1 }));
    await seen(pageA.getByText("No recommendations available", { exact: true }));
    expect(await pageA.getByTestId("recommendation-card").count()).toBe(0);
    await screenshot(pageA, "recordings-04-staff-a-empty");
  });

  step("the admin sees the card too; clicking it opens the audio and records the admin's opening", async () => {
    const adminPage = await suite.newPage("admin");
    await signIn(adminPage, admin);
    await adminPage.goto("/Recordings");
    const card = await seen(recommendationCard(adminPage, FILENAME));
    await expectCardContents(card, staffA, staffB);
    await screenshot(adminPage, "recordings-05-admin-card");

    await card.click();
    await atPath(adminPage, "/audiomanagement/audiocontrol");
    await seen(adminPage.getByRole("heading", { name: FILENAME, level: 1 }));
    await expect
      .poll(async () => (await suite.server.harness.caller(admin).audios.get({ audioId })).lastOpened?.username)
      .toBe(admin.username);
  });
});

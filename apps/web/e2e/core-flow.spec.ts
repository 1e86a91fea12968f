// The core workflow (SPEC §4) in a real browser, one ordered flow sharing state.
// An admin uploads audios (single and bulk) and assigns one to a staff member; the staff member
// plays it, writes a translated transcript and uploads a translated recording; the admin
// approves the transcript, rejects then approves the recording; both see the task Completed.
// Labels and toasts are the spec's (SPEC §2.8, §2.11–§2.13, §2.16, §2.17, §5, §8).
import { beforeAll, expect } from "vitest";
import type { Locator, Page } from "playwright-core";
import {
  atPath,
  describeBrowser,
  screenshot,
  seen,
  signIn,
  toast,
  toastsGone,
  useBrowserSuite,
} from "./support/browser";
import { createSteps, fixture } from "./support/steps";
import type { TestUser } from "./support/server";

const TRANSCRIPT_TEXT = "Moja, mbili, tatu.";

/** The task card of `filename` on the Tasks page (/Audios). */
function taskCard(page: Page, filename: string): Locator {
  return page.getByRole("list", { name: "Tasks" }).getByRole("button").filter({ hasText: filename });
}

/** Waits until the named player is ready, presses Play and waits until it plays. */
async function play(page: Page, playerName: string): Promise<void> {
  const player = page.getByRole("group", { name: playerName, exact: true });
  await seen(player.and(page.locator('[data-status="ready"]')));
  await player.getByRole("button", { name: "Play" }).click();
  await seen(player.and(page.locator('[data-state="playing"]')));
}

/** Opens a screen of the audio-management sub-navigation. */
async function openAudioScreen(
  page: Page,
  name: "Audio" | "Translated Transcript" | "Translated Audio",
  path: string,
): Promise<void> {
  await page.getByRole("navigation", { name: "Audio management" }).getByRole("link", { name, exact: true }).click();
  await atPath(page, path);
}

describeBrowser("core workflow: upload, assign, transcribe, re-record, approve", () => {
  const suite = useBrowserSuite();
  const step = createSteps();
  let admin: TestUser;
  let staff: TestUser;
  let adminPage: Page;
  let staffPage: Page;

  beforeAll(async () => {
    admin = await suite.server.createUser("Admin");
    staff = await suite.server.createUser("Staff");
  });

  step("the admin signs in and lands on the dashboard", async () => {
    adminPage = await suite.newPage("admin");
    await signIn(adminPage, admin);
    await atPath(adminPage, "/");
  });

  step("single upload: a WAV and an MP3 in category Control", async () => {
    await adminPage.goto("/management/upload");
    await seen(adminPage.getByRole("heading", { name: "Upload", exact: true }));
    const single = adminPage.getByRole("region", { name: "Single upload" });
    for (const file of ["single-control.wav", "single-mp3.mp3"]) {
      await single.getByLabel("Category").selectOption("Control");
      await single.getByLabel("Audio file").setInputFiles(fixture(file));
      await seen(single.getByText(file, { exact: true }));
      await single.getByRole("button", { name: "Upload", exact: true }).click();
      await toast(adminPage, `${file.split(".")[0]} has been uploaded successfully.`);
    }
    await screenshot(adminPage, "core-flow-01-single-upload");
  });

  step("bulk upload: a zip of three audio files in category Dementia", async () => {
    const bulk = adminPage.getByRole("region", { name: "Bulk upload" });
    await bulk.getByLabel("Category").selectOption("Dementia");
    await bulk.getByLabel("Zip file").setInputFiles(fixture("bulk-dementia.zip"));
    await seen(bulk.getByText("bulk-dementia.zip", { exact: true }));
    // The 'n/total' progress is short-lived with tiny files: watched for, but the toast is the proof.
    const progress = bulk
      .locator(".upload-progress")
      .filter({ hasText: /[1-3]\/3/ })
      .waitFor({ state: "visible", timeout: 10_000 })
      .then(
        () => true,
        () => false,
      );
    await bulk.getByRole("button", { name: "Upload Bulk" }).click();
    const done = await toast(adminPage, "All files uploaded successfully!");
    await screenshot(adminPage, "core-flow-02-bulk-upload");
    await seen(done.getByText("3 files uploaded."));
    console.info(`bulk upload progress 'n/3' ${(await progress) ? "was" : "was not"} seen before the final toast`);
  });

  step("a zip with no audio in it is refused", async () => {
    const bulk = adminPage.getByRole("region", { name: "Bulk upload" });
    await bulk.getByLabel("Category").selectOption("Dementia");
    await bulk.getByLabel("Zip file").setInputFiles(fixture("no-audio.zip"));
    await bulk.getByRole("button", { name: "Upload Bulk" }).click();
    await toast(adminPage, "No valid audio files found in the zip.");
  });

  step("a text file renamed .mp3 is refused", async () => {
    const single = adminPage.getByRole("region", { name: "Single upload" });
    await single.getByLabel("Category").selectOption("Control");
    await single.getByLabel("Audio file").setInputFiles(fixture("fake-audio.mp3"));
    await single.getByRole("button", { name: "Upload", exact: true }).click();
    await toast(adminPage, "The selected file is not a valid audio file.");
    await screenshot(adminPage, "core-flow-03-invalid-uploads");
  });

  step("Assign Tasks lists the uploads (not the refused file) and assigns one audio to the staff member", async () => {
    await adminPage.goto("/management/createtasks");
    await seen(adminPage.getByRole("heading", { name: "Assign Tasks", exact: true }));
    const table = adminPage.getByRole("table");
    await adminPage.getByRole("group", { name: "Category" }).getByRole("button", { name: "Dementia" }).click();
    for (const name of ["bulk-three", "bulk-four", "bulk-five"])
      await seen(table.getByRole("cell", { name, exact: true }));
    await adminPage.getByRole("group", { name: "Category" }).getByRole("button", { name: "Control" }).click();
    await seen(table.getByRole("cell", { name: "single-control", exact: true }));
    await seen(table.getByRole("cell", { name: "single-mp3", exact: true }));
    expect(await table.getByRole("cell", { name: "fake-audio" }).count()).toBe(0);

    const row = table
      .getByRole("row")
      .filter({ has: adminPage.getByRole("cell", { name: "single-control", exact: true }) });
    const assign = row.getByRole("button", { name: "Assign", exact: true });
    expect(await assign.isDisabled()).toBe(true);
    await row.getByLabel("Staff for single-control").selectOption({ label: staff.username });
    await screenshot(adminPage, "core-flow-04-assign");
    await assign.click();
    await toast(adminPage, "Audio assigned successfully!");
    await table.getByRole("cell", { name: "single-control", exact: true }).waitFor({ state: "detached" });
    await seen(table.getByRole("cell", { name: "single-mp3", exact: true }));
  });

  step("the staff member signs in and sees the task card on /Audios", async () => {
    staffPage = await suite.newPage("staff");
    await signIn(staffPage, staff);
    await atPath(staffPage, "/Audios");
    const card = await seen(taskCard(staffPage, "single-control"));
    await seen(card.getByText(`Assigned to ${staff.username}`, { exact: true }));
    await seen(card.getByText("Incomplete", { exact: true }));
    await seen(card.getByText("No Transcript", { exact: true }));
    await seen(card.getByText("No Recording", { exact: true }));
    expect(await card.getAttribute("class")).toContain("card-control");
    await screenshot(staffPage, "core-flow-05-staff-tasks");
  });

  step("the staff member opens the task and plays the audio", async () => {
    await taskCard(staffPage, "single-control").click();
    await atPath(staffPage, "/audiomanagement/audiocontrol");
    await seen(staffPage.getByRole("heading", { name: "single-control", level: 1 }));
    await play(staffPage, "Audio");
    await screenshot(staffPage, "core-flow-06-playing");
  });

  step("Translated Transcript: an empty transcript is refused, a written one is saved as Pending", async () => {
    await openAudioScreen(staffPage, "Translated Transcript", "/audiomanagement/trascript");
    await seen(staffPage.getByText("No Transcript", { exact: true }));
    await staffPage.getByRole("button", { name: "Save Changes" }).click();
    await toast(staffPage, "Transcript is empty.");
    await toastsGone(staffPage);

    await staffPage.getByRole("button", { name: "Write", exact: true }).click();
    const editor = await seen(staffPage.getByRole("textbox", { name: "Translated transcript editor" }));
    await editor.pressSequentially(TRANSCRIPT_TEXT);
    await staffPage.getByRole("button", { name: "Save Changes" }).click();
    await toast(staffPage, "Transcript saved and uploaded successfully.");
    await seen(staffPage.getByText("Pending", { exact: true }));
    await seen(staffPage.getByText(TRANSCRIPT_TEXT, { exact: true }));
    await screenshot(staffPage, "core-flow-07-transcript-saved");
    await toastsGone(staffPage);

    // Whitespace only is empty too, and leaves the saved transcript as it was.
    await staffPage.getByRole("button", { name: "Write", exact: true }).click();
    const again = await seen(staffPage.getByRole("textbox", { name: "Translated transcript editor" }));
    await again.press("ControlOrMeta+a");
    await again.press("Backspace");
    await again.pressSequentially("   ");
    await staffPage.getByRole("button", { name: "Save Changes" }).click();
    await toast(staffPage, "Transcript is empty.");
    await toastsGone(staffPage);
    await staffPage.getByRole("button", { name: "Cancel", exact: true }).click();
    await seen(staffPage.getByText(TRANSCRIPT_TEXT, { exact: true }));
    await seen(staffPage.getByText("Pending", { exact: true }));
  });

  step("Translated Audio: a recorder is required, then the recording is uploaded as Pending", async () => {
    await openAudioScreen(staffPage, "Translated Audio", "/audiomanagement/translatedaudio");
    await seen(staffPage.getByText("No submission yet", { exact: true }));
    await seen(staffPage.getByRole("heading", { name: "Upload Translated Audio" }));
    await staffPage.getByLabel("Translated audio file").setInputFiles(fixture("translated-recording.mp3"));
    await seen(staffPage.getByText("translated-recording.mp3", { exact: true }));
    await staffPage.getByRole("button", { name: "Upload Audio" }).click();
    await toast(staffPage, "Please select a staff to recorded the audio.");
    await toastsGone(staffPage);

    await staffPage.getByLabel("Select Recorder").selectOption({ label: `${staff.username} (You)` });
    await staffPage.getByRole("button", { name: "Upload Audio" }).click();
    await toast(staffPage, "Translation Audio file uploaded successfully.");
    await seen(staffPage.getByText("Pending", { exact: true }));
    await seen(staffPage.getByText(`Recorded by ${staff.username}`, { exact: true }));
    await seen(
      staffPage
        .getByRole("group", { name: "Translated audio", exact: true })
        .and(staffPage.locator('[data-status="ready"]')),
    );
    await screenshot(staffPage, "core-flow-08-recording-uploaded");
  });

  step("the admin opens the task and approves the transcript", async () => {
    await adminPage.goto("/Audios");
    const card = await seen(taskCard(adminPage, "single-control"));
    await seen(card.getByText(`Assigned to ${staff.username}`, { exact: true }));
    await card.click();
    await atPath(adminPage, "/audiomanagement/audiocontrol");
    await seen(adminPage.getByRole("heading", { name: "single-control", level: 1 }));
    await openAudioScreen(adminPage, "Translated Transcript", "/audiomanagement/trascript");
    await seen(adminPage.getByText(TRANSCRIPT_TEXT, { exact: true }));
    await seen(adminPage.getByText("Pending", { exact: true }));
    await adminPage.getByRole("group", { name: "Review" }).getByRole("button", { name: "Approve" }).click();
    await seen(adminPage.getByText("Approved", { exact: true }));
    // Approved: the footer is gone and the transcript is read-only (SPEC §2.12).
    await adminPage.getByRole("button", { name: "Save Changes" }).waitFor({ state: "detached" });
    await screenshot(adminPage, "core-flow-09-transcript-approved");
  });

  step("the admin rejects, then approves the translated recording", async () => {
    await openAudioScreen(adminPage, "Translated Audio", "/audiomanagement/translatedaudio");
    const review = adminPage.getByRole("group", { name: "Review" });
    await seen(adminPage.getByText("Pending", { exact: true }));
    await review.getByRole("button", { name: "Reject" }).click();
    // Reject asks for an optional reason; none is given here.
    const reasonDialog = await seen(adminPage.getByRole("dialog"));
    await reasonDialog.getByRole("button", { name: "Reject", exact: true }).click();
    await toast(adminPage, "Translation Audio file rejected successfully.");
    await seen(adminPage.getByText("Rejected", { exact: true }));
    await screenshot(adminPage, "core-flow-10-recording-rejected");
    await toastsGone(adminPage);
    await review.getByRole("button", { name: "Approve" }).click();
    await toast(adminPage, "Translation Audio file approved successfully.");
    await seen(adminPage.getByText("Approved", { exact: true }));
    await screenshot(adminPage, "core-flow-11-recording-approved");
  });

  step("the task shows Completed on the admin's and the staff member's Tasks page", async () => {
    for (const page of [adminPage, staffPage]) {
      await page.goto("/Audios");
      const card = await seen(taskCard(page, "single-control"));
      await seen(card.getByText("Completed", { exact: true }));
      expect(await card.getByText("Approved", { exact: true }).count()).toBe(2);
    }
    await screenshot(adminPage, "core-flow-12-admin-completed");
    await screenshot(staffPage, "core-flow-13-staff-completed");
  });

  step("once approved, the staff member can no longer change the transcript or the recording", async () => {
    await taskCard(staffPage, "single-control").click();
    await openAudioScreen(staffPage, "Translated Transcript", "/audiomanagement/trascript");
    await seen(staffPage.getByText("Approved", { exact: true }));
    expect(await staffPage.getByRole("button", { name: "Save Changes" }).count()).toBe(0);
    await openAudioScreen(staffPage, "Translated Audio", "/audiomanagement/translatedaudio");
    await seen(staffPage.getByText("Approved", { exact: true }));
    expect(await staffPage.getByRole("heading", { name: "Upload Translated Audio" }).count()).toBe(0);
  });

  step("Manage audios: Delete asks first; Cancel keeps the audio, Delete removes it", async () => {
    await adminPage.goto("/management/manageaudios");
    await adminPage.getByRole("group", { name: "Category" }).getByRole("button", { name: "Dementia" }).click();
    const row = await seen(adminPage.getByRole("row").filter({ hasText: "bulk-five" }));
    const opener = row.getByRole("button", { name: "Delete" });
    await opener.click();
    let dialog = await seen(
      adminPage.getByRole("alertdialog", { name: "Are you sure you want to delete this audio?" }),
    );
    await seen(dialog.getByText("This action is not reversible !"));
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "detached" });
    expect(await opener.evaluate((el) => el === document.activeElement)).toBe(true);
    await seen(row);

    await opener.click();
    dialog = await seen(adminPage.getByRole("alertdialog", { name: "Are you sure you want to delete this audio?" }));
    await dialog.getByRole("button", { name: "Delete" }).click();
    await toast(adminPage, /deleted successfully/i);
    await adminPage.getByRole("row").filter({ hasText: "bulk-five" }).waitFor({ state: "detached" });
    await seen(adminPage.getByRole("row").filter({ hasText: "bulk-four" }));
    await toastsGone(adminPage);
  });
});

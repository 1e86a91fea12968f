// SPEC §2.13, decision 035: a whole translated recording, uploaded in one file on the Translated
// Audio screen, is matched to the segments. espeak-ng speaks five translations (made here), sox
// joins them with 1.5 s of silence; the staff member uploads the file with the keyboard only, asks
// for spans ('Propose spans': the server's voice activity detector), sees one numbered region per
// segment on the waveform and one row per segment in the list, drags one region with the mouse,
// moves segment 4's end 0.2 s later with the arrow key, plays a span and confirms: the stored spans are the ones on screen. Every Tab
// stop shows its focus ring; axe finds nothing serious.
import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, expect } from "vitest";
import type { Locator, Page } from "playwright-core";
import { describeBrowser, screenshot, seen, toast, useBrowserSuite } from "./support/browser";
import { seriousAxeViolations } from "./support/axe";
import { tabTo } from "./support/focus";
import { uploadInitialTranscript } from "./support/finished-tasks";
import { seedAudio } from "./support/seed";
import { createSteps } from "./support/steps";
import { openTranslatedAudio } from "./support/tasks";
import type { TestUser } from "./support/server";

const AUDIO = "whole-recording-picnic";
const TRANSLATIONS = [
  "Niambie kila kitu unachoona kwenye picha hii.",
  "Mvulana yuko juu ya kiti.",
  "Mama anaosha vyombo jikoni.",
  "Kiti kinaanguka.",
  "Msichana anacheka na kunyoosha mkono wake.",
];
const SOURCE = [
  "INV: Tell me everything you see in this picture.",
  "PAR: The boy is on the stool.",
  "PAR: The mother washes the dishes in the kitchen.",
  "PAR: The stool falls.",
  "PAR: The girl laughs and reaches out her hand.",
].join("\n");

const work = mkdtempSync(path.join(os.tmpdir(), "tafsiri-whole-e2e-"));
/** The whole translated recording: half a second of silence, then each translation and 1.5 s of silence. */
const WHOLE = path.join(work, "whole-translation.wav");
const GAP = path.join(work, "gap.wav");
execFileSync("sox", ["-n", "-r", "22050", "-c", "1", "-b", "16", GAP, "trim", "0", "1.5"]);
const LEAD = path.join(work, "lead.wav");
execFileSync("sox", ["-n", "-r", "22050", "-c", "1", "-b", "16", LEAD, "trim", "0", "0.5"]);
const pieces = [LEAD];
for (const [i, text] of TRANSLATIONS.entries()) {
  const spoken = path.join(work, `row-${i}.wav`);
  execFileSync("espeak-ng", ["-v", "sw", "-w", spoken, text]);
  pieces.push(spoken, GAP);
}
execFileSync("sox", [...pieces, WHOLE]);

describeBrowser("matching a whole translated recording to the segments", () => {
  const suite = useBrowserSuite();
  const step = createSteps();
  let staff: TestUser;
  let audioId: string;
  let page: Page;
  const panel = () => page.getByRole("region", { name: "Match the recording to the segments" });
  const time = (segment: number, edge: "start" | "end") =>
    panel().getByRole("spinbutton", { name: `Segment ${segment} ${edge}, seconds` });
  const valueOf = async (input: Locator) => Number(await input.inputValue());

  beforeAll(async () => {
    const admin = await suite.server.createUser("Admin");
    staff = await suite.server.createUser("Staff");
    audioId = await seedAudio(suite.server, admin, { filename: AUDIO, assignTo: staff });
    await uploadInitialTranscript(suite.server, admin, audioId, SOURCE);
    const grid = await suite.server.harness.caller(staff).translation.segments({ audioId });
    await suite.server.harness.caller(staff).translation.saveDraft({
      audioId,
      segments: grid.segments.map((r, i) => ({ ...r, target: TRANSLATIONS[i]!, state: "translated" })),
    });
  });

  step("the staff member uploads the whole recording with the keyboard; the matching panel appears", async () => {
    page = await suite.newPage("staff");
    await openTranslatedAudio(page, staff, AUDIO);
    await seen(page.getByText("No submission yet", { exact: true }));
    const chooser = page.waitForEvent("filechooser");
    await tabTo(page, page.getByRole("button", { name: /Drag and drop the translated audio here/ }));
    await page.keyboard.press("Enter");
    await (await chooser).setFiles(WHOLE);
    await seen(page.getByText("whole-translation.wav", { exact: true }));
    const recorder = page.getByLabel("Select Recorder");
    await tabTo(page, recorder);
    await page.keyboard.type(`${staff.username} (You)`);
    await tabTo(page, page.getByRole("button", { name: "Upload Audio" }));
    await page.keyboard.press("Enter");
    await toast(page, "Translation Audio file uploaded successfully.");
    await seen(panel().getByRole("heading", { name: "Match the recording to the segments" }));
  });

  step("'Propose spans' shows one numbered region and one row per segment", async () => {
    await tabTo(page, panel().getByRole("button", { name: "Propose spans" }));
    await page.keyboard.press("Enter");
    await seen(time(5, "end"));
    const waveform = panel().getByRole("group", { name: "Translated recording with the segments' spans" });
    await expect.poll(() => waveform.getAttribute("data-regions")).toBe("5");
    await expect.poll(() => waveform.getAttribute("data-status")).toBe("ready");
    for (const n of [1, 2, 3, 4, 5]) await seen(waveform.getByText(String(n), { exact: true }));
    // In order, each after the one before; the first begins in the half second of silence's end.
    const times: number[] = [];
    for (const n of [1, 2, 3, 4, 5]) times.push(await valueOf(time(n, "start")), await valueOf(time(n, "end")));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(Math.abs(times[0]! - 0.5)).toBeLessThan(0.3);
    await screenshot(page, "whole-recording-spans-proposed");
    expect(await seriousAxeViolations(page)).toEqual([]);
  });

  step("dragging segment 2's region with the mouse moves its start and end in the list", async () => {
    const [start2, end2] = [await valueOf(time(2, "start")), await valueOf(time(2, "end"))];
    const waveform = panel().getByRole("group", { name: "Translated recording with the segments' spans" });
    await waveform.scrollIntoViewIfNeeded();
    // The middle of the region, above its number.
    const label = (await waveform.getByText("2", { exact: true }).boundingBox())!;
    const from = { x: label.x + label.width / 2 + 10, y: label.y - 40 };
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    for (let dx = 5; dx <= 30; dx += 5) await page.mouse.move(from.x + dx, from.y);
    await page.mouse.up();
    await expect.poll(() => valueOf(time(2, "start"))).toBeGreaterThan(start2 + 0.1);
    const moved = (await valueOf(time(2, "start"))) - start2;
    expect((await valueOf(time(2, "end"))) - end2).toBeCloseTo(moved, 2);
    expect(await valueOf(time(2, "end"))).toBeLessThanOrEqual(await valueOf(time(3, "start")));
  });

  step("segment 4's end moves 0.2 s later with ↑, a span plays, and the spans are confirmed", async () => {
    const end4 = time(4, "end");
    const before = await valueOf(end4);
    await tabTo(page, end4);
    for (let i = 0; i < 4; i++) await page.keyboard.press("ArrowUp");
    await expect.poll(() => valueOf(end4)).toBeCloseTo(before + 0.2, 3);

    await tabTo(page, panel().getByRole("button", { name: "Play segment 4" }));
    await page.keyboard.press("Enter");
    expect(await panel().getByRole("alert").count()).toBe(0);

    const onScreen: number[] = [];
    for (const n of [1, 2, 3, 4, 5]) onScreen.push(await valueOf(time(n, "start")), await valueOf(time(n, "end")));
    await tabTo(page, panel().getByRole("button", { name: "Confirm spans" }));
    await page.keyboard.press("Enter");
    await toast(page, "5 spans confirmed.");
    await seen(panel().getByText("✓ Spans confirmed"));

    const stored = (await suite.server.harness.caller(staff).translation.takes({ audioId })).spans;
    expect(stored.map((s) => s.origin)).toEqual(["confirmed", "confirmed", "confirmed", "confirmed", "confirmed"]);
    expect(stored.flatMap((s) => [s.startMs / 1000, s.endMs / 1000])).toEqual(onScreen);
    expect(await seriousAxeViolations(page)).toEqual([]);
  });

  step("after a reload the confirmed spans can be opened again and show as stored", async () => {
    await page.reload();
    const edit = page.getByRole("button", { name: "Edit the spans" });
    await tabTo(page, edit);
    await page.keyboard.press("Enter");
    const stored = (await suite.server.harness.caller(staff).translation.takes({ audioId })).spans;
    await expect.poll(() => valueOf(time(4, "end"))).toBeCloseTo(stored[3]!.endMs / 1000, 3);
  });
});

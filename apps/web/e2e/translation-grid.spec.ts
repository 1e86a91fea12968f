// Decision 035, the segment grid: an admin sets eng → swa on Management → Translation and, from the
// keyboard, uploads a CHAT source of 40 utterances (PAR and INV, bullets, fillers and repetitions),
// which is translated and approved, and a second audio's text source that repeats five of its INV
// prompts, changes one by a word and names a glossary term. The staff member opens the second
// audio's Translated Transcript, keyboard only: its segments with speakers and times; each repeated
// prompt offers a 100% memory match, inserted with Alt+1 and confirmed with Ctrl+Enter; the changed
// prompt offers a fuzzy match with its score; the glossary term is marked and its check warns until
// Alt+G inserts its translation; an untranslated segment keeps Submit disabled; Submit saves the
// SPEC's transcript file. The admin reviews side by side and rejects naming a segment, which the
// staff member sees marked; resubmitted, review mode shows both texts with the change. axe finds
// nothing serious.
import { beforeAll, expect } from "vitest";
import type { Page } from "playwright-core";
import { describeBrowser, seen, screenshot, selectAudio, signIn, toast, useBrowserSuite } from "./support/browser";
import { seriousAxeViolations } from "./support/axe";
import { tabTo } from "./support/focus";
import { seedAudio } from "./support/seed";
import { createSteps } from "./support/steps";
import { openTranslatedTranscript } from "./support/tasks";
import type { TestUser } from "./support/server";

const FIRST = "grid-cookie-theft";
const SECOND = "grid-follow-up";
const PROMPTS = [
  "tell me everything you see going on in that picture",
  "what is the boy doing",
  "is there anything else happening",
  "what about the woman at the sink",
  "can you tell me more about the kitchen",
];
const SWAHILI = [
  "niambie kila kitu unachoona kwenye picha hiyo",
  "mvulana anafanya nini",
  "kuna kitu kingine kinachotokea",
  "vipi kuhusu mwanamke kwenye sinki",
  "unaweza kuniambia zaidi kuhusu jikoni",
];

/** A CHAT file of 40 utterances: 20 INV prompts (the five repeated four times) and 20 PAR answers. */
function cookieTheftChat(): string {
  const lines = ["@UTF8", "@Begin", "@Languages:\teng", "@Participants:\tPAR Participant, INV Investigator"];
  lines.push("@ID:\teng|pitt|PAR|67;|female|ProbableAD||Participant|||", "@ID:\teng|pitt|INV|||||Investigator|||");
  lines.push(`@Media:\t${FIRST}, audio`);
  for (let i = 0; i < 20; i++) {
    const at = i * 4000;
    lines.push(`*INV:\t${PROMPTS[i % 5]} ${i} ? \u0015${at}_${at + 1500}\u0015`);
    lines.push(`*PAR:\twell &-uh the boy [/] the boy ${i} . \u0015${at + 1600}_${at + 3900}\u0015`);
  }
  lines.push("@End");
  return lines.join("\n");
}

describeBrowser("translating segment by segment with memory, glossary and checks", () => {
  const suite = useBrowserSuite();
  const step = createSteps();
  let staff: TestUser;
  let admin: TestUser;
  let page: Page;
  let secondId: string;
  const translation = (n: number) => page.getByRole("textbox", { name: `Translation ${n}`, exact: true });
  const row = (n: number) => page.getByRole("group", { name: new RegExp(`^Segment ${n} of `) });

  let firstId: string;
  const secondSource = [
    ...PROMPTS.map((p, i) => `[0:${String(i * 5).padStart(2, "0")}] INV: ${p} ${i} ?`),
    "[0:30] INV: tell me everything you see going on in this picture 0 ?",
    "[0:35] PAR: the water is running over in the kitchen.",
  ].join("\n");

  beforeAll(async () => {
    admin = await suite.server.createUser("Admin");
    staff = await suite.server.createUser("Staff");
    await suite.server.harness.caller(admin).translation.addTerm({
      pair: { source: "eng", target: "swa" },
      sourceTerm: "kitchen",
      targetTerm: "jikoni",
      note: "",
    });
    firstId = await seedAudio(suite.server, admin, { filename: FIRST, assignTo: staff });
    secondId = await seedAudio(suite.server, admin, { filename: SECOND, assignTo: staff });
  });

  step("the admin sets eng → swa and uploads a CHAT source and a text source, from the keyboard", async () => {
    const adminPage = await suite.newPage("admin");
    await signIn(adminPage, admin);
    await adminPage.goto("/management/translation");
    await tabTo(adminPage, adminPage.getByLabel("Source languages"));
    await adminPage.keyboard.press("Control+a");
    await adminPage.keyboard.type("eng");
    await tabTo(adminPage, adminPage.getByLabel("Target language"));
    await adminPage.keyboard.press("Control+a");
    await adminPage.keyboard.type("swa");
    // The interview's CHAT markers are not kept in these translations.
    await tabTo(adminPage, adminPage.getByRole("checkbox", { name: /Translations keep CHAT markers/ }));
    await adminPage.keyboard.press("Space");
    await tabTo(adminPage, adminPage.getByRole("button", { name: "Save", exact: true }));
    await adminPage.keyboard.press("Enter");
    await toast(adminPage, "Translation settings saved.");
    expect(await suite.server.harness.caller(staff).translation.settings()).toMatchObject({
      sourceLanguages: ["eng"],
      targetLanguage: "swa",
      keepChatMarkers: false,
    });

    await adminPage.goto("/management/manageaudios");
    // Newest first: the second audio's row is above the first's, so Tab goes from one to the other.
    for (const [filename, file] of [
      [SECOND, { name: `${SECOND}.txt`, mimeType: "text/plain", buffer: Buffer.from(secondSource) }],
      [FIRST, { name: `${FIRST}.cha`, mimeType: "text/plain", buffer: Buffer.from(cookieTheftChat()) }],
    ] as const) {
      const audioRow = adminPage
        .getByRole("row")
        .filter({ has: adminPage.getByRole("cell", { name: filename, exact: true }) });
      await tabTo(adminPage, audioRow.getByRole("button", { name: "Upload Transcript" }));
      await adminPage.keyboard.press("Enter");
      const dialog = await seen(adminPage.getByRole("dialog", { name: "Upload Transcript" }));
      // The operating system's file picker is not part of the page: the file is given to the input.
      await dialog.getByLabel("Transcript file").setInputFiles(file);
      await seen(dialog.getByText(file.name, { exact: true }));
      await tabTo(adminPage, dialog.getByRole("button", { name: "Upload", exact: true }));
      await adminPage.keyboard.press("Enter");
      await toast(adminPage, "Transcript uploaded successfully!");
      // The first upload's toast may still be showing: wait for this audio's source itself.
      const audioId = filename === FIRST ? firstId : secondId;
      await expect
        .poll(
          async () => (await suite.server.harness.caller(admin).translation.segments({ audioId })).hasSourceTranscript,
        )
        .toBe(true);
    }
    expect(await seriousAxeViolations(adminPage)).toEqual([]);
  });

  step("the first audio's 40 utterances are translated and approved", async () => {
    const grid = await suite.server.harness.caller(staff).translation.segments({ audioId: firstId });
    expect(grid.segments).toHaveLength(40);
    expect(grid.segments.filter((r) => r.speaker === "INV")).toHaveLength(20);
    const rows = grid.segments.map((r, i) => ({
      ...r,
      target: i % 2 === 0 ? `${SWAHILI[(i / 2) % 5]} ${i / 2} ?` : `vizuri &-uh mvulana ${(i - 1) / 2} .`,
      state: "translated" as const,
    }));
    await suite.server.harness.caller(staff).translation.submit({ audioId: firstId, segments: rows });
    await suite.server.harness.caller(admin).transcripts.approve({ audioId: firstId });
  });

  step("the second audio opens as segments with speakers and times", async () => {
    page = await suite.newPage("staff");
    await openTranslatedTranscript(page, staff, SECOND);
    await seen(page.getByRole("tab", { name: "Segments", selected: true }));
    await seen(page.getByText("0 of 7 translated"));
    await seen(row(1).getByRole("button", { name: "Play 0:00.000–0:05.000" }));
    expect(await row(1).locator(".speaker-label").innerText()).toBe("INV");
    expect(await row(7).locator(".speaker-label").innerText()).toBe("PAR");
    expect(await page.getByRole("button", { name: "Submit translation" }).isDisabled()).toBe(true);
  });

  step("each repeated prompt offers a 100% match: Alt+1 inserts it, Ctrl+Enter confirms and goes on", async () => {
    await tabTo(page, translation(1));
    for (let n = 1; n <= 5; n++) {
      await expect.poll(() => translation(n).evaluate((el) => el === document.activeElement)).toBe(true);
      await seen(row(n).locator(".memory-match .match-score", { hasText: "100%" }));
      await page.keyboard.press("Alt+1");
      await expect.poll(() => translation(n).inputValue()).toBe(`${SWAHILI[n - 1]} ${n - 1} ?`);
      await page.keyboard.press("Control+Enter");
    }
    await seen(page.getByText("5 of 7 translated"));
  });

  step("a prompt changed by one word offers a fuzzy match with its score and the changed words", async () => {
    const match = await seen(row(6).locator(".memory-match").first());
    const score = Number((await match.locator(".match-score").innerText()).replace("%", ""));
    expect(score).toBeGreaterThanOrEqual(75);
    expect(score).toBeLessThan(100);
    const words = async (tag: string) => (await match.locator(tag).allInnerTexts()).map((t) => t.trim());
    expect(await words("del")).toContain("that");
    expect(await words("ins")).toContain("this");
    await page.keyboard.press("Alt+1");
    await page.keyboard.press("Control+Enter");
  });

  step(
    "the last segment, untranslated, blocks Submit; its glossary term is marked and checked until Alt+G",
    async () => {
      await seen(page.getByText(/1 error \(they block Submit\)/));
      expect(await page.getByRole("button", { name: "Submit translation" }).isDisabled()).toBe(true);
      const term = await seen(row(7).locator("mark.glossary-term"));
      expect(await term.innerText()).toBe("kitchen");
      expect(await term.getAttribute("title")).toBe("Glossary: jikoni");
      expect(await seriousAxeViolations(page)).toEqual([]);
      await page.keyboard.press("Alt+i");
      await expect.poll(() => translation(7).inputValue()).toBe("the water is running over in the kitchen.");
      await page.keyboard.press("Control+a");
      await page.keyboard.type("maji yanafurika ");
      const warning = 'Glossary: "kitchen" should be translated as "jikoni".';
      await seen(page.locator(".checks-list").getByText(warning));
      await page.keyboard.press("Alt+g");
      await expect.poll(() => translation(7).inputValue()).toBe("maji yanafurika jikoni");
      await expect.poll(() => page.locator(".checks-list").getByText(warning).count()).toBe(0);
      await page.keyboard.press("Control+Enter");
      await seen(page.getByText("7 of 7 translated"));
      await screenshot(page, "translation-grid");
    },
  );

  step("Submit saves the transcript file, a line per segment", async () => {
    await tabTo(page, page.getByRole("button", { name: "Submit translation" }));
    await page.keyboard.press("Enter");
    await toast(page, "Transcript saved and uploaded successfully.");
    const saved = await suite.server.harness.caller(staff).transcripts.get({ audioId: secondId });
    const lines = saved.text!.split("\n");
    expect(lines).toHaveLength(7);
    expect(lines[0]).toBe(`[0:00.000] *INV: ${SWAHILI[0]} 0 ?`);
    expect(lines[6]).toBe("[0:35.000] maji yanafurika jikoni");
  });

  step("the admin reviews side by side and rejects naming segment 7, keyboard only", async () => {
    const adminPage = await suite.newPage("admin");
    await signIn(adminPage, admin);
    await selectAudio(adminPage, secondId);
    await adminPage.goto("/audiomanagement/trascript");
    await seen(adminPage.getByRole("tab", { name: "Segments", selected: true }));
    const adminRow = (n: number) => adminPage.getByRole("group", { name: new RegExp(`^Segment ${n} of `) });
    expect(await adminRow(7).locator(".segment-source").innerText()).toBe("the water is running over in the kitchen.");
    expect(await adminRow(7).getByRole("textbox", { name: "Translation 7" }).inputValue()).toBe(
      "maji yanafurika jikoni",
    );
    await tabTo(adminPage, adminRow(1).getByRole("textbox", { name: "Translation 1" }));
    for (let n = 1; n < 7; n++) await adminPage.keyboard.press("Alt+ArrowDown");
    await adminPage.keyboard.press("Alt+f");
    await seen(adminRow(7).getByText("Marked to fix"));
    const note = adminRow(7).getByRole("textbox", { name: "What to fix in segment 7 (optional)" });
    await tabTo(adminPage, note);
    await adminPage.keyboard.type("Say where the water runs.");
    expect(await seriousAxeViolations(adminPage)).toEqual([]);
    await tabTo(adminPage, adminPage.getByRole("group", { name: "Review" }).getByRole("button", { name: "Reject" }));
    await adminPage.keyboard.press("Enter");
    const dialog = await seen(adminPage.getByRole("dialog", { name: "Reject the transcript?" }));
    await tabTo(adminPage, dialog.getByRole("button", { name: "Reject", exact: true }));
    await adminPage.keyboard.press("Enter");
    await toast(adminPage, "Transcript rejected successfully.");
    await screenshot(adminPage, "translation-grid-review");
  });

  step("the staff member sees segment 7 marked to fix with the reviewer's note", async () => {
    await page.reload();
    const list = await seen(page.getByRole("region", { name: "Segments to fix" }));
    expect(await list.innerText()).toContain("Segment 7: Say where the water runs.");
    await seen(row(7).getByText("To fix: Say where the water runs."));
    await list.getByRole("button", { name: "Segment 7" }).click();
    await expect.poll(() => translation(7).evaluate((el) => el === document.activeElement)).toBe(true);
  });

  step(
    "fixed and submitted again, review mode shows source and translation side by side, the change marked",
    async () => {
      await translation(7).fill("maji yanafurika jikoni, kutoka kwenye sinki");
      await page.keyboard.press("Control+Enter");
      await tabTo(page, page.getByRole("button", { name: "Submit translation" }));
      await page.keyboard.press("Enter");
      await toast(page, "Transcript saved and uploaded successfully.");
      const adminPage = await suite.newPage("admin");
      await signIn(adminPage, admin);
      await adminPage.goto("/submission/review?status=needsReview");
      const pairs = await seen(adminPage.getByRole("table", { name: /Source \(eng\) and translation \(swa\)/ }));
      const seventh = pairs.getByRole("row").filter({ hasText: "the water is running over in the kitchen." });
      expect(await seventh.innerText()).toContain("maji yanafurika jikoni, kutoka kwenye sinki");
      expect(await seventh.innerText()).toContain("Changed since the last review");
      expect(await pairs.getByRole("row").filter({ hasText: "Changed since the last review" }).count()).toBe(1);
      expect(await seriousAxeViolations(adminPage)).toEqual([]);
    },
  );
});

// Every screen of SPEC §2.1 passes axe-core (WCAG 2.1 A and AA rules) with no
// serious or critical violation, signed out, as Admin and as Staff, with an audio selected, and
// with each dialog, side panel, dropdown and menu open. One test per view, so a screen that
// regresses fails by name. Each dialog is opened from the keyboard (Enter on its opener); the test
// checks that focus moved into it, runs the audit with it open, closes it with Escape and checks
// that focus is back on the control that opened it (Build 2).
import { beforeAll, expect, it } from "vitest";
import type { Locator, Page } from "playwright-core";
import { seriousAxeViolations } from "./support/axe";
import {
  describeBrowser,
  loadingDone,
  screenshot,
  seen,
  selectAudio,
  signIn,
  useBrowserSuite,
} from "./support/browser";
import { expectFocusRing, focusArrives, focusInside } from "./support/focus";
import { untiedFieldErrors } from "./support/forms";
import { finishTask, uploadInitialTranscript, uploadRecording } from "./support/finished-tasks";
import { seedAudio } from "./support/seed";
import type { TestUser } from "./support/server";

const PENDING = "pending-review-control";
const FINISHED = "finished-dementia";
const UNASSIGNED = "unassigned-control";
/** How long focus may take to come back to an opener after its dialog closed (ms). */
const RETURN_FOCUS_MS = 2_000;

/** Waits until the page shows its heading and no 'Loading …' placeholder is left. */
async function settled(page: Page): Promise<void> {
  await seen(page.locator("h1"));
  await loadingDone(page);
  await page.locator(".spinner").first().waitFor({ state: "detached" });
}

/** Opens `path` on `page` with `audioId` (if any) as the current audio, and waits until it settled. */
async function visit(page: Page, path: string, audioId?: string): Promise<void> {
  if (audioId) {
    await selectAudio(page, audioId);
  }
  await page.goto(path);
  await settled(page);
}

/** The violations of the page as it is, each as 'rule (impact): help; failing nodes'. */
async function violations(page: Page): Promise<string[]> {
  const found = await seriousAxeViolations(page);
  return found.map((v) => `${v.id} (${v.impact}): ${v.help}\n    ${v.targets.join("\n    ")}`);
}

/**
 * Focuses `opener`, presses Enter, waits for `opened` (the dialog, menu or panel) and checks focus
 * is inside it; for a modal (a dialog, not a menu) checks focus stays inside through a dozen Tabs
 * and Shift+Tabs (the trap), each stop showing a focus ring (support/focus.ts); audits the page; presses Escape and checks `opened` is gone and focus
 * is back on `opener`. Answers the audit's violations.
 */
async function auditOpened(page: Page, name: string, opener: Locator, opened: Locator): Promise<string[]> {
  await opener.focus();
  await page.keyboard.press("Enter");
  await seen(opened);
  await loadingDone(page);
  expect(await focusInside(opened), `focus inside ${name}`).toBe(true);
  const role = await opened.first().getAttribute("role");
  if (role === "dialog" || role === "alertdialog") {
    for (const key of [...Array<string>(12).fill("Tab"), ...Array<string>(12).fill("Shift+Tab")]) {
      await page.keyboard.press(key);
      expect(await focusInside(opened), `focus kept inside ${name} (after ${key})`).toBe(true);
      await expectFocusRing(page, `${name}, after ${key}`);
    }
  }
  const found = await violations(page);
  await screenshot(page, `accessibility-${name}`);
  await page.keyboard.press("Escape");
  await opened.waitFor({ state: "detached" });
  // Radix gives focus back a task after the content unmounts: wait for it, briefly.
  await focusArrives(page, opener, RETURN_FOCUS_MS);
  return found;
}

describeBrowser("accessibility audit", () => {
  const suite = useBrowserSuite();
  let admin: TestUser;
  let staff: TestUser;
  let pendingId: string;
  let anon: Page;
  let adminPage: Page;
  let staffPage: Page;

  beforeAll(async () => {
    const { server } = suite;
    admin = await server.createUser("Admin", { username: "Amina Admin" });
    staff = await server.createUser("Staff", { username: "Samuel Staff" });
    const other = await server.createUser("Staff", { username: "Olivia Other" });
    pendingId = await seedAudio(server, admin, { filename: PENDING, category: "Control", assignTo: staff });
    await server.harness.caller(staff).transcripts.save({ audioId: pendingId, text: "Habari ya asubuhi.\nNdiyo." });
    await uploadRecording(server, staff, pendingId);
    await uploadInitialTranscript(server, admin, pendingId, "Good morning.\nYes.");
    await finishTask(server, admin, staff, {
      filename: FINISHED,
      category: "Dementia",
      transcript: "Nilikwenda sokoni jana.",
    });
    await seedAudio(server, admin, { filename: UNASSIGNED, category: "Control" });
    const othersId = await seedAudio(server, admin, {
      filename: "others-dementia",
      category: "Dementia",
      assignTo: other,
    });
    await server.harness.caller(other).transcripts.save({ audioId: othersId, text: "Mvua ilinyesha." });
    const asAdmin = server.harness.caller(admin);
    await asAdmin.recommendations.create({ audioId: othersId, staffId: staff.id });
    await asAdmin.recommendations.create({ audioId: pendingId, staffId: other.id });
    await asAdmin.comments.add({ audioId: pendingId, text: "Please check the second line." });

    anon = await suite.newPage("signed-out");
    adminPage = await suite.newPage("admin");
    await signIn(adminPage, admin);
    staffPage = await suite.newPage("staff");
    await signIn(staffPage, staff);
  });

  const signedOut: [string, string][] = [
    ["sign in", "/signin"],
    ["password reset request", "/reset-password"],
    ["choose a new password", "/reset-password/not-a-real-token"],
    ["not found", "/utility/404"],
    ["unknown path", "/no/such/page"],
  ];
  for (const [name, path] of signedOut) {
    it(`signed out: ${name} (${path})`, async () => {
      await visit(anon, path);
      expect(await violations(anon)).toEqual([]);
    });
  }

  const adminViews: [string, string, boolean][] = [
    ["dashboard", "/", false],
    ["tasks", "/Audios", false],
    ["recommended recordings", "/Recordings", false],
    ["submissions", "/submission/general", false],
    ["accounts", "/accounts/users", false],
    ["audio", "/audiomanagement/audiocontrol", true],
    ["translated transcript", "/audiomanagement/trascript", true],
    ["translated audio", "/audiomanagement/translatedaudio", true],
    ["feedback", "/audiomanagement/feedback", true],
    ["recommend", "/audiomanagement/recommend", true],
    ["upload audios", "/management/upload", false],
    ["assign tasks", "/management/createtasks", false],
    ["manage audios", "/management/manageaudios", false],
    ["dataset export", "/management/export", false],
    ["logs", "/log/log-listing", false],
  ];
  for (const [name, path, withAudio] of adminViews) {
    it(`admin: ${name} (${path})`, async () => {
      await visit(adminPage, path, withAudio ? pendingId : undefined);
      await screenshot(adminPage, `accessibility-admin-${name}`);
      expect(await violations(adminPage)).toEqual([]);
    });
  }

  const staffViews: [string, string, boolean][] = [
    ["tasks", "/Audios", false],
    ["recommended recordings", "/Recordings", false],
    ["submissions", "/submission/general", false],
    ["audio", "/audiomanagement/audiocontrol", true],
    ["translated transcript", "/audiomanagement/trascript", true],
    ["translated audio", "/audiomanagement/translatedaudio", true],
    ["feedback", "/audiomanagement/feedback", true],
    ["recommend", "/audiomanagement/recommend", true],
    ["an admin route (not found)", "/accounts/users", false],
  ];
  for (const [name, path, withAudio] of staffViews) {
    it(`staff: ${name} (${path})`, async () => {
      await visit(staffPage, path, withAudio ? pendingId : undefined);
      await screenshot(staffPage, `accessibility-staff-${name}`);
      expect(await violations(staffPage)).toEqual([]);
    });
  }

  it("task and recommended-recording cards name their category in text, not by colour alone", async () => {
    for (const [path, list] of [
      ["/Audios", "Tasks"],
      ["/Recordings", "Recommended recordings"],
    ] as const) {
      await visit(staffPage, path);
      const cards = staffPage.getByRole("list", { name: list }).locator("[data-category]");
      const shown = await cards.evaluateAll((els) =>
        els.map((el) => ({ category: el.getAttribute("data-category"), text: (el as HTMLElement).innerText })),
      );
      expect(shown.length, `cards on ${path}`).toBeGreaterThan(0);
      for (const card of shown) expect(card.text).toContain(`Category: ${card.category}`);
    }
  });

  it("form errors are tied to their fields (sign in, create account)", async () => {
    await visit(anon, "/signin");
    await anon.getByRole("button", { name: /^sign in$/i }).click();
    await seen(anon.locator(".field-error"));
    expect(await anon.locator('[aria-invalid="true"]').count()).toBeGreaterThan(0);
    expect(await untiedFieldErrors(anon)).toEqual([]);

    await visit(adminPage, "/accounts/users");
    await adminPage.getByRole("button", { name: "Add Account" }).click();
    const panel = await seen(adminPage.getByRole("dialog"));
    await panel.getByRole("button", { name: "Create Account" }).click();
    await seen(panel.locator(".field-error"));
    expect(await panel.locator('[aria-invalid="true"]').count()).toBeGreaterThan(1);
    expect(await untiedFieldErrors(adminPage)).toEqual([]);
    await adminPage.keyboard.press("Escape");
  });

  it("staff: audio screen with no audio selected", async () => {
    await selectAudio(staffPage, null);
    await staffPage.goto("/audiomanagement/audiocontrol");
    await seen(staffPage.locator("h1"));
    expect(await violations(staffPage)).toEqual([]);
  });

  it("search dialog with results", async () => {
    await visit(adminPage, "/Audios");
    const opener = adminPage.getByRole("banner").getByRole("button", { name: "Search", exact: true });
    await opener.focus();
    await adminPage.keyboard.press("Enter");
    const dialog = adminPage.getByRole("dialog", { name: "Search audios" });
    await seen(dialog);
    await adminPage.keyboard.type("control");
    await seen(dialog.getByRole("option"));
    const found = await violations(adminPage);
    await adminPage.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
    await focusArrives(adminPage, opener, RETURN_FOCUS_MS);
    expect(found).toEqual([]);
  });

  it("notifications menu", async () => {
    await visit(staffPage, "/Audios");
    const bell = staffPage.getByRole("banner").getByRole("button", { name: "Notifications" });
    const menu = staffPage.getByRole("menu", { name: "Notifications" });
    expect(await auditOpened(staffPage, "notifications", bell, menu)).toEqual([]);
  });

  it("user menu", async () => {
    await visit(adminPage, "/Audios");
    const trigger = adminPage.getByRole("banner").getByRole("button", { name: /User menu/ });
    expect(await auditOpened(adminPage, "user-menu", trigger, adminPage.getByRole("menu"))).toEqual([]);
  });

  it("sidebar slid in on a narrow screen", async () => {
    await adminPage.setViewportSize({ width: 375, height: 800 });
    try {
      await visit(adminPage, "/Audios");
      const toggle = adminPage.getByRole("button", { name: "Toggle sidebar" });
      await toggle.focus();
      await adminPage.keyboard.press("Enter");
      await seen(
        adminPage
          .getByRole("navigation", { name: /sidebar|main/i })
          .getByRole("link")
          .first(),
      );
      const found = await violations(adminPage);
      await screenshot(adminPage, "accessibility-sidebar-narrow");
      await adminPage.keyboard.press("Escape");
      await focusArrives(adminPage, toggle, RETURN_FOCUS_MS);
      expect(found).toEqual([]);
    } finally {
      await adminPage.setViewportSize({ width: 1440, height: 900 });
    }
  });

  it("accounts: create account panel", async () => {
    await visit(adminPage, "/accounts/users");
    const opener = adminPage.getByRole("button", { name: "Add Account" });
    expect(await auditOpened(adminPage, "create-account", opener, adminPage.getByRole("dialog"))).toEqual([]);
  });

  it("accounts: edit account panel", async () => {
    await visit(adminPage, "/accounts/users");
    const opener = adminPage.getByRole("button", { name: "Edit Profile" }).first();
    expect(await auditOpened(adminPage, "edit-account", opener, adminPage.getByRole("dialog"))).toEqual([]);
  });

  it("accounts: filter menu", async () => {
    await visit(adminPage, "/accounts/users");
    const opener = adminPage.getByRole("button", { name: /^Filter/ });
    const menu = adminPage.getByRole("dialog", { name: "Filter accounts" });
    expect(await auditOpened(adminPage, "filter-accounts", opener, menu)).toEqual([]);
  });

  it("accounts: deactivate confirmation", async () => {
    await visit(adminPage, "/accounts/users");
    const opener = adminPage.getByRole("button", { name: "Deactivate" }).first();
    const dialog = adminPage.getByRole("alertdialog");
    expect(await auditOpened(adminPage, "deactivate-account", opener, dialog)).toEqual([]);
  });

  it("accounts: sign out everywhere confirmation", async () => {
    await visit(adminPage, "/accounts/users");
    const opener = adminPage.getByRole("button", { name: /sign out everywhere|end sessions/i }).first();
    const dialog = adminPage.getByRole("alertdialog");
    expect(await auditOpened(adminPage, "end-sessions", opener, dialog)).toEqual([]);
  });

  /** The Manage Audios row of `filename`. */
  function manageRow(page: Page, filename: string): Locator {
    return page.getByRole("row").filter({ hasText: filename });
  }

  it("manage audios: reassign dialog", async () => {
    await visit(adminPage, "/management/manageaudios");
    const opener = manageRow(adminPage, PENDING).getByRole("button", { name: "Reassign" });
    expect(await auditOpened(adminPage, "reassign", opener, adminPage.getByRole("dialog"))).toEqual([]);
  });

  it("manage audios: view transcript dialog", async () => {
    await visit(adminPage, "/management/manageaudios");
    const opener = manageRow(adminPage, PENDING).getByRole("button", { name: "View Transcript" });
    expect(await auditOpened(adminPage, "view-transcript", opener, adminPage.getByRole("dialog"))).toEqual([]);
  });

  it("manage audios: upload transcript dialog", async () => {
    await visit(adminPage, "/management/manageaudios");
    const opener = manageRow(adminPage, UNASSIGNED).getByRole("button", { name: "Upload Transcript" });
    expect(await auditOpened(adminPage, "upload-transcript", opener, adminPage.getByRole("dialog"))).toEqual([]);
  });

  it("manage audios: delete confirmation", async () => {
    await visit(adminPage, "/management/manageaudios");
    const opener = manageRow(adminPage, UNASSIGNED).getByRole("button", { name: "Delete" });
    const dialog = adminPage.getByRole("alertdialog");
    expect(await auditOpened(adminPage, "delete-audio", opener, dialog)).toEqual([]);
  });

  it("translated transcript: reject reason dialog", async () => {
    await visit(adminPage, "/audiomanagement/trascript", pendingId);
    const opener = adminPage.getByRole("group", { name: "Review" }).getByRole("button", { name: "Reject" });
    const dialog = adminPage.getByRole("alertdialog").or(adminPage.getByRole("dialog"));
    expect(await auditOpened(adminPage, "reject-reason", opener, dialog)).toEqual([]);
  });
});

// Decision 037, Management → Webhooks. An admin registers an endpoint (a receiver on 127.0.0.1 that
// verifies every delivery with the `standardwebhooks` package), copies its secret (shown once), sends
// a test event and sees it delivered in the endpoint's log, then redelivers it: the receiver gets
// the same event id twice, both verified. Keyboard only; axe finds nothing serious.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, expect } from "vitest";
import type { Page } from "playwright-core";
import { Webhook } from "standardwebhooks";
import { DEFAULT_WEBHOOK_DELIVERY, openJobLocks, startWebhookJob, type WebhookJob } from "@tafsiri/api";
import { describeBrowser, screenshot, seen, signIn, toast, useBrowserSuite } from "./support/browser";
import { seriousAxeViolations } from "./support/axe";
import { createSteps } from "./support/steps";
import type { TestUser } from "./support/server";

const ALLOWED = ["127.0.0.1"];

describeBrowser("webhooks: an endpoint registered, a test event delivered and redelivered", () => {
  const suite = useBrowserSuite();
  const step = createSteps();
  let admin: TestUser;
  let page: Page;
  let secret = "";
  const verified: string[] = [];
  let url = "";
  let job: WebhookJob | null = null;
  let locks: ReturnType<typeof openJobLocks> | null = null;
  const receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
      try {
        const event = new Webhook(secret).verify(Buffer.concat(chunks).toString("utf8"), headers) as { type: string };
        verified.push(`${headers["webhook-id"]} ${event.type}`);
        res.writeHead(204).end();
      } catch {
        res.writeHead(400).end();
      }
    });
  });
  afterAll(async () => {
    await job?.stop();
    await locks?.close();
    await new Promise((resolve) => receiver.close(resolve));
  });

  step("an admin adds an endpoint from Management → Webhooks; the secret is shown once", async () => {
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    // The delivery job, as the server runs it, allowed to reach the receiver on 127.0.0.1.
    const { deps } = suite.server.harness;
    locks = openJobLocks({ db: deps.db });
    job = startWebhookJob(
      { db: deps.db, events: deps.events, locks, log: { info: () => undefined, error: () => undefined } },
      { ...DEFAULT_WEBHOOK_DELIVERY, allowedHosts: ALLOWED },
    );
    const started = job;
    deps.webhooks = { allowedHosts: ALLOWED, wake: () => started.wake() };

    admin = await suite.server.createUser("Admin");
    page = await suite.newPage("admin");
    await signIn(page, admin);
    await page.goto("/management/webhooks");
    await seen(page.getByText("No endpoint yet."));
    await page.getByLabel("URL").focus();
    await page.keyboard.type(url);
    await page.getByLabel("Description (optional)").focus();
    await page.keyboard.type("lab pipeline");
    await page.getByRole("button", { name: "Add endpoint" }).focus();
    await page.keyboard.press("Enter");
    secret = await page.getByRole("textbox", { name: "Signing secret" }).inputValue();
    expect(secret).toMatch(/^whsec_/);
    await seen(page.getByRole("region", { name: `Endpoint ${url}` }));
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.getByRole("button", { name: "Done" }).focus();
    await page.keyboard.press("Enter");
    expect(await page.getByRole("textbox", { name: "Signing secret" }).count()).toBe(0);
  });

  step("'Send test event' is delivered, verified, and shows in the endpoint's log", async () => {
    const endpoint = page.getByRole("region", { name: `Endpoint ${url}` });
    await endpoint.getByRole("button", { name: "Send test event" }).focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => verified.length, { timeout: 10_000 }).toBe(1);
    expect(verified[0]).toMatch(/ webhook\.test$/);
    const log = endpoint.getByRole("region", { name: `Deliveries to ${url}` });
    await seen(log.getByRole("cell", { name: "Delivered" }));
    await seen(log.getByText("HTTP 204"));
    await screenshot(page, "webhooks");
    expect(await seriousAxeViolations(page)).toEqual([]);
  });

  step("Redeliver sends the same event again", async () => {
    const endpoint = page.getByRole("region", { name: `Endpoint ${url}` });
    await endpoint.getByRole("button", { name: "Redeliver webhook.test" }).focus();
    await page.keyboard.press("Enter");
    await toast(page, /./);
    await expect.poll(() => verified.length, { timeout: 10_000 }).toBe(2);
    expect(verified[1]!.split(" ")[0]).toBe(verified[0]!.split(" ")[0]);
  });
});

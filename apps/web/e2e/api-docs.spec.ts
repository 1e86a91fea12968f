// The REST reference page (GET /api/docs, @fastify/swagger-ui) renders the OpenAPI document in a real browser.
import { expect, it } from "vitest";
import { describeBrowser, screenshot, seen, useBrowserSuite } from "./support/browser";

describeBrowser("REST reference page", () => {
  const suite = useBrowserSuite();

  it("renders the OpenAPI document and shows the POST /auth/login operation with its example", async () => {
    const page = await suite.newPage("integrator");
    const errors: string[] = [];
    page.on("console", (m) => {
      if (m.type() === "error") errors.push(m.text());
    });
    await page.goto("/api/docs");
    await seen(page.getByRole("heading", { name: /Tafsiri REST API/ }));
    const login = page.locator(".opblock-post", { has: page.locator('[data-path="/auth/login"]') });
    await seen(login);
    await expect(login.locator(".opblock-summary-method").textContent()).resolves.toBe("POST");
    await login.locator(".opblock-summary").click();
    await seen(login.getByText("amina@example.org").first());
    await screenshot(page, "api-docs-01-login");
    // Every asset comes from our server under our Content-Security-Policy.
    expect(errors).toEqual([]);
  });
});

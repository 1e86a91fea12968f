import { afterAll, describe, expect, it } from "vitest";
import { appWithUsers, failed, fixture, listFiles, type FormParts } from "../fixtures/app-harness";

/**
 * Attack: an upload form with more parts than any upload needs (a flood of fields, extra files)
 * to make the server hold and parse them. It is an over-limit request like an over-size file:
 * 413 with a plain message, and nothing is stored (no row, no file, no temp file).
 */

const { h, adminToken } = await appWithUsers();
afterAll(() => h.close());

const wav = await fixture("hello.wav");
const TOO_MANY_FIELDS = "The upload form has too many fields. The limit is 20 fields and one file.";
const ONE_FILE = "Please upload one file at a time.";

/** Expects a 413 with `message`, and that nothing was stored or left in the temp folder. */
async function expectTooLarge(parts: FormParts, message: string) {
  const before = await h.snapshot();
  const res = await h.upload("AUDIO", adminToken, parts);
  expect(res.statusCode, res.body).toBe(413);
  expect(res.json()).toEqual(failed(message));
  expect(await h.snapshot()).toEqual(before);
  expect(await listFiles(`${h.filesDir}/.tmp`)).toEqual([]);
}

/** `n` text fields named f0, f1, ... */
const fields = (n: number): FormParts => Array.from({ length: n }, (_, i) => [`f${i}`, "x"] as [string, string]);

describe("too many multipart parts answers 413", () => {
  it("refuses more than 20 fields before the file", async () => {
    await expectTooLarge(
      [["category", "Control"], ...fields(25), ["file", { name: "fields-first.wav", content: wav }]],
      TOO_MANY_FIELDS,
    );
  });

  it("refuses more than 20 fields after the file", async () => {
    await expectTooLarge(
      [["category", "Control"], ["file", { name: "fields-after.wav", content: wav }], ...fields(25)],
      TOO_MANY_FIELDS,
    );
  });

  it("refuses a flood of 5,000 empty fields", async () => {
    await expectTooLarge([["category", "Control"], ...fields(5_000)], TOO_MANY_FIELDS);
  });

  it("refuses a second file in one form", async () => {
    await expectTooLarge(
      [
        ["category", "Control"],
        ["file", { name: "one.wav", content: wav }],
        ["file", { name: "two.wav", content: wav }],
      ],
      ONE_FILE,
    );
  });

  it("still accepts 20 fields and one file", async () => {
    const res = await h.upload("AUDIO", adminToken, [
      ["category", "Control"],
      ...fields(19),
      ["file", { name: "just-enough.wav", content: wav }],
    ]);
    expect(res.statusCode, res.body).toBe(200);
  });
});

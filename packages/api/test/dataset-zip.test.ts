import { createHash, randomBytes } from "node:crypto";
import { Readable } from "node:stream";
import { afterAll, describe, expect, it } from "vitest";
import JSZip from "jszip";
import { createHarness } from "../src/testing/harness";
import { writeDatasetZip, type DatasetFile } from "../src/export/dataset-zip";

// Decision 019: the export's zip is streamed into storage file by file, each file hashed on
// its way, the manifests last.

const h = await createHarness();
afterAll(() => h.close());

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

async function storedZip(key: string): Promise<JSZip> {
  const chunks: Buffer[] = [];
  for await (const chunk of await h.deps.storage.read(key)) chunks.push(chunk as Buffer);
  return JSZip.loadAsync(Buffer.concat(chunks));
}

describe("writeDatasetZip", () => {
  it("stores every file byte for byte, in order, with its size and SHA-256, and the closing files last", async () => {
    const audio = randomBytes(3 * 1024 * 1024 + 17);
    const transcript = Buffer.from("@UTF8\n@Begin\n@End\n");
    await h.deps.storage.put("audios/zip-test.wav", audio);
    const files: DatasetFile[] = [
      { path: "Control/a1/a1.wav", open: () => h.deps.storage.read("audios/zip-test.wav"), compress: false },
      { path: "Control/a1/a1.cha", open: () => Promise.resolve(Readable.from([transcript])), compress: true },
      { path: "Control/a1/empty.txt", open: () => Promise.resolve(Readable.from([])), compress: true },
    ];
    const progress: number[] = [];
    const result = await writeDatasetZip(h.deps.storage, "exports/test.zip", files, {
      closing: (records) => [{ path: "manifest.jsonl", text: records.map((r) => JSON.stringify(r)).join("\n") }],
      onFile: (done) => progress.push(done),
    });

    expect(result.records).toEqual([
      { path: "Control/a1/a1.wav", sizeBytes: audio.length, sha256: sha256(audio) },
      { path: "Control/a1/a1.cha", sizeBytes: transcript.length, sha256: sha256(transcript) },
      { path: "Control/a1/empty.txt", sizeBytes: 0, sha256: sha256(Buffer.alloc(0)) },
    ]);
    expect(progress).toEqual([1, 2, 3]);
    expect((await h.deps.storage.stat("exports/test.zip"))?.sizeBytes).toBe(result.sizeBytes);

    const zip = await storedZip("exports/test.zip");
    expect(Object.keys(zip.files)).toEqual([
      "Control/a1/a1.wav",
      "Control/a1/a1.cha",
      "Control/a1/empty.txt",
      "manifest.jsonl",
    ]);
    expect(Buffer.from(await zip.file("Control/a1/a1.wav")!.async("uint8array")).equals(audio)).toBe(true);
    expect(await zip.file("Control/a1/a1.cha")!.async("string")).toBe(transcript.toString());
    const manifest = (await zip.file("manifest.jsonl")!.async("string")).split("\n").map((line) => JSON.parse(line));
    expect(manifest).toEqual(result.records);
  });

  it("fails when a file cannot be read and leaves nothing stored", async () => {
    const files: DatasetFile[] = [
      { path: "ok.txt", open: () => Promise.resolve(Readable.from([Buffer.from("fine")])), compress: true },
      { path: "gone.wav", open: () => h.deps.storage.read("audios/no-such-file.wav"), compress: false },
    ];
    await expect(writeDatasetZip(h.deps.storage, "exports/broken.zip", files, { closing: () => [] })).rejects.toThrow();
    expect(await h.deps.storage.exists("exports/broken.zip")).toBe(false);
  });
});

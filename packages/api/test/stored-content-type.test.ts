import { describe, expect, it } from "vitest";
import { storedContentType } from "../src/storage/stored-content-type";
import { AUDIO_KINDS, TRANSLATED_TRANSCRIPT_EXTENSIONS } from "../src/uploads/file-rules";

// Storage serves what uploads stored, but keeps its own table of types (storage never imports
// uploads): every extension an upload stores a file under is served with the type the upload rules give it.

describe("storedContentType", () => {
  it("serves each stored audio kind with the type the upload rules sniffed it as", () => {
    for (const kind of Object.values(AUDIO_KINDS)) {
      expect(storedContentType(`audios/a${kind.extension}`), kind.extension).toBe(kind.mimeType);
      expect(storedContentType(`audios/a${kind.extension.toUpperCase()}`), kind.extension).toBe(kind.mimeType);
    }
  });

  it("serves translated transcripts as UTF-8 text, exports as zips, anything else as bytes", () => {
    for (const ext of TRANSLATED_TRANSCRIPT_EXTENSIONS) {
      expect(storedContentType(`transcripts/t${ext}`), ext).toBe("text/plain; charset=utf-8");
    }
    expect(storedContentType("exports/e.zip")).toBe("application/zip");
    expect(storedContentType("transcripts/t.docx")).toBe("application/octet-stream");
    expect(storedContentType("files/no-extension")).toBe("application/octet-stream");
  });
});

import { describe, expect, it } from "vitest";
import { CsvSyntaxError, readCsvRecords } from "../src/csv-records";

describe("CSV records", () => {
  it("reads quoted fields, line breaks in quotes, CRLF and a BOM, with the line each record starts on", () => {
    const text = '\uFEFFcode,notes\r\nP1,"said ""hi"", then\nleft"\r\n\r\nP2,plain\n';
    expect(readCsvRecords(text)).toEqual([
      { line: 1, fields: ["code", "notes"] },
      { line: 2, fields: ["P1", 'said "hi", then\nleft'] },
      { line: 5, fields: ["P2", "plain"] },
    ]);
  });

  it("keeps rows of another length for the caller to judge", () => {
    expect(readCsvRecords("a,b\n1\n1,2,3\n").map((r) => r.fields.length)).toEqual([2, 1, 3]);
  });

  it("says on which line a quote is never closed", () => {
    try {
      readCsvRecords('code\nP1\n"P2\n');
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(CsvSyntaxError);
      expect((error as CsvSyntaxError).message).toBe("A quoted field is not closed.");
      expect((error as CsvSyntaxError).line).toBeGreaterThanOrEqual(3);
    }
  });
});

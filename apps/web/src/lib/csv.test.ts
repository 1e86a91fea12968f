// @vitest-environment happy-dom
import { describe, expect, it, vi } from "vitest";
import { downloadCsv, toCsv } from "./csv";

describe("toCsv (the Dashboard's and Logs' downloads: RFC 4180)", () => {
  it("writes fields separated by commas, lines ended by CRLF, the last one too", () => {
    expect(
      toCsv([
        ["Username", "Tasks"],
        ["amina", 4],
      ]),
    ).toBe("Username,Tasks\r\namina,4\r\n");
    expect(toCsv([])).toBe("\r\n");
  });

  it("quotes fields holding a comma, a quote or a line break, doubling quotes", () => {
    expect(toCsv([["Approved, duration not known yet", 'say "hi"', "two\nlines", "a\rb"]])).toBe(
      '"Approved, duration not known yet","say ""hi""","two\nlines","a\rb"\r\n',
    );
  });

  it("neutralises text a spreadsheet would run as a formula, but not numbers", () => {
    expect(toCsv([["=SUM(A1:A2)", "+1", "-2", "@cmd", "\tx", -3, "a=b"]])).toBe(
      "'=SUM(A1:A2),'+1,'-2,'@cmd,'\tx,-3,a=b\r\n",
    );
    expect(toCsv([['=HYPERLINK("x")']])).toBe(`"'=HYPERLINK(""x"")"\r\n`);
  });
});

describe("downloadCsv", () => {
  it("offers the text as a UTF-8 file with a BOM, under the name given", async () => {
    const blobs: Blob[] = [];
    vi.spyOn(URL, "createObjectURL").mockImplementation((blob) => {
      blobs.push(blob as Blob);
      return "blob:report";
    });
    const clicked: Array<{ href: string; download: string }> = [];
    const onClick = (event: MouseEvent) => {
      const link = event.target as HTMLAnchorElement;
      clicked.push({ href: link.getAttribute("href") ?? "", download: link.download });
      event.preventDefault();
    };
    document.addEventListener("click", onClick);
    downloadCsv("logs.csv", "Time\r\n");
    document.removeEventListener("click", onClick);
    expect(clicked).toEqual([{ href: "blob:report", download: "logs.csv" }]);
    expect(blobs[0]!.type).toBe("text/csv;charset=utf-8");
    expect(new Uint8Array(await blobs[0]!.arrayBuffer())).toEqual(
      new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode("Time\r\n")]),
    );
    expect(document.querySelector("a")).toBeNull();
    vi.restoreAllMocks();
  });
});

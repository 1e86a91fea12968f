import { describe, expect, it } from "vitest";
import { bulkSummary, confirmQuestion, countOf, outputsInWords, type BulkReviewAnswer } from "./bulk-review-summary";

const ALREADY_APPROVED = "The transcript is already Approved.";
const FILENAMES = new Map([
  ["s1", "bulk-01"],
  ["s2", "bulk-02"],
  ["s3", "bulk-03"],
  ["s4", "bulk-04"],
  ["s5", "bulk-05"],
]);

/** What the server answers: `done` as [submission, output] pairs, `skipped` as [submission, output, reason]. */
function answer(
  done: Array<[string, "transcript" | "recording"]>,
  skipped: Array<[string, "transcript" | "recording", string]> = [],
): BulkReviewAnswer {
  return {
    message: `${done.length} reviewed, ${skipped.length} skipped.`,
    done: done.map(([submissionId, output]) => ({ submissionId, output, status: "Approved", message: "ok" })),
    skipped: skipped.map(([submissionId, output, reason]) => ({ submissionId, output, reason })),
  };
}

describe("the bulk review's words (decision 025)", () => {
  it("counts outputs in the singular and the plural", () => {
    expect(countOf(1, "transcript")).toBe("1 transcript");
    expect(countOf(10, "transcript")).toBe("10 transcripts");
    expect(countOf(0, "recording")).toBe("0 recordings");
  });

  it("names what is acted on", () => {
    expect(outputsInWords(["transcript"])).toBe("the transcripts");
    expect(outputsInWords(["transcript", "recording"])).toBe("the transcripts and recordings");
  });

  it("asks the confirmation question naming the count", () => {
    expect(confirmQuestion("approve", ["transcript"], 10)).toBe("Approve the transcripts of 10 submissions?");
    expect(confirmQuestion("reject", ["transcript"], 2)).toBe("Reject the transcripts of 2 submissions?");
    expect(confirmQuestion("reject", ["transcript", "recording"], 2)).toBe(
      "Reject the transcripts and recordings of 2 submissions?",
    );
    expect(confirmQuestion("approve", ["recording"], 1)).toBe("Approve the recordings of 1 submission?");
  });
});

describe("bulkSummary (what the page says after a bulk review)", () => {
  it("says how many were done", () => {
    const done = Array.from({ length: 9 }, (_, i) => [`d${i}`, "transcript"] as [string, "transcript"]);
    expect(bulkSummary({ action: "approve", outputs: ["transcript"] }, answer(done), FILENAMES)).toEqual({
      text: "9 transcripts approved.",
      skipped: [],
    });
    expect(
      bulkSummary(
        { action: "reject", outputs: ["transcript"] },
        answer([
          ["s1", "transcript"],
          ["s2", "transcript"],
        ]),
        FILENAMES,
      ).text,
    ).toBe("2 transcripts rejected.");
  });

  it("names each skipped file and why, after what was done", () => {
    const done = Array.from({ length: 9 }, (_, i) => [`d${i}`, "transcript"] as [string, "transcript"]);
    const summary = bulkSummary(
      { action: "approve", outputs: ["transcript"] },
      answer(done, [["s5", "transcript", ALREADY_APPROVED]]),
      FILENAMES,
    );
    expect(summary.text).toBe(`9 transcripts approved. 1 skipped: bulk-05 — ${ALREADY_APPROVED}`);
    expect(summary.skipped).toEqual([{ submissionId: "s5", text: `bulk-05 — ${ALREADY_APPROVED}` }]);
  });

  it("counts both outputs when both were asked for, and names the output of each skipped one", () => {
    const summary = bulkSummary(
      { action: "reject", outputs: ["recording", "transcript"] },
      answer(
        [
          ["s1", "transcript"],
          ["s1", "recording"],
          ["s2", "transcript"],
          ["s2", "recording"],
        ],
        [["s3", "recording", "No submission yet"]],
      ),
      FILENAMES,
    );
    expect(summary.text).toBe(
      "2 transcripts and 2 recordings rejected. 1 skipped: bulk-03 (recording) — No submission yet.",
    );
  });

  it("says when nothing was done", () => {
    const summary = bulkSummary(
      { action: "approve", outputs: ["transcript"] },
      answer([], [["s1", "transcript", ALREADY_APPROVED]]),
      FILENAMES,
    );
    expect(summary.text).toBe(`Nothing was approved. 1 skipped: bulk-01 — ${ALREADY_APPROVED}`);
  });

  it("names three skipped in the sentence and counts the rest; the list has them all", () => {
    const skipped = ["s1", "s2", "s3", "s4", "s5"].map(
      (id) => [id, "transcript", "Gone"] as [string, "transcript", string],
    );
    const summary = bulkSummary({ action: "approve", outputs: ["transcript"] }, answer([], skipped), FILENAMES);
    expect(summary.text).toBe(
      "Nothing was approved. 5 skipped: bulk-01 — Gone; bulk-02 — Gone; bulk-03 — Gone and 2 more.",
    );
    expect(summary.skipped).toHaveLength(5);
  });

  it("calls a submission it cannot name 'Unknown submission'", () => {
    const summary = bulkSummary(
      { action: "approve", outputs: ["transcript"] },
      answer([], [["gone", "transcript", "The submission no longer exists."]]),
      FILENAMES,
    );
    expect(summary.skipped[0]!.text).toBe("Unknown submission — The submission no longer exists.");
  });
});

import type { RouterInputs, RouterOutputs } from "@tafsiri/api";

export type BulkReviewRequest = RouterInputs["reviews"]["bulk"];
export type BulkReviewAnswer = RouterOutputs["reviews"]["bulk"];
export type BulkOutput = BulkReviewRequest["outputs"][number];
export type BulkAction = BulkReviewRequest["action"];

const NOUN: Record<BulkOutput, [one: string, many: string]> = {
  transcript: ["transcript", "transcripts"],
  recording: ["recording", "recordings"],
};
const PAST: Record<BulkAction, string> = { approve: "approved", reject: "rejected" };

/** '1 transcript', '9 transcripts'. */
export function countOf(n: number, output: BulkOutput): string {
  return `${n} ${NOUN[output][n === 1 ? 0 : 1]}`;
}

/** 'the transcripts', 'the transcripts and recordings': what a bulk action acts on, in words. */
export function outputsInWords(outputs: readonly BulkOutput[]): string {
  return `the ${outputs.map((output) => NOUN[output][1]).join(" and ")}`;
}

/** 'Approve the transcripts of 10 submissions?': the confirmation question naming the count. */
export function confirmQuestion(action: BulkAction, outputs: readonly BulkOutput[], submissions: number): string {
  const verb = action === "approve" ? "Approve" : "Reject";
  return `${verb} ${outputsInWords(outputs)} of ${submissions} ${submissions === 1 ? "submission" : "submissions"}?`;
}

/** One skipped output as the summary lists it: 'P.wav — The transcript is already Approved.'. */
interface SkippedLine {
  submissionId: string;
  text: string;
}

/** What the page shows after a bulk review: the sentence (also read out) and each skipped output. */
export interface BulkSummary {
  /** '9 transcripts approved. 1 skipped: P.wav — The transcript is already Approved.' */
  text: string;
  skipped: SkippedLine[];
}

/** How many skipped outputs the sentence names before '… and n more' (the list below names all). */
const NAMED_IN_SENTENCE = 3;

/**
 * The summary of a bulk review's answer (decision 025): what was done per output ('9 transcripts
 * approved.', '2 transcripts and 2 recordings rejected.', 'Nothing was approved.'), then what was
 * skipped and why, naming each file by `filenames` (submission id → audio name; the output is
 * named too when both were asked for, since 'No submission yet' does not say which).
 */
export function bulkSummary(
  request: Pick<BulkReviewRequest, "action" | "outputs">,
  answer: BulkReviewAnswer,
  filenames: ReadonlyMap<string, string>,
): BulkSummary {
  const outputs = (["transcript", "recording"] as const).filter((o) => request.outputs.includes(o));
  const doneParts = outputs
    .map((output) => ({ output, n: answer.done.filter((d) => d.output === output).length }))
    .filter(({ n }) => n > 0)
    .map(({ output, n }) => countOf(n, output));
  const done =
    doneParts.length > 0
      ? `${doneParts.join(" and ")} ${PAST[request.action]}.`
      : `Nothing was ${PAST[request.action]}.`;
  const skipped = answer.skipped.map((s) => {
    const name = filenames.get(s.submissionId) ?? "Unknown submission";
    const which = outputs.length > 1 ? ` (${s.output})` : "";
    return { submissionId: s.submissionId, text: `${name}${which} — ${s.reason}` };
  });
  if (skipped.length === 0) return { text: done, skipped };
  const named = skipped.slice(0, NAMED_IN_SENTENCE).map((s) => s.text);
  const more = skipped.length > NAMED_IN_SENTENCE ? ` and ${skipped.length - NAMED_IN_SENTENCE} more` : "";
  const list = named.join("; ");
  return {
    text: `${done} ${skipped.length} skipped: ${list}${more}${/[.!?]$/.test(list) && !more ? "" : "."}`,
    skipped,
  };
}

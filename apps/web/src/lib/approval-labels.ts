import type { Recording, Transcript } from "./api-types";

/** SPEC §2.8, §2.12: a transcript approval status for people: Approved, Rejected, Pending or 'No Transcript'. */
export function transcriptApprovalLabel(status: Transcript["status"]): string {
  return status === "No transcript" ? "No Transcript" : status;
}

/** SPEC §2.8, §2.9: a recording approval status for people: Approved, Rejected, Pending or 'No Recording'. */
export function recordingApprovalLabel(status: Recording["status"]): string {
  return status === "No translation audio" ? "No Recording" : status;
}

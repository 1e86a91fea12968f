import type { RecommendedRecording } from "#web/lib/api-types";

/** SPEC §2.9: the recipient's username, 'Unknown User' when unknown (a deleted account). */
export function recipientName(recommendation: Pick<RecommendedRecording, "recommendedTo">): string {
  return recommendation.recommendedTo?.username ?? "Unknown User";
}

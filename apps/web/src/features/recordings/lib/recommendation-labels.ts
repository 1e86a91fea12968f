import type { RecommendedRecording } from "../../../lib/api-types";

/** SPEC §2.9: the recipient's username, 'Unknown User' when unknown (a deleted account). */
export function recipientName(recommendation: Pick<RecommendedRecording, "recommendedTo">): string {
  return recommendation.recommendedTo?.username ?? "Unknown User";
}

/** SPEC §2.9, §9: the audio's category as text (the card's colour says it too), 'Unknown category' when unknown. */
export function categoryName(category: RecommendedRecording["task"]["category"]): string {
  return category ?? "Unknown category";
}

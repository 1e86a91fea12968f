import { useSearchParams } from "react-router";
import type { SubmissionFilter } from "#web/lib/api-types";
import { ReviewPage, type ReviewSlots } from "#web/features/reviews/components/review-page";
import { SubmissionComments } from "#web/features/submissions/components/submission-comments";
import { ReviewedTranscript } from "#web/features/submissions/components/reviewed-transcript";
import { SegmentPairs } from "#web/features/translation/components/segment-pairs";
import { TakeReview } from "#web/features/translation/components/take-review";

const FILTERS: readonly SubmissionFilter[] = ["needsReview", "approved", "rejected", "all"];

/** The other features' pieces review mode shows (STYLE §12: features are composed here). */
const slots: ReviewSlots = {
  // Decision 035: source and translation side by side when the translation has source segments.
  transcript: (audioId) => (
    <>
      <SegmentPairs audioId={audioId} />
      <ReviewedTranscript audioId={audioId} />
    </>
  ),
  comments: (audioId) => <SubmissionComments audioId={audioId} />,
  // Decision 035: the recording's takes segment by segment, played source then take with Alt+L.
  recording: (audioId) => <TakeReview audioId={audioId} />,
};

/**
 * /submission/review (Admin, decision 025): review mode on the Submissions filter named by
 * ?status= ('needsReview' when absent or unknown).
 */
export function Component() {
  const [params] = useSearchParams();
  const raw = params.get("status");
  const filter = FILTERS.find((f) => f === raw) ?? "needsReview";
  return <ReviewPage key={filter} filter={filter} slots={slots} />;
}

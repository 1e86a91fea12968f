import { Pagination } from "@tafsiri/ui/pagination";
import { useOpenAudio } from "#web/hooks/use-open-audio";
import { useLastPageFallback, usePageParam } from "#web/hooks/use-page-param";
import { useRecommendedRecordings } from "#web/features/recommendations/hooks/use-recommended-recordings";
import { TaskCard } from "#web/components/task-card";
import { recipientName } from "#web/features/recommendations/lib/recommendation-labels";

/**
 * The Recommended Recordings page (/Recordings, SPEC §2.9): staff see the audios recommended to
 * them for recording, admins every recommendation, as cards, 10 per page with numbered
 * pagination. A card opens its audio (for an Admin, recording the opening). A failed fetch
 * shows 'Failed to load recommendation.' (SPEC §8) and a retry button.
 */
export function RecordingsPage() {
  const openAudio = useOpenAudio();
  const { page, goTo } = usePageParam();
  const recommendations = useRecommendedRecordings(page);
  useLastPageFallback(page, recommendations.data?.totalPages);

  return (
    <section className="page">
      <div className="page-header">
        <h1 className="page-title">Recommended Recordings</h1>
        {recommendations.isFetching && !recommendations.isPending && (
          <span className="spinner muted" aria-label="Refreshing" />
        )}
      </div>
      {recommendations.isPending ? (
        <p className="empty-state" role="status">
          <span className="spinner" aria-hidden="true" /> Loading recommendations…
        </p>
      ) : recommendations.isError && !recommendations.data ? (
        <div className="empty-state" role="alert">
          <p>Failed to load recommendation.</p>
          <button type="button" className="btn" onClick={() => void recommendations.refetch()}>
            Retry
          </button>
        </div>
      ) : recommendations.data.items.length === 0 ? (
        <p className="empty-state">No recommendations available</p>
      ) : (
        <>
          <ul className="grid-cards task-grid" aria-label="Recommended recordings">
            {recommendations.data.items.map((recommendation) => (
              <li key={recommendation.id}>
                <TaskCard
                  task={recommendation.task}
                  approvals={recommendation}
                  transcriptLabel="Transcript"
                  testId="recommendation-card"
                  onOpen={openAudio}
                >
                  Recommended to {recipientName(recommendation)}
                </TaskCard>
              </li>
            ))}
          </ul>
          <Pagination
            page={page}
            totalPages={recommendations.data.totalPages}
            onPageChange={goTo}
            label="Recommended recordings pages"
          />
        </>
      )}
    </section>
  );
}

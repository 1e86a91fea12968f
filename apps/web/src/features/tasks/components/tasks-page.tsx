import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Pagination } from "@tafsiri/ui/pagination";
import { useTRPC } from "#web/lib/trpc";
import { useOpenAudio } from "#web/hooks/use-open-audio";
import { useLastPageFallback, usePageParam } from "#web/hooks/use-page-param";
import { TaskCard } from "#web/components/task-card";

/** SPEC §9: tasks page size. */
const PAGE_SIZE = 10;

/**
 * The Tasks page (/Audios, SPEC §2.8): admins see all tasks, staff their own, as cards, 10 per page,
 * each with its audio's language pair (decision 035: 'Languages: eng → swa', its own or the programme's).
 * A failed fetch is only logged (SPEC §8) and shows a retry button.
 */
export function TasksPage() {
  const trpc = useTRPC();
  const openAudio = useOpenAudio();
  const { page, goTo } = usePageParam();
  const tasks = useQuery({
    ...trpc.tasks.list.queryOptions({ page, limit: PAGE_SIZE }),
    placeholderData: keepPreviousData,
    meta: { errorMessage: "Failed to fetch tasks" },
  });
  const totalPages = tasks.data?.totalPages ?? 0;
  useLastPageFallback(page, tasks.data?.totalPages);

  return (
    <section className="page">
      <div className="page-header">
        <h1 className="page-title">Tasks</h1>
        {tasks.isFetching && !tasks.isPending && <span className="spinner muted" aria-label="Refreshing" />}
      </div>
      {tasks.isPending ? (
        <p className="empty-state" role="status">
          <span className="spinner" aria-hidden="true" /> Loading tasks…
        </p>
      ) : tasks.isError && !tasks.data ? (
        <div className="empty-state" role="alert">
          <p>The tasks could not be loaded.</p>
          <button type="button" className="btn" onClick={() => void tasks.refetch()}>
            Retry
          </button>
        </div>
      ) : tasks.data.items.length === 0 ? (
        <p className="empty-state">No tasks</p>
      ) : (
        <>
          <ul className="grid-cards task-grid" aria-label="Tasks">
            {tasks.data.items.map((task) => (
              <li key={task.id}>
                <TaskCard task={task} approvals={task} transcriptLabel="Script" testId="task-card" onOpen={openAudio}>
                  {task.pair ? `Languages: ${task.pair.source} → ${task.pair.target}` : null}
                </TaskCard>
              </li>
            ))}
          </ul>
          <Pagination page={page} totalPages={totalPages} onPageChange={goTo} />
        </>
      )}
    </section>
  );
}

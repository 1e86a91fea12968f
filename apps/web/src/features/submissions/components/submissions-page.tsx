import { useState } from "react";
import { Link } from "react-router";
import { paths } from "#web/config/paths";
import { Pagination } from "@tafsiri/ui/pagination";
import { useOpenAudio } from "#web/hooks/use-open-audio";
import { useLastPageFallback, usePageParam } from "#web/hooks/use-page-param";
import { useSession } from "#web/hooks/use-session";
import { useNewRowAnnouncements } from "#web/features/submissions/hooks/use-new-row-announcements";
import { useStatusParam } from "#web/features/submissions/hooks/use-status-param";
import { useSubmissions } from "#web/features/submissions/hooks/use-submissions";
import { useRowSelection } from "#web/features/submissions/hooks/use-row-selection";
import { BulkReviewBar } from "./bulk-review-bar";
import { StatusFilter } from "./status-filter";
import { SUBMISSION_COLUMNS, SubmissionRow } from "./submission-row";
import { DataTable } from "#web/components/data-table";
import type { SubmissionRow as SubmissionRowData } from "#web/lib/api-types";
import { errorMessage } from "#web/lib/trpc";
import "#web/features/submissions/submissions.css";

/** Admins' columns: a checkbox first (decision 025 bulk review). */
const ADMIN_COLUMNS = ["Select", ...SUBMISSION_COLUMNS] as const;
const NO_ROWS: SubmissionRowData[] = [];

/**
 * The Submissions page (/submission/general, SPEC §2.7): admins see 'All submissions', staff
 * 'My submissions'; the 'All Submissions' table, newest change first, 20 per page with numbered
 * pagination, filtered by status with counts (beyond SPEC §2.7). 'Go to task' opens the audio (for an
 * Admin, recording the opening); a row's Comments button lists its comments. Rows appear and
 * change live, and a row that arrives is announced to screen readers. A failed fetch shows 'Failed to load submissions.' with the error's message (SPEC §8) and a retry button.
 * Admins also get a checkbox per row and the bulk review toolbar (BulkReviewBar, decision 025).
 */
export function SubmissionsPage() {
  const session = useSession();
  const openAudio = useOpenAudio();
  const { page, goTo } = usePageParam();
  const { status, choose } = useStatusParam();
  const submissions = useSubmissions(page, status);
  useLastPageFallback(page, submissions.data?.totalPages);
  useNewRowAnnouncements(submissions.data?.items, `${page}|${status}`, submissions.isPlaceholderData);
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const isAdmin = session?.role === "Admin";
  const items = submissions.data?.items ?? NO_ROWS;
  const selection = useRowSelection(items, `${page}|${status}`);
  const columns = isAdmin ? ADMIN_COLUMNS : SUBMISSION_COLUMNS;

  const toggle = (id: string) =>
    setExpanded((open) => {
      const next = new Set(open);
      if (!next.delete(id)) next.add(id);
      return next;
    });

  const body = () => {
    if (submissions.isPending) {
      return (
        <tr>
          <td colSpan={columns.length} className="empty-state" role="status">
            <span className="spinner" aria-hidden="true" /> Loading submissions…
          </td>
        </tr>
      );
    }
    if (submissions.isError && !submissions.data) {
      return (
        <tr>
          <td colSpan={columns.length} className="empty-state" role="alert">
            <p>Failed to load submissions. {errorMessage(submissions.error)}</p>
            <button type="button" className="btn" onClick={() => void submissions.refetch()}>
              Retry
            </button>
          </td>
        </tr>
      );
    }
    if (submissions.data.items.length === 0) {
      return (
        <tr>
          <td colSpan={columns.length} className="empty-state">
            {submissions.data.counts.all === 0 ? "No submissions yet" : "No submissions match this filter"}
          </td>
        </tr>
      );
    }
    return submissions.data.items.map((row) => (
      <SubmissionRow
        key={row.id}
        row={row}
        expanded={expanded.has(row.id)}
        onToggle={() => toggle(row.id)}
        onOpen={openAudio}
        selection={
          isAdmin
            ? {
                selected: selection.isSelected(row.id),
                onSelect: (checked, range) => selection.toggle(row.id, checked, range),
              }
            : undefined
        }
      />
    ));
  };

  return (
    <section className="page">
      <div className="page-header">
        <div>
          <h1 className="page-title">Submissions</h1>
          <p className="muted">{session?.role === "Admin" ? "All submissions" : "My submissions"}</p>
        </div>
        {submissions.isFetching && !submissions.isPending && <span className="spinner muted" aria-label="Refreshing" />}
        {session?.role === "Admin" && (
          // Decision 025: review mode walks this filter one submission at a time, oldest change first.
          <Link className="btn btn-primary" to={`${paths.review}?status=${status}`}>
            Review
          </Link>
        )}
      </div>
      <StatusFilter value={status} counts={submissions.data?.counts} onChange={choose} />
      {isAdmin && <BulkReviewBar rows={items} selection={selection} />}
      <DataTable id="submissions-table-title" title="All Submissions" columns={columns} className="submissions-table">
        {body()}
      </DataTable>
      <Pagination
        page={page}
        totalPages={submissions.data?.totalPages ?? 0}
        onPageChange={goTo}
        label="Submissions pages"
      />
    </section>
  );
}

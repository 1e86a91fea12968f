import { useState } from "react";
import { useMutation, useQuery } from "@tanstack/react-query";
import { toast } from "sonner";
import { Tooltip } from "radix-ui";
import { errorMessage, useTRPC } from "#web/lib/trpc";
import { AssignButton } from "./assign-button";
import { CategoryToggle } from "#web/components/category-toggle";
import { Duration } from "@tafsiri/ui/duration";
import { Pagination } from "@tafsiri/ui/pagination";
import { StaffSelect } from "#web/components/staff-select";
import { useErrorToast } from "#web/hooks/use-error-toast";
import { useInvalidateAudios } from "#web/hooks/use-invalidate-audios";
import { useStaff } from "#web/hooks/use-staff";
import { CATEGORIES, type Category } from "@tafsiri/domain";

const PAGE_SIZE = 100;

/**
 * SPEC §2.17 Assign Tasks: unassigned audios of a category, each with its duration ('—' while not
 * known), a staff choice and an Assign button; checked rows with a staff chosen can be assigned together with 'Bulk Assign'.
 * Assigned rows leave the list (the queries are refetched).
 */
export function AssignTasks() {
  const trpc = useTRPC();
  const invalidate = useInvalidateAudios();
  const [category, setCategory] = useState<Category>(CATEGORIES[0]);
  const [page, setPage] = useState(1);
  const [chosen, setChosen] = useState<Record<string, string>>({});
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [pendingId, setPendingId] = useState<string | null>(null);

  const audios = useQuery(trpc.audios.unassigned.queryOptions({ category, page, limit: PAGE_SIZE }));
  useErrorToast(audios.error, (error) => `Failed to load ${category} audios: ${errorMessage(error)}`);
  const staff = useStaff();

  const assign = useMutation(trpc.tasks.assign.mutationOptions());
  const bulkAssign = useMutation(trpc.tasks.bulkAssign.mutationOptions());

  const rows = audios.data?.items ?? [];
  const allSelected = rows.length > 0 && rows.every((row) => selected.has(row.id));

  function changeCategory(next: Category) {
    setCategory(next);
    setPage(1);
    setSelected(new Set());
  }

  function toggleRow(audioId: string, on: boolean) {
    const next = new Set(selected);
    if (on) next.add(audioId);
    else next.delete(audioId);
    setSelected(next);
  }

  async function assignOne(audioId: string) {
    const staffId = chosen[audioId];
    if (!staffId) return void toast.error("Please select a staff member.");
    setPendingId(audioId);
    try {
      await assign.mutateAsync({ audioId, staffId });
      toast.success("Audio assigned successfully!");
      toggleRow(audioId, false);
    } catch (error) {
      toast.error("Failed to assign audio .", { description: errorMessage(error) });
    } finally {
      setPendingId(null);
    }
    // Refetch either way: a failure may mean someone else assigned it meanwhile.
    await invalidate();
  }

  async function assignSelected() {
    const assignments = rows
      .filter((row) => selected.has(row.id) && chosen[row.id])
      .map((row) => ({ audioId: row.id, staffId: chosen[row.id] as string }));
    if (assignments.length === 0) return void toast.warning("No valid assignments to process.");
    try {
      const { results } = await bulkAssign.mutateAsync({ assignments });
      if (results.every((result) => !result.ok)) toast.warning("Some tasks failed to assign.");
      else toast.success("All tasks assigned successfully!");
      setSelected(new Set());
    } catch (error) {
      toast.error("Failed to assign audio .", { description: errorMessage(error) });
    }
    await invalidate();
  }

  return (
    <Tooltip.Provider delayDuration={200}>
      <div className="row management-toolbar">
        <CategoryToggle value={category} onChange={changeCategory} />
        <button
          type="button"
          className="btn btn-primary"
          disabled={bulkAssign.isPending || rows.length === 0}
          onClick={() => void assignSelected()}
        >
          {bulkAssign.isPending ? <span className="spinner" aria-hidden="true" /> : null}
          Bulk Assign
        </button>
      </div>
      <div className="table-wrap">
        <table className="table assign-table">
          <thead>
            <tr>
              <th className="table-check">
                <input
                  type="checkbox"
                  aria-label="Select all"
                  checked={allSelected}
                  disabled={rows.length === 0}
                  onChange={(e) => setSelected(e.target.checked ? new Set(rows.map((row) => row.id)) : new Set())}
                />
              </th>
              <th>Audio Name</th>
              <th>Duration</th>
              <th className="col-staff">Staff</th>
              <th className="col-action">Action</th>
            </tr>
          </thead>
          <tbody>
            {audios.isPending ? (
              <tr>
                <td colSpan={5} className="empty-state" role="status">
                  <span className="spinner" aria-hidden="true" /> Loading audios…
                </td>
              </tr>
            ) : audios.isError ? (
              <tr>
                <td colSpan={5} className="empty-state" role="alert">
                  Failed to load {category} audios: {errorMessage(audios.error)}
                </td>
              </tr>
            ) : rows.length === 0 ? (
              <tr>
                <td colSpan={5} className="empty-state">
                  All caught up, nothing to do!
                </td>
              </tr>
            ) : (
              rows.map((row) => (
                <tr key={row.id} data-audio-id={row.id}>
                  <td className="table-check">
                    <input
                      type="checkbox"
                      aria-label={`Select ${row.filename}`}
                      checked={selected.has(row.id)}
                      onChange={(e) => toggleRow(row.id, e.target.checked)}
                    />
                  </td>
                  <td className="audio-name">{row.filename}</td>
                  <td>
                    <Duration seconds={row.durationSeconds} />
                  </td>
                  <td>
                    <StaffSelect
                      staff={staff.data ?? []}
                      label={`Staff for ${row.filename}`}
                      labelHidden
                      name="staff"
                      placeholder="Select staff"
                      value={chosen[row.id] ?? ""}
                      disabled={pendingId === row.id}
                      onChange={(staffId) => setChosen({ ...chosen, [row.id]: staffId })}
                    />
                  </td>
                  <td>
                    <AssignButton
                      ready={Boolean(chosen[row.id])}
                      pending={pendingId === row.id}
                      onAssign={() => void assignOne(row.id)}
                    />
                  </td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
      <Pagination page={page} totalPages={audios.data?.totalPages ?? 0} onPageChange={setPage} />
    </Tooltip.Provider>
  );
}

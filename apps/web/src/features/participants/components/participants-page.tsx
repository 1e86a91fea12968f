import { useEffect, useId, useRef, useState } from "react";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { toast } from "sonner";
import { Pagination } from "@tafsiri/ui/pagination";
import {
  CONSENT_STATUSES,
  PARTICIPANT_CODE_MAX_LENGTH,
  PARTICIPANT_GROUPS,
  type ConsentStatus,
  type ParticipantGroup,
} from "@tafsiri/domain";
import { errorMessage, useTRPC, useTRPCClient } from "#web/lib/trpc";
import { downloadCsv } from "#web/lib/csv";
import { SelectField, TextField } from "#web/components/field";
import { useLastPageFallback, usePageParam } from "#web/hooks/use-page-param";
import { CONSENT_LABELS } from "#web/features/participants/lib/participant-words";
import { ImportDialog } from "./import-dialog";
import { ParticipantPanel } from "./participant-panel";
import { PARTICIPANT_COLUMNS, ParticipantRow } from "./participant-row";

/** Participants a page (decision 024). */
const PAGE_SIZE = 20;
/** How long the search waits for a pause in typing before it asks the server (ms). */
const SEARCH_DELAY_MS = 300;

/**
 * Decision 024, Management → Participants (admin): the participants in a table (PARTICIPANT_COLUMNS),
 * 20 a page, searched by code prefix (debounced) and filtered by group and consent; 'Add participant'
 * opens the side panel, 'Import CSV' the import dialog, 'Export CSV' downloads participants.csv.
 */
export function ParticipantsPage() {
  const id = useId();
  const trpc = useTRPC();
  const client = useTRPCClient();
  const { page, goTo } = usePageParam();
  const [searchText, setSearchText] = useState("");
  const [search, setSearch] = useState("");
  const [group, setGroup] = useState<ParticipantGroup | "">("");
  const [consent, setConsent] = useState<ConsentStatus | "">("");
  const [creating, setCreating] = useState(false);
  const [exporting, setExporting] = useState(false);
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);

  const filtered = Boolean(search || group || consent);
  const list = useQuery({
    ...trpc.participants.list.queryOptions({
      search: search || undefined,
      group: group || undefined,
      consent: consent || undefined,
      page,
      limit: PAGE_SIZE,
    }),
    placeholderData: keepPreviousData,
  });
  useLastPageFallback(page, list.data?.totalPages);

  function typed(value: string) {
    setSearchText(value);
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => {
      setSearch(value.trim());
      goTo(1);
    }, SEARCH_DELAY_MS);
  }

  async function exportCsv() {
    setExporting(true);
    try {
      const { csv } = await client.participants.exportCsv.query();
      downloadCsv("participants.csv", csv);
    } catch (error) {
      toast.error("Failed to export the participants", { description: errorMessage(error) });
    } finally {
      setExporting(false);
    }
  }

  const total = list.data?.total ?? 0;
  let body;
  if (list.isPending) {
    body = (
      <td colSpan={PARTICIPANT_COLUMNS.length} className="empty-state" role="status">
        <span className="spinner" aria-hidden="true" /> Loading participants…
      </td>
    );
  } else if (list.isError && !list.data) {
    body = (
      <td colSpan={PARTICIPANT_COLUMNS.length} className="empty-state" role="alert">
        <p>The participants could not be loaded: {errorMessage(list.error)}</p>
        <button type="button" className="btn" onClick={() => void list.refetch()}>
          Retry
        </button>
      </td>
    );
  } else if (list.data.items.length === 0) {
    body = (
      <td colSpan={PARTICIPANT_COLUMNS.length} className="empty-state">
        {filtered ? "No participants match this search." : "No participants yet. Add one or import a CSV."}
      </td>
    );
  }

  return (
    <div className="stack">
      <div className="row participants-actions">
        <ImportDialog />
        <button type="button" className="btn" disabled={exporting} onClick={() => void exportCsv()}>
          {exporting ? <span className="spinner" aria-hidden="true" /> : null}
          Export CSV
        </button>
        <ParticipantPanel
          mode="create"
          open={creating}
          onOpenChange={setCreating}
          trigger={
            <button type="button" className="btn btn-primary">
              Add participant
            </button>
          }
        />
      </div>
      <div className="participants-filters" role="search" aria-label="Participants">
        <TextField
          id={`${id}-search`}
          label="Search by code"
          type="search"
          autoComplete="off"
          placeholder="P00"
          maxLength={PARTICIPANT_CODE_MAX_LENGTH}
          value={searchText}
          onChange={typed}
        />
        <SelectField
          id={`${id}-group`}
          label="Group"
          value={group}
          emptyOption="All groups"
          options={PARTICIPANT_GROUPS}
          onChange={(next) => {
            setGroup(next);
            goTo(1);
          }}
        />
        <SelectField
          id={`${id}-consent`}
          label="Consent"
          value={consent}
          emptyOption="Any consent"
          options={CONSENT_STATUSES}
          optionLabel={(c) => CONSENT_LABELS[c]}
          onChange={(next) => {
            setConsent(next);
            goTo(1);
          }}
        />
        <p className="muted participants-count" role="status">
          {list.data ? `${total} ${total === 1 ? "participant" : "participants"}${filtered ? " found" : ""}` : ""}
        </p>
      </div>
      <div className="table-wrap">
        <table className="table participants-table" aria-labelledby={`${id}-caption`}>
          <caption id={`${id}-caption`} className="sr-only">
            Participants
          </caption>
          <thead>
            <tr>
              {PARTICIPANT_COLUMNS.map((column) => (
                <th key={column} scope="col">
                  {column}
                </th>
              ))}
            </tr>
          </thead>
          <tbody aria-busy={list.isFetching ? true : undefined}>
            {body ? <tr>{body}</tr> : list.data?.items.map((p) => <ParticipantRow key={p.id} participant={p} />)}
          </tbody>
        </table>
      </div>
      <Pagination page={page} totalPages={list.data?.totalPages ?? 0} onPageChange={goTo} label="Participants pages" />
    </div>
  );
}

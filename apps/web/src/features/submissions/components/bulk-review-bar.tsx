import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { AlertDialog, Dialog } from "radix-ui";
import { REVIEW_REASON_MAX_LENGTH } from "@tafsiri/domain";
import type { SubmissionRow } from "#web/lib/api-types";
import { errorMessage, useTRPC } from "#web/lib/trpc";
import { Field } from "#web/components/field";
import type { RowSelection } from "#web/features/submissions/hooks/use-row-selection";
import {
  bulkSummary,
  confirmQuestion,
  countOf,
  outputsInWords,
  type BulkOutput,
  type BulkReviewRequest,
  type BulkSummary,
} from "#web/features/submissions/lib/bulk-review-summary";

const NUMBER = new Intl.NumberFormat("en-US");

/** Which dialog is open: an approval of one output, or the rejection form. */
type OpenDialog = { kind: "approve"; output: BulkOutput } | { kind: "reject" } | null;

/** The last bulk review's outcome as the page shows it. */
type Outcome = { kind: "done"; summary: BulkSummary } | { kind: "failed"; message: string } | null;

/**
 * The 'Reject…' form: which outputs (Transcripts, Recordings) and one optional reason for all (at
 * most 1,000 characters, trimmed); its title names the count ('Reject the transcripts of 10
 * submissions?') and 'Reject' stays disabled until an output is chosen. Mounted while open, so
 * each opening starts with Transcripts ticked and no reason.
 */
function RejectForm({
  count,
  pending,
  onSubmit,
}: {
  count: number;
  pending: boolean;
  onSubmit(outputs: BulkOutput[], reason: string | undefined): void;
}) {
  const [outputs, setOutputs] = useState<ReadonlySet<BulkOutput>>(new Set(["transcript"]));
  const [reason, setReason] = useState("");
  const hintId = useId();
  const chosen = (["transcript", "recording"] as const).filter((o) => outputs.has(o));

  const flip = (output: BulkOutput, on: boolean) =>
    setOutputs((current) => {
      const next = new Set(current);
      if (on) next.add(output);
      else next.delete(output);
      return next;
    });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (chosen.length > 0 && !pending) onSubmit(chosen, reason.trim() || undefined);
  };

  return (
    <>
      <Dialog.Title className="dialog-title">
        {chosen.length > 0 ? confirmQuestion("reject", chosen, count) : `Reject ${count} submissions?`}
      </Dialog.Title>
      <Dialog.Description className="muted">
        Each chosen output that is still Pending becomes Rejected and its assignee is told, with the reason if you give
        one (it is also posted as a comment). Outputs another admin reviewed meanwhile are skipped.
      </Dialog.Description>
      <form className="stack bulk-reject-form" onSubmit={submit}>
        <fieldset className="bulk-reject-outputs" aria-describedby={hintId}>
          <legend className="label">Reject</legend>
          {(["transcript", "recording"] as const).map((output) => (
            <label key={output} className="bulk-check">
              <input
                type="checkbox"
                checked={outputs.has(output)}
                disabled={pending}
                onChange={(event) => flip(output, event.target.checked)}
              />
              {output === "transcript" ? "Transcripts" : "Recordings"}
            </label>
          ))}
          <p id={hintId} className={chosen.length === 0 ? "field-error" : "field-hint"}>
            {chosen.length === 0 ? "Choose transcripts, recordings or both." : `Rejecting ${outputsInWords(chosen)}.`}
          </p>
        </fieldset>
        <Field
          label="Reason for all (optional)"
          hint={`${NUMBER.format(reason.length)} / ${NUMBER.format(REVIEW_REASON_MAX_LENGTH)} characters`}
        >
          {(control) => (
            <textarea
              {...control}
              className="textarea"
              rows={3}
              maxLength={REVIEW_REASON_MAX_LENGTH}
              value={reason}
              readOnly={pending}
              onChange={(event) => setReason(event.target.value)}
            />
          )}
        </Field>
        <div className="dialog-actions">
          <Dialog.Close asChild>
            <button type="button" className="btn" disabled={pending}>
              Cancel
            </button>
          </Dialog.Close>
          <button type="submit" className="btn btn-danger" disabled={pending || chosen.length === 0}>
            {pending && <span className="spinner" aria-hidden="true" />}
            Reject
          </button>
        </div>
      </form>
    </>
  );
}

/**
 * Decision 025, bulk review on the Submissions page (admins): the 'Select all on this page'
 * checkbox (ticked, cleared or mixed), and with a selection a toolbar saying 'n selected' with
 * 'Approve transcripts', 'Approve recordings' and 'Reject…'. Each asks first, naming the count
 * ('Approve the transcripts of 10 submissions?'; 'Reject…' also asks which outputs and one
 * optional reason), then sends one reviews.bulk call for the selected rows; every button is disabled
 * while it runs. The answer is shown in a polite live region ('9 transcripts approved. 1 skipped:
 * P.wav — The transcript is already Approved.', each skipped file listed), which takes the focus
 * when the dialog closes; the rows done leave the selection and the list is refetched. Cancel or
 * Escape returns focus to the button that opened the dialog.
 */
export function BulkReviewBar({ rows, selection }: { rows: SubmissionRow[]; selection: RowSelection<SubmissionRow> }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const bulk = useMutation(trpc.reviews.bulk.mutationOptions());
  const [dialog, setDialog] = useState<OpenDialog>(null);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const allRef = useRef<HTMLInputElement>(null);
  const summaryRef = useRef<HTMLDivElement>(null);
  const opener = useRef<HTMLElement | null>(null);
  const finished = useRef(false);
  const count = selection.selectedRows.length;
  const pending = bulk.isPending;

  useEffect(() => {
    if (allRef.current) allRef.current.indeterminate = selection.state === "some";
  }, [selection.state]);

  const open = (next: Exclude<OpenDialog, null>, button: HTMLElement) => {
    opener.current = button;
    finished.current = false;
    setDialog(next);
  };

  const changeOpen = (isOpen: boolean) => {
    if (!isOpen && !pending) setDialog(null);
  };

  /** Where focus goes when a dialog closes: the summary after a run, else the button that opened it. */
  const restoreFocus = (event: Event) => {
    event.preventDefault();
    if (finished.current) summaryRef.current?.focus();
    else if (opener.current?.isConnected) opener.current.focus();
    else allRef.current?.focus();
  };

  const run = async (request: Pick<BulkReviewRequest, "action" | "outputs" | "reason">) => {
    const chosen = selection.selectedRows;
    const filenames = new Map(chosen.map((row) => [row.id, row.filename]));
    try {
      const answer = await bulk.mutateAsync({ ...request, submissionIds: chosen.map((row) => row.id) });
      setOutcome({ kind: "done", summary: bulkSummary(request, answer, filenames) });
      selection.clear(answer.done.map((d) => d.submissionId));
    } catch (error) {
      console.error("Bulk review failed", error);
      setOutcome({ kind: "failed", message: errorMessage(error) });
    } finally {
      finished.current = true;
      setDialog(null);
      void queryClient.invalidateQueries(trpc.submissions.pathFilter());
    }
  };

  const approveOutput = dialog?.kind === "approve" ? dialog.output : "transcript";

  return (
    <div className="bulk-review">
      <div className="bulk-bar" role="group" aria-label="Bulk review">
        <label className="bulk-check">
          <input
            ref={allRef}
            type="checkbox"
            checked={selection.state === "all"}
            disabled={rows.length === 0 || pending}
            onChange={(event) => selection.setAll(event.target.checked)}
          />
          Select all on this page
        </label>
        {count > 0 && (
          <>
            <span className="bulk-count">{count} selected</span>
            <button
              type="button"
              className="btn btn-sm btn-success"
              disabled={pending}
              onClick={(event) => open({ kind: "approve", output: "transcript" }, event.currentTarget)}
            >
              Approve transcripts
            </button>
            <button
              type="button"
              className="btn btn-sm btn-success"
              disabled={pending}
              onClick={(event) => open({ kind: "approve", output: "recording" }, event.currentTarget)}
            >
              Approve recordings
            </button>
            <button
              type="button"
              className="btn btn-sm btn-danger"
              disabled={pending}
              onClick={(event) => open({ kind: "reject" }, event.currentTarget)}
            >
              Reject…
            </button>
          </>
        )}
      </div>

      <div
        ref={summaryRef}
        className={outcome ? `bulk-summary bulk-summary-${outcome.kind}` : "bulk-summary"}
        role="status"
        aria-live="polite"
        tabIndex={-1}
      >
        {outcome?.kind === "done" && (
          <>
            <p className="bulk-summary-text">{outcome.summary.text}</p>
            {outcome.summary.skipped.length > 0 && (
              <details>
                <summary>Skipped ({outcome.summary.skipped.length})</summary>
                <ul className="bulk-skipped">
                  {outcome.summary.skipped.map((line, i) => (
                    <li key={`${line.submissionId}-${i}`}>{line.text}</li>
                  ))}
                </ul>
              </details>
            )}
          </>
        )}
        {outcome?.kind === "failed" && <p className="bulk-summary-text">Bulk review failed: {outcome.message}</p>}
      </div>

      <AlertDialog.Root open={dialog?.kind === "approve"} onOpenChange={changeOpen}>
        <AlertDialog.Portal>
          <AlertDialog.Overlay className="dialog-overlay" />
          <AlertDialog.Content className="dialog-content" onCloseAutoFocus={restoreFocus}>
            <AlertDialog.Title className="dialog-title">
              {confirmQuestion("approve", [approveOutput], count)}
            </AlertDialog.Title>
            <AlertDialog.Description className="muted">
              Each {approveOutput} that is still Pending becomes Approved and its assignee is told. Any that another
              admin reviewed meanwhile, or that was never submitted, is skipped and listed.
            </AlertDialog.Description>
            <div className="dialog-actions">
              <AlertDialog.Cancel asChild>
                <button type="button" className="btn" disabled={pending}>
                  Cancel
                </button>
              </AlertDialog.Cancel>
              <button
                type="button"
                className="btn btn-success"
                disabled={pending}
                onClick={() => void run({ action: "approve", outputs: [approveOutput] })}
              >
                {pending && <span className="spinner" aria-hidden="true" />}
                Approve {countOf(count, approveOutput)}
              </button>
            </div>
          </AlertDialog.Content>
        </AlertDialog.Portal>
      </AlertDialog.Root>

      <Dialog.Root open={dialog?.kind === "reject"} onOpenChange={changeOpen}>
        <Dialog.Portal>
          <Dialog.Overlay className="dialog-overlay" />
          <Dialog.Content className="dialog-content" onCloseAutoFocus={restoreFocus}>
            {dialog?.kind === "reject" && (
              <RejectForm
                count={count}
                pending={pending}
                onSubmit={(outputs, reason) => void run({ action: "reject", outputs, reason })}
              />
            )}
          </Dialog.Content>
        </Dialog.Portal>
      </Dialog.Root>
    </div>
  );
}

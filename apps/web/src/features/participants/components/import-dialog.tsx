import { useId, useState } from "react";
import { useMutation } from "@tanstack/react-query";
import { Dialog } from "radix-ui";
import { toast } from "sonner";
import { errorMessage, useTRPC } from "#web/lib/trpc";
import { CloseButton } from "#web/components/side-sheet";
import { Field } from "#web/components/field";
import { PARTICIPANT_CSV_COLUMNS, PARTICIPANTS_CSV_MAX_CHARS, PARTICIPANTS_CSV_TOO_LARGE } from "@tafsiri/domain";
import type { ImportProblem } from "#web/features/participants/lib/participant-types";
import { useInvalidateParticipants } from "#web/features/participants/hooks/use-invalidate-participants";

/**
 * Decision 024 'Import CSV': a dialog with a CSV file input and the expected columns; the file is
 * read in the browser and sent as text to `participants.importCsv`. A row whose code exists
 * updates that participant, others are created. When any row is refused nothing was written: every
 * problem is listed with its line ('Line 3: …') in an alert; on success a toast '2 participants
 * created, 1 updated.' and the list refreshes.
 */
export function ImportDialog() {
  const id = useId();
  const trpc = useTRPC();
  const invalidate = useInvalidateParticipants();
  const [open, setOpen] = useState(false);
  const [file, setFile] = useState<File | null>(null);
  const [problems, setProblems] = useState<ImportProblem[]>([]);
  const [failure, setFailure] = useState<string | null>(null);
  const importCsv = useMutation(trpc.participants.importCsv.mutationOptions());
  const pending = importCsv.isPending;

  function changeOpen(next: boolean) {
    if (pending) return;
    setOpen(next);
    if (!next) {
      setFile(null);
      setProblems([]);
      setFailure(null);
    }
  }

  async function submit() {
    setProblems([]);
    setFailure(null);
    if (!file) return setFailure("Choose a CSV file to import.");
    // Bytes against the server's limit in characters: no file under it is one the server refuses.
    if (file.size > PARTICIPANTS_CSV_MAX_CHARS) return setFailure(PARTICIPANTS_CSV_TOO_LARGE);
    // A spreadsheet's byte-order mark is not part of the first column's name.
    const csv = (await file.text()).replace(/^\uFEFF/, "");
    try {
      const result = await importCsv.mutateAsync({ csv });
      if (result.problems.length > 0) {
        setProblems(result.problems);
        return;
      }
      toast.success(result.message);
      await invalidate();
      changeOpen(false);
    } catch (error) {
      setFailure(errorMessage(error));
    }
  }

  return (
    <Dialog.Root open={open} onOpenChange={changeOpen}>
      <Dialog.Trigger asChild>
        <button type="button" className="btn">
          Import CSV
        </button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog-content participant-import">
          <Dialog.Title className="dialog-title">Import participants</Dialog.Title>
          <Dialog.Description className="muted">
            A CSV file with a header row. A row whose code exists updates that participant; the others are added. If any
            row has a problem, nothing is imported.
          </Dialog.Description>
          <form
            className="stack"
            noValidate
            onSubmit={(e) => {
              e.preventDefault();
              void submit();
            }}
          >
            <Field id={`${id}-file`} label="CSV file" describedBy={`${id}-columns`}>
              {(control) => (
                <input
                  {...control}
                  className="input"
                  type="file"
                  accept=".csv,text/csv"
                  disabled={pending}
                  onChange={(e) => {
                    setFile(e.target.files?.[0] ?? null);
                    setProblems([]);
                    setFailure(null);
                  }}
                />
              )}
            </Field>
            <div id={`${id}-columns`} className="field-hint">
              <p className="participant-columns-title">Columns:</p>
              <p className="participant-columns">
                {PARTICIPANT_CSV_COLUMNS.map((column, index) => (
                  <span key={column}>
                    <code>{column}</code>
                    {index < PARTICIPANT_CSV_COLUMNS.length - 1 ? ", " : ""}
                  </span>
                ))}
              </p>
              <p>
                Days are written YYYY-MM-DD; languages are ISO 639-3 codes separated by spaces or ';'; consent is given,
                restricted, withdrawn or not_recorded.
              </p>
            </div>
            {problems.length > 0 ? (
              <div className="participant-import-problems" role="alert" aria-labelledby={`${id}-problems-title`}>
                <p id={`${id}-problems-title`} className="participant-import-problems-title">
                  Nothing was imported. Fix {problems.length === 1 ? "this line" : `these ${problems.length} lines`} and
                  import the file again:
                </p>
                <ul>
                  {problems.map((problem, index) => (
                    <li key={`${problem.line}-${index}`}>
                      Line {problem.line}: {problem.message}
                    </li>
                  ))}
                </ul>
              </div>
            ) : null}
            {failure ? (
              <p className="field-error" role="alert">
                {failure}
              </p>
            ) : null}
            <div className="dialog-actions">
              <CloseButton disabled={pending} />
              <button type="submit" className="btn btn-primary" disabled={pending}>
                {pending ? <span className="spinner" aria-hidden="true" /> : null}
                Import
              </button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

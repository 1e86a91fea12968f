import { useId, useRef, useState, type FormEvent, type ReactNode } from "react";
import { toast } from "sonner";
import { Field } from "#web/components/field";
import { errorMessage } from "#web/lib/trpc";
import { fileText } from "#web/features/translation-admin/lib/exchange-files";

/**
 * A file import of Management → Translation (decision 035): a labelled file input and a button
 * beside it. The chosen file is read in the browser as text and handed to `onImport` (which sends
 * it as `content` and answers the server's message); the message shows in a toast, and the input
 * is emptied. Without a file an inline error asks for one; a refusal shows the server's message
 * in a toast. The input and the button are disabled while the request runs.
 */
export function FileImport({
  label,
  hint,
  accept,
  buttonLabel,
  onImport,
}: {
  label: string;
  hint: ReactNode;
  accept: string;
  buttonLabel: string;
  onImport: (content: string) => Promise<{ message: string }>;
}) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    if (!file) {
      setProblem("Choose a file to import.");
      input.current?.focus();
      return;
    }
    setBusy(true);
    try {
      const result = await onImport(await fileText(file));
      toast.success(result.message);
      setFile(null);
      if (input.current) input.current.value = "";
    } catch (error) {
      toast.error(errorMessage(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="translation-admin-import" noValidate onSubmit={(e) => void submit(e)} aria-label={buttonLabel}>
      <Field id={`${id}-file`} label={label} hint={hint} error={problem}>
        {(control) => (
          <div className="row row-tight translation-admin-file-row">
            <input
              {...control}
              ref={input}
              className="input translation-admin-file-input"
              type="file"
              accept={accept}
              disabled={busy}
              onChange={(e) => {
                setProblem(null);
                setFile(e.target.files?.[0] ?? null);
              }}
            />
            <button type="submit" className="btn" disabled={busy} aria-busy={busy || undefined}>
              {busy ? <span className="spinner" aria-hidden="true" /> : null}
              {buttonLabel}
            </button>
          </div>
        )}
      </Field>
    </form>
  );
}

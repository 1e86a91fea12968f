import { useId, useRef, useState } from "react";
import { toast } from "sonner";
import { ConfirmDialog } from "#web/components/confirm-dialog";
import { Field } from "#web/components/field";
import { CONSENT_DOCUMENT_MAX_BYTES, CONSENT_DOCUMENT_NOT_PDF, CONSENT_DOCUMENT_TOO_LARGE } from "@tafsiri/domain";
import {
  downloadConsentDocument,
  removeConsentDocument,
  uploadConsentDocument,
} from "#web/features/participants/lib/consent-document";
import type { Participant } from "#web/features/participants/lib/participant-types";
import { useInvalidateParticipants } from "#web/features/participants/hooks/use-invalidate-participants";

/** The browser's check of a chosen consent document: a PDF of at most 10 MB (the server checks the content too). */
function documentProblem(file: File): string | null {
  const pdf = file.type === "application/pdf" || (!file.type && file.name.toLowerCase().endsWith(".pdf"));
  if (!pdf) return CONSENT_DOCUMENT_NOT_PDF;
  if (file.size > CONSENT_DOCUMENT_MAX_BYTES) return CONSENT_DOCUMENT_TOO_LARGE;
  return null;
}

/**
 * A saved participant's consent document (decision 024), in the side panel: its name with
 * 'Download' and 'Remove' (after a confirmation) when there is one, and a PDF file input with
 * 'Upload' (replacing any earlier document). Each action runs at once, apart from the form's Save;
 * failures are shown under the input (role=alert) with the server's message.
 */
export function ConsentDocumentField({ participant, disabled }: { participant: Participant; disabled: boolean }) {
  const id = useId();
  const invalidate = useInvalidateParticipants();
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState<"upload" | "download" | "remove" | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [confirmingRemoval, setConfirmingRemoval] = useState(false);
  const name = participant.consentDocumentName;

  async function run(action: "upload" | "download" | "remove", work: () => Promise<void>, done?: string) {
    setBusy(action);
    setProblem(null);
    try {
      await work();
      if (done) toast.success(done);
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
    } finally {
      setBusy(null);
    }
  }

  async function upload() {
    if (!file) return setProblem("Choose a PDF file to upload.");
    const refused = documentProblem(file);
    if (refused) return setProblem(refused);
    await run(
      "upload",
      async () => {
        await uploadConsentDocument(participant.id, file);
        setFile(null);
        if (input.current) input.current.value = "";
        await invalidate();
      },
      `The consent document of ${participant.code} has been uploaded.`,
    );
  }

  async function remove() {
    await run(
      "remove",
      async () => {
        await removeConsentDocument(participant.id);
        setConfirmingRemoval(false);
        await invalidate();
      },
      `The consent document of ${participant.code} has been removed.`,
    );
  }

  const off = disabled || busy !== null;
  return (
    <fieldset className="participant-fieldset" aria-describedby={problem ? `${id}-problem` : undefined}>
      <legend className="label">Consent document</legend>
      {name ? (
        <div className="row row-tight participant-document">
          <span className="participant-document-name">{name}</span>
          <button
            type="button"
            className="btn btn-sm"
            disabled={off}
            onClick={() => void run("download", () => downloadConsentDocument(participant.id, name))}
          >
            {busy === "download" ? <span className="spinner" aria-hidden="true" /> : null}
            Download <span className="sr-only">{name}</span>
          </button>
          <ConfirmDialog
            open={confirmingRemoval}
            onOpenChange={setConfirmingRemoval}
            trigger={
              <button type="button" className="btn btn-sm btn-outline-danger" disabled={off}>
                Remove <span className="sr-only">{name}</span>
              </button>
            }
            title={`Remove the consent document of ${participant.code}?`}
            description="The PDF is deleted; the consent status stays as it is."
            confirmLabel="Remove"
            pending={busy === "remove"}
            onConfirm={() => void remove()}
          />
        </div>
      ) : (
        <p className="field-hint">No consent document yet.</p>
      )}
      <Field id={`${id}-file`} label={name ? "Replace with another PDF" : "PDF file"} hint="One PDF, at most 10 MB.">
        {(control) => (
          <div className="row row-tight">
            <input
              {...control}
              ref={input}
              className="input participant-file-input"
              type="file"
              accept="application/pdf,.pdf"
              disabled={off}
              onChange={(e) => {
                setProblem(null);
                setFile(e.target.files?.[0] ?? null);
              }}
            />
            <button type="button" className="btn btn-sm" disabled={off} onClick={() => void upload()}>
              {busy === "upload" ? <span className="spinner" aria-hidden="true" /> : null}
              Upload
            </button>
          </div>
        )}
      </Field>
      {problem ? (
        <p id={`${id}-problem`} className="field-error" role="alert">
          {problem}
        </p>
      ) : null}
    </fieldset>
  );
}

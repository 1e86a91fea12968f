import { useState, type FormEvent } from "react";
import type { ExportChoiceInput } from "#web/lib/api-types";
import { DateRangeField } from "#web/components/date-range-field";
import { SelectField, TextField } from "#web/components/field";
import { CHAT_ROLES } from "@tafsiri/domain";
import {
  CATEGORY_CHOICES,
  DEFAULT_EXPORT_FORM,
  STATUS_CHOICES,
  exportChoice,
  type ExportFormValues,
} from "#web/features/exports/lib/export-form";

/**
 * The Export form (decision 019). Category (Control and Dementia, Control, Dementia), status
 * ('Completed tasks only' or 'Everything with an approved transcript'), the approval period's
 * 'First day' and 'Last day' (both included, either may stay empty), and the 'CHAT transcript
 * settings' (languages, participant role, corpus) with the server's defaults filled in, each with a
 * hint, and (decision 024) 'Include participants with restricted consent', off by default. 'Start export' is disabled while the request runs; the server's message for a refused
 * choice shows in an alert under the button.
 */
export function ExportForm({
  onStart,
  starting,
  error,
}: {
  onStart: (choice: ExportChoiceInput) => void;
  starting: boolean;
  error: string | null;
}) {
  const [values, setValues] = useState<ExportFormValues>(DEFAULT_EXPORT_FORM);
  const set = (patch: Partial<ExportFormValues>) => setValues((current) => ({ ...current, ...patch }));

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!starting) onStart(exportChoice(values));
  }

  return (
    <section className="card stack" aria-labelledby="export-form-title">
      <h2 id="export-form-title" className="section-title">
        New export
      </h2>
      <p className="muted export-intro">
        A zip of the chosen audios: each original audio, its approved transcript as a CHAT (.cha) file and its approved
        translated recording, with a manifest (CSV and JSON Lines) giving every file&apos;s SHA-256 and each
        recording&apos;s participant. Only recordings of participants who gave consent are exported; the zip counts what
        was left out and why. It is written in the background; its download link works for 24 hours.
      </p>
      <form className="stack" onSubmit={submit} noValidate aria-labelledby="export-form-title">
        <div className="export-fieldsets">
          <fieldset className="export-fieldset">
            <legend className="label">Category</legend>
            {CATEGORY_CHOICES.map((choice) => (
              <label key={choice.value} className="export-option">
                <input
                  type="radio"
                  name="category"
                  value={choice.value}
                  checked={values.category === choice.value}
                  onChange={() => set({ category: choice.value })}
                />
                <span>{choice.label}</span>
              </label>
            ))}
          </fieldset>

          <fieldset className="export-fieldset">
            <legend className="label">Status</legend>
            {STATUS_CHOICES.map((choice) => (
              <div key={choice.value} className="export-option">
                <input
                  id={`export-status-${choice.value}`}
                  type="radio"
                  name="status"
                  value={choice.value}
                  checked={values.status === choice.value}
                  aria-describedby={`export-status-${choice.value}-hint`}
                  onChange={() => set({ status: choice.value })}
                />
                <div>
                  <label htmlFor={`export-status-${choice.value}`}>{choice.label}</label>
                  <p className="field-hint" id={`export-status-${choice.value}-hint`}>
                    {choice.hint}
                  </p>
                </div>
              </div>
            ))}
          </fieldset>

          <DateRangeField
            className="export-fieldset"
            legend="Approval date"
            fromLabel="First day"
            toLabel="Last day"
            hint="Both days included; leave a day empty for no limit. For completed tasks the later of the two approvals counts."
            value={{ from: values.approvedFrom, to: values.approvedTo }}
            onChange={({ from, to }) => set({ approvedFrom: from, approvedTo: to })}
          />

          <fieldset className="export-fieldset">
            <legend className="label">Consent</legend>
            <div className="export-option">
              <input
                id="export-include-restricted"
                type="checkbox"
                checked={values.includeRestricted}
                aria-describedby="export-include-restricted-hint"
                onChange={(e) => set({ includeRestricted: e.target.checked })}
              />
              <div>
                <label htmlFor="export-include-restricted">Include participants with restricted consent</label>
                <p className="field-hint" id="export-include-restricted-hint">
                  Off: only participants whose consent is given. On: also those whose consent is restricted; use it only
                  where their consent allows this use. Recordings with no participant, or whose participant withdrew or
                  has no recorded consent, are always left out.
                </p>
              </div>
            </div>
          </fieldset>

          <fieldset className="export-fieldset export-chat">
            <legend className="label">CHAT transcript settings</legend>
            <div className="export-chat-fields">
              <TextField
                id="export-languages"
                label="Languages"
                hint="ISO 639-3 codes separated by commas, the main language first (e.g. eng, swa); one to five."
                value={values.languages}
                autoComplete="off"
                spellCheck={false}
                onChange={(languages) => set({ languages })}
              />
              <SelectField
                id="export-role"
                label="Participant role"
                hint="The speaker's role in the @Participants and @ID headers (the speaker code is PAR)."
                value={values.participantRole}
                options={CHAT_ROLES}
                onChange={(participantRole) => set({ participantRole })}
              />
              <TextField
                id="export-corpus"
                label="Corpus"
                hint="The corpus name in each @ID header: letters, digits, _ and - (at most 40)."
                value={values.corpus}
                autoComplete="off"
                spellCheck={false}
                onChange={(corpus) => set({ corpus })}
              />
            </div>
          </fieldset>
        </div>
        <div className="row">
          <button type="submit" className="btn btn-primary" disabled={starting} aria-busy={starting || undefined}>
            {starting ? <span className="spinner" aria-hidden="true" /> : null}
            Start export
          </button>
        </div>
        {error && (
          <p className="field-error export-error" role="alert">
            {error}
          </p>
        )}
      </form>
    </section>
  );
}

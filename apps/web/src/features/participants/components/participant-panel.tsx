import { useState, type ReactNode } from "react";
import { useMutation } from "@tanstack/react-query";
import { toast } from "sonner";
import { CONSENT_STATUSES, PARTICIPANT_GROUPS, SEXES } from "@tafsiri/domain";
import { errorMessage, useTRPC } from "#web/lib/trpc";
import { ConfirmDialog } from "#web/components/confirm-dialog";
import { CloseButton, SideSheet } from "#web/components/side-sheet";
import { Field, SelectField, TextField } from "#web/components/field";
import {
  emptyForm,
  fieldOfMessage,
  formErrors,
  formOf,
  inputOf,
  type AgeMode,
  type FormErrors,
  type ParticipantField,
  type ParticipantForm,
} from "#web/features/participants/lib/participant-form";
import type { Participant } from "#web/features/participants/lib/participant-types";
import { CONSENT_LABELS, SEX_LABELS } from "#web/features/participants/lib/participant-words";
import { useInvalidateParticipants } from "#web/features/participants/hooks/use-invalidate-participants";
import { ConsentDocumentField } from "./consent-document-field";
import { ScoreRows } from "./score-rows";

/** The order the fields are checked in, so Save focuses the first one in error. */
const FIELD_ORDER: ParticipantField[] = [
  "code",
  "group",
  "sex",
  "birthDate",
  "age",
  "ageRecordedOn",
  "educationYears",
  "languages",
  "scores",
  "notes",
  "consentStatus",
  "consentDate",
];

/**
 * Decision 024: the 'Add participant' / 'Edit participant' side panel (a radix Dialog shown as a
 * right-side sheet, as the Accounts page's). Fields: code, group, sex, the age as a date of birth
 * or as years and months on a day, years of education, languages (ISO 639-3, comma-separated),
 * cognitive scores with their days, notes, consent with its day, and, once the participant
 * exists, the consent document. Checked in the browser with the server's messages; a server
 * refusal is shown by the field it is about. Changing consent to withdrawn asks for confirmation
 * first. Save is disabled while the request runs; closing returns focus to the opening button.
 */
export function ParticipantPanel({
  mode,
  participant,
  open,
  onOpenChange,
  trigger,
}: {
  mode: "create" | "edit";
  /** The participant edited (edit mode). */
  participant?: Participant;
  open: boolean;
  onOpenChange(open: boolean): void;
  trigger: ReactNode;
}) {
  const trpc = useTRPC();
  const invalidate = useInvalidateParticipants();
  const initial = () => (participant ? formOf(participant) : emptyForm());
  const [form, setForm] = useState<ParticipantForm>(initial);
  const [showAll, setShowAll] = useState(false);
  const [touched, setTouched] = useState<Set<string>>(() => new Set());
  const [serverError, setServerError] = useState<{ field: ParticipantField | null; message: string } | null>(null);
  const [confirmingWithdrawal, setConfirmingWithdrawal] = useState(false);
  const create = useMutation(trpc.participants.create.mutationOptions());
  const update = useMutation(trpc.participants.update.mutationOptions());
  const pending = create.isPending || update.isPending;
  const idPrefix = `participant-${mode}-${participant?.id ?? "new"}`;
  const errors = formErrors(form);
  const withdrawing =
    mode === "edit" && form.consentStatus === "withdrawn" && participant?.consentStatus !== "withdrawn";

  /** The errors shown: the browser's for the fields touched (all after a Save), and the server's at its field. */
  const shown: FormErrors = {};
  for (const [key, message] of Object.entries(errors) as Array<[keyof FormErrors, string]>) {
    const field = key.startsWith("score-") ? "scores" : key;
    if (showAll || touched.has(field)) shown[key] = message;
  }
  if (serverError?.field) {
    const field = serverError.field === "age" && form.ageMode === "birthDate" ? "birthDate" : serverError.field;
    shown[field] ??= serverError.message;
  }

  function changeOpen(next: boolean) {
    if (pending) return;
    if (next) {
      setForm(initial());
      setShowAll(false);
      setTouched(new Set());
      setServerError(null);
    }
    onOpenChange(next);
  }

  function change(patch: Partial<ParticipantForm>, field: string) {
    setForm((f) => ({ ...f, ...patch }));
    setTouched((t) => new Set(t).add(field));
    if (serverError && (serverError.field === field || serverError.field === null)) setServerError(null);
  }

  function focusField(field: string) {
    const target = field === "scores" ? (form.scores[0] ? `${form.scores[0].key}-score` : "scores") : field;
    document.getElementById(`${idPrefix}-${target}`)?.focus();
  }

  /** Checks the form; answers whether it may be sent (else shows every error and focuses the first). */
  function check(): boolean {
    setShowAll(true);
    const keys = Object.keys(errors);
    if (keys.length === 0) return true;
    const firstScore = form.scores.find((row) => errors[`score-${row.key}`]);
    const first = FIELD_ORDER.find((f) => errors[f]) ?? (firstScore ? "scores" : null);
    if (first === "scores" && firstScore) document.getElementById(`${idPrefix}-${firstScore.key}-score`)?.focus();
    else if (first) focusField(first);
    return false;
  }

  function submit() {
    if (!check()) return;
    if (withdrawing) setConfirmingWithdrawal(true);
    else void save();
  }

  async function save() {
    const input = inputOf(form);
    try {
      const { message } =
        mode === "create"
          ? await create.mutateAsync(input)
          : await update.mutateAsync({ ...input, participantId: participant!.id });
      toast.success(message);
      setConfirmingWithdrawal(false);
      await invalidate();
      onOpenChange(false);
    } catch (error) {
      const message = errorMessage(error);
      const field = fieldOfMessage(message);
      setConfirmingWithdrawal(false);
      setServerError({ field, message });
      toast.error(mode === "create" ? "Failed to add the participant" : "Failed to save the participant", {
        description: message,
      });
      if (field)
        window.setTimeout(() => focusField(field === "age" && form.ageMode === "birthDate" ? "birthDate" : field), 0);
    }
  }

  const id = (field: string) => `${idPrefix}-${field}`;
  /** A text or date input of the form, with its error (`type` text unless a date is asked). */
  const textField = (
    field: "code" | "educationYears" | "languages" | "birthDate" | "ageRecordedOn" | "consentDate",
    label: string,
    input: { type?: "text" | "date"; inputMode?: "numeric"; hint?: string } = {},
  ) => {
    const type = input.type ?? "text";
    return (
      <TextField
        id={id(field)}
        label={label}
        hint={input.hint}
        error={shown[field]}
        type={type}
        inputMode={input.inputMode}
        autoComplete={type === "text" ? "off" : undefined}
        value={form[field]}
        disabled={pending}
        onChange={(value) => change({ [field]: value }, field)}
      />
    );
  };
  const title = mode === "create" ? "Add participant" : `Edit participant ${participant?.code ?? ""}`.trim();

  return (
    <SideSheet
      open={open}
      onOpenChange={changeOpen}
      trigger={trigger}
      title={title}
      description="A pseudonymous code and what the study records of the person: never a name."
      busy={pending}
      className="participant-sheet"
    >
      <form
        className="stack sheet-form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        {textField("code", "Code", { hint: "A pseudonym such as P0042: letters, digits, '_' or '-'." })}
        <SelectField
          id={id("group")}
          label="Group"
          error={shown.group}
          value={form.group}
          emptyOption="Select a group"
          options={PARTICIPANT_GROUPS}
          disabled={pending}
          onChange={(group) => change({ group }, "group")}
        />
        <SelectField
          id={id("sex")}
          label="Sex"
          error={shown.sex}
          value={form.sex}
          emptyOption="Not recorded"
          options={SEXES}
          optionLabel={(s) => SEX_LABELS[s]}
          disabled={pending}
          onChange={(sex) => change({ sex }, "sex")}
        />
        <fieldset className="participant-fieldset">
          <legend className="label">Age</legend>
          <div className="row participant-choice" role="radiogroup" aria-label="Age given as">
            {(
              [
                ["birthDate", "Date of birth"],
                ["age", "Years and months"],
              ] as Array<[AgeMode, string]>
            ).map(([value, label]) => (
              <label key={value} className="filter-option">
                <input
                  type="radio"
                  name={`${idPrefix}-age-mode`}
                  value={value}
                  checked={form.ageMode === value}
                  disabled={pending}
                  onChange={() => change({ ageMode: value }, "ageMode")}
                />
                {label}
              </label>
            ))}
          </div>
          {form.ageMode === "birthDate" ? (
            textField("birthDate", "Date of birth", { type: "date" })
          ) : (
            <>
              <div className="participant-age">
                <TextField
                  id={id("age")}
                  label="Years"
                  error={shown.age}
                  type="number"
                  inputMode="numeric"
                  min={0}
                  max={150}
                  value={form.ageYears}
                  disabled={pending}
                  onChange={(ageYears) => change({ ageYears }, "age")}
                />
                <TextField
                  id={id("age-months")}
                  label="Months"
                  invalid={Boolean(shown.age)}
                  describedBy={shown.age ? `${id("age")}-error` : undefined}
                  type="number"
                  inputMode="numeric"
                  min={0}
                  max={11}
                  value={form.ageMonths}
                  disabled={pending}
                  onChange={(ageMonths) => change({ ageMonths }, "age")}
                />
              </div>
              {textField("ageRecordedOn", "Age recorded on", { type: "date", hint: "Leave empty for today." })}
            </>
          )}
        </fieldset>
        {textField("educationYears", "Years of education", { inputMode: "numeric" })}
        {textField("languages", "Languages", {
          hint: "ISO 639-3 codes, comma-separated (e.g. lug, eng).",
        })}
        <ScoreRows
          idPrefix={idPrefix}
          rows={form.scores}
          errors={shown}
          disabled={pending}
          onChange={(scores) => change({ scores }, "scores")}
        />
        <Field id={id("notes")} label="Notes" hint="No names or other identifying details." error={shown.notes}>
          {(control) => (
            <textarea
              {...control}
              className="textarea"
              rows={3}
              value={form.notes}
              disabled={pending}
              onChange={(e) => change({ notes: e.target.value }, "notes")}
            />
          )}
        </Field>
        <SelectField
          id={id("consentStatus")}
          label="Consent"
          error={shown.consentStatus}
          value={form.consentStatus}
          options={CONSENT_STATUSES}
          optionLabel={(c) => CONSENT_LABELS[c]}
          disabled={pending}
          onChange={(consentStatus) => change({ consentStatus }, "consentStatus")}
        />
        {textField("consentDate", "Consent date", { type: "date" })}
        {participant ? (
          <ConsentDocumentField participant={participant} disabled={pending} />
        ) : (
          <p className="field-hint">The consent document (a PDF) can be added once the participant is saved.</p>
        )}
        {serverError && !serverError.field ? (
          <p className="field-error" role="alert">
            {serverError.message}
          </p>
        ) : null}
        <div className="dialog-actions">
          <CloseButton disabled={pending} />
          <ConfirmDialog
            open={confirmingWithdrawal}
            // Save submits the form, which opens the confirmation when it is needed; the trigger
            // itself only gives focus back to Save when the confirmation is cancelled.
            onOpenChange={(next) => {
              if (!next) setConfirmingWithdrawal(false);
            }}
            trigger={
              <button type="submit" className="btn btn-primary" disabled={pending}>
                {pending ? <span className="spinner" aria-hidden="true" /> : null}
                {mode === "create" ? "Add participant" : "Save changes"}
              </button>
            }
            title={`Withdraw consent for ${form.code.trim() || participant?.code}?`}
            description="Their recordings leave every future export and ready exports that hold them stop downloading."
            confirmLabel="Withdraw consent"
            pending={pending}
            onConfirm={() => void save()}
          />
        </div>
      </form>
    </SideSheet>
  );
}

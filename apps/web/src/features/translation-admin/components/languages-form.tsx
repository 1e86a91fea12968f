import { useId, useState, type FormEvent } from "react";
import { toast } from "sonner";
import { TextField } from "#web/components/field";
import { errorMessage } from "#web/lib/trpc";
import {
  settingsErrors,
  settingsFormOf,
  settingsInput,
  type SettingsFormErrors,
  type SettingsFormValues,
} from "#web/features/translation-admin/lib/settings-form";
import type { TranslationSettings } from "#web/features/translation-admin/lib/translation-types";
import { useSaveTranslationSettings } from "#web/features/translation-admin/hooks/use-translation-settings";

/** The two rules of the programme, with their labels and hints. */
const RULES: ReadonlyArray<{ key: "staffWriteSource" | "keepChatMarkers"; label: string; hint: string }> = [
  {
    key: "staffWriteSource",
    label: "Staff write the source text where no transcript was uploaded",
    hint: "Off: only an uploaded transcript gives the source text; staff translate the other recordings from the audio alone.",
  },
  {
    key: "keepChatMarkers",
    label: "Translations keep CHAT markers (&-uh, [/], (.), xxx)",
    hint: "On: a translation missing a filler, repetition, pause or xxx of its source is an error that blocks Submit. Off: not checked.",
  },
];

/**
 * Management → Translation's 'Languages and rules' (decision 035): the source languages (ISO
 * 639-3 codes, one to five, the first the default of a recording), the target language and the
 * two rules, saved whole with `translation.setSettings`. The codes are checked in the browser
 * first (an inline error by the field, the first field in error focused); the server's message
 * shows in a toast, success or failure. Save is disabled while the request runs.
 */
export function LanguagesForm({ settings, onSaved }: { settings: TranslationSettings; onSaved: () => void }) {
  const id = useId();
  const save = useSaveTranslationSettings();
  const [values, setValues] = useState<SettingsFormValues>(() => settingsFormOf(settings));
  const [errors, setErrors] = useState<SettingsFormErrors>({});
  const set = (patch: Partial<SettingsFormValues>) => {
    setValues((current) => ({ ...current, ...patch }));
    setErrors((current) => {
      const next = { ...current };
      for (const key of Object.keys(patch)) delete next[key as keyof SettingsFormErrors];
      return next;
    });
  };

  function submit(event: FormEvent) {
    event.preventDefault();
    if (save.isPending) return;
    const found = settingsErrors(values);
    setErrors(found);
    const first = (["sourceLanguages", "targetLanguage"] as const).find((field) => found[field]);
    if (first) {
      document.getElementById(`${id}-${first}`)?.focus();
      return;
    }
    save.mutate(settingsInput(values), {
      onSuccess: (result) => {
        setValues(settingsFormOf(result.settings));
        toast.success(result.message);
        onSaved();
      },
      onError: (error) => toast.error(errorMessage(error)),
    });
  }

  return (
    <section className="card stack" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="section-title">
        Languages and rules
      </h2>
      <p className="muted translation-admin-intro">
        The languages the programme&apos;s recordings are in and the language they are translated into. A recording
        takes the first source language unless it is given its own.
      </p>
      <form className="stack" noValidate onSubmit={submit} aria-labelledby={`${id}-title`}>
        <div className="translation-admin-languages">
          <TextField
            id={`${id}-sourceLanguages`}
            label="Source languages"
            hint="ISO 639-3 codes separated by commas, the default first (e.g. eng, lug); one to five."
            error={errors.sourceLanguages}
            value={values.sourceLanguages}
            autoComplete="off"
            spellCheck={false}
            disabled={save.isPending}
            onChange={(sourceLanguages) => set({ sourceLanguages })}
          />
          <TextField
            id={`${id}-targetLanguage`}
            label="Target language"
            hint="One ISO 639-3 code (e.g. swa)."
            error={errors.targetLanguage}
            value={values.targetLanguage}
            autoComplete="off"
            spellCheck={false}
            disabled={save.isPending}
            onChange={(targetLanguage) => set({ targetLanguage })}
          />
        </div>
        <fieldset className="translation-admin-fieldset">
          <legend className="label">Rules</legend>
          {RULES.map((rule) => (
            <div key={rule.key} className="translation-admin-option">
              <input
                id={`${id}-${rule.key}`}
                type="checkbox"
                checked={values[rule.key]}
                disabled={save.isPending}
                aria-describedby={`${id}-${rule.key}-hint`}
                onChange={(e) => set({ [rule.key]: e.target.checked })}
              />
              <div>
                <label htmlFor={`${id}-${rule.key}`}>{rule.label}</label>
                <p className="field-hint" id={`${id}-${rule.key}-hint`}>
                  {rule.hint}
                </p>
              </div>
            </div>
          ))}
        </fieldset>
        <div className="row">
          <button
            type="submit"
            className="btn btn-primary"
            disabled={save.isPending}
            aria-busy={save.isPending || undefined}
          >
            {save.isPending ? <span className="spinner" aria-hidden="true" /> : null}
            Save
          </button>
        </div>
      </form>
    </section>
  );
}

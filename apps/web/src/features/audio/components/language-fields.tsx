import { useId } from "react";
import type { LanguagePair } from "@tafsiri/domain";
import { TextField } from "#web/components/field";
import { pairLabel, type LanguageFieldErrors, type LanguageFieldValues } from "#web/features/audio/lib/audio-languages";
import "#web/features/audio/audio-languages.css";

/**
 * Decision 035: an audio's own 'Source language' and 'Target language' (ISO 639-3), each optional,
 * grouped under `legend`, with the hint 'Leave empty for the programme's languages (eng → swa).'
 * naming the programme's pair once it is known. Each field shows its error under it.
 */
export function LanguageFields({
  legend,
  values,
  errors,
  programme,
  disabled,
  onChange,
}: {
  legend: string;
  values: LanguageFieldValues;
  errors: LanguageFieldErrors;
  programme: LanguagePair | null;
  disabled?: boolean;
  onChange(values: LanguageFieldValues): void;
}) {
  const id = useId();
  const hintId = `${id}-hint`;
  const field = {
    type: "text",
    autoComplete: "off",
    autoCapitalize: "none",
    spellCheck: false,
    maxLength: 3,
    describedBy: hintId,
    disabled,
  } as const;
  return (
    <fieldset className="audio-languages">
      <legend className="label">{legend}</legend>
      <div className="audio-languages-fields">
        <TextField
          {...field}
          id={`${id}-source`}
          label="Source language"
          name="source_language"
          value={values.source}
          error={errors.source}
          onChange={(source) => onChange({ ...values, source })}
        />
        <TextField
          {...field}
          id={`${id}-target`}
          label="Target language"
          name="target_language"
          value={values.target}
          error={errors.target}
          onChange={(target) => onChange({ ...values, target })}
        />
      </div>
      <p id={hintId} className="field-hint">
        {programme
          ? `Leave empty for the programme's languages (${pairLabel(programme)}).`
          : "Leave empty for the programme's languages."}
      </p>
    </fieldset>
  );
}

import { useId, useState, type FormEvent } from "react";
import { Field, TextField } from "#web/components/field";
import { languageCodeProblem, pairLabel, samePair } from "#web/features/translation-admin/lib/settings-form";
import type { LanguagePair } from "#web/features/translation-admin/lib/translation-types";

/** The select's value of 'another pair'. */
const OTHER = "other";

/** A pair as the select's value: 'eng-swa'. */
const keyOf = (pair: LanguagePair) => `${pair.source}-${pair.target}`;

/**
 * The language pair whose glossary and translation memory Management → Translation shows
 * (decision 035): a select of the programme's pairs (each source language into the target
 * language, the default first) and 'Another pair…', which asks for a source and a target code
 * (a recording may have languages of its own) checked with LANGUAGE_CODE before 'Show pair'.
 */
export function PairPicker({
  pairs,
  value,
  onChange,
}: {
  pairs: readonly LanguagePair[];
  value: LanguagePair;
  onChange: (pair: LanguagePair) => void;
}) {
  const id = useId();
  const known = pairs.some((pair) => samePair(pair, value));
  const [otherOpen, setOtherOpen] = useState(!known);
  const [source, setSource] = useState(known ? "" : value.source);
  const [target, setTarget] = useState(known ? "" : value.target);
  const [errors, setErrors] = useState<{ source?: string | undefined; target?: string | undefined }>({});

  function choose(key: string) {
    if (key === OTHER) {
      setOtherOpen(true);
      return;
    }
    setOtherOpen(false);
    setErrors({});
    const pair = pairs.find((p) => keyOf(p) === key);
    if (pair) onChange(pair);
  }

  function showOther(event: FormEvent) {
    event.preventDefault();
    const pair = { source: source.trim().toLowerCase(), target: target.trim().toLowerCase() };
    const found = { source: languageCodeProblem(pair.source), target: languageCodeProblem(pair.target) };
    setErrors({ ...(found.source && { source: found.source }), ...(found.target && { target: found.target }) });
    if (found.source) return document.getElementById(`${id}-source`)?.focus();
    if (found.target) return document.getElementById(`${id}-target`)?.focus();
    onChange(pair);
  }

  return (
    <div className="translation-admin-pair">
      <Field
        id={`${id}-pair`}
        label="Language pair"
        hint="The glossary and the translation memory below are those of this pair."
      >
        {(control) => (
          <select
            {...control}
            className="select translation-admin-pair-select"
            value={otherOpen ? OTHER : keyOf(value)}
            onChange={(e) => choose(e.target.value)}
          >
            {pairs.map((pair, index) => (
              <option key={keyOf(pair)} value={keyOf(pair)}>
                {pairLabel(pair)}
                {index === 0 ? " (default)" : ""}
              </option>
            ))}
            <option value={OTHER}>Another pair…</option>
          </select>
        )}
      </Field>
      {otherOpen ? (
        <form className="translation-admin-pair-other" noValidate onSubmit={showOther} aria-label="Another pair">
          <TextField
            id={`${id}-source`}
            label="Source"
            className="translation-admin-code"
            error={errors.source}
            value={source}
            autoComplete="off"
            spellCheck={false}
            placeholder="lug"
            onChange={(next) => {
              setSource(next);
              setErrors((e) => ({ ...e, source: undefined }));
            }}
          />
          <TextField
            id={`${id}-target`}
            label="Target"
            className="translation-admin-code"
            error={errors.target}
            value={target}
            autoComplete="off"
            spellCheck={false}
            placeholder="swa"
            onChange={(next) => {
              setTarget(next);
              setErrors((e) => ({ ...e, target: undefined }));
            }}
          />
          <button type="submit" className="btn">
            Show pair
          </button>
        </form>
      ) : null}
    </div>
  );
}

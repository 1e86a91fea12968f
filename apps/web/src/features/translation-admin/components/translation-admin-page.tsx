import { useState } from "react";
import { errorMessage } from "#web/lib/trpc";
import { pairLabel, programmePairs } from "#web/features/translation-admin/lib/settings-form";
import type { LanguagePair, TranslationSettings } from "#web/features/translation-admin/lib/translation-types";
import { useTranslationSettings } from "#web/features/translation-admin/hooks/use-translation-settings";
import { GlossarySection } from "./glossary-section";
import { LanguagesForm } from "./languages-form";
import { MemorySection } from "./memory-section";
import { PairPicker } from "./pair-picker";
import "#web/features/translation-admin/translation-admin.css";

/**
 * Management → Translation (admin; decision 035): the programme's languages and rules, then the
 * glossary and the translation memory of one language pair, by default the first source language
 * into the target language. Loading and error (with Retry) states while the settings are read.
 */
export function TranslationAdminPage() {
  const settings = useTranslationSettings();

  if (settings.isPending) {
    return (
      <p className="empty-state" role="status">
        <span className="spinner" aria-hidden="true" /> Loading the translation settings…
      </p>
    );
  }
  if (settings.isError) {
    return (
      <div className="empty-state" role="alert">
        <p>The translation settings could not be loaded: {errorMessage(settings.error)}</p>
        <button type="button" className="btn" onClick={() => void settings.refetch()}>
          Retry
        </button>
      </div>
    );
  }
  return <TranslationAdmin settings={settings.data} />;
}

/** The page once the settings are read: the form, the pair picker, the glossary and the memory of the pair. */
function TranslationAdmin({ settings }: { settings: TranslationSettings }) {
  const pairs = programmePairs(settings);
  // null: the programme's default pair, which follows the saved settings.
  const [chosen, setChosen] = useState<LanguagePair | null>(null);
  const [pickerKey, setPickerKey] = useState(0);
  // The server keeps one to five source languages, so there is always a first pair.
  const pair = chosen ?? pairs[0]!;

  return (
    <div className="stack translation-admin-page">
      <LanguagesForm
        settings={settings}
        onSaved={() => {
          // The pairs may have changed: back to the (new) default pair.
          setChosen(null);
          setPickerKey((key) => key + 1);
        }}
      />
      <div className="card translation-admin-pair-card">
        <PairPicker key={pickerKey} pairs={pairs} value={pair} onChange={setChosen} />
        <p className="sr-only" role="status">
          Showing the glossary and translation memory of {pairLabel(pair)}.
        </p>
      </div>
      <GlossarySection pair={pair} />
      <MemorySection pair={pair} />
    </div>
  );
}

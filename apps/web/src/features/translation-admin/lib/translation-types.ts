import type { RouterInputs, RouterOutputs } from "@tafsiri/api";

// The shapes of the `translation` procedures Management → Translation reads and sends (decision 035).
// Types only: the web app never imports server code.

/** The programme's translation settings (`translation.settings`, and what `setSettings` takes). */
export type TranslationSettings = RouterOutputs["translation"]["settings"];
/** A language pair (source, target) as the glossary and memory procedures take it. */
export type LanguagePair = RouterInputs["translation"]["glossary"];
/** One glossary term of a pair (`translation.glossary`). */
export type GlossaryTerm = RouterOutputs["translation"]["glossary"][number];
/** A file the server wrote for download (`exportGlossary`, `exportMemory`). */
export type ExportedFile = RouterOutputs["translation"]["exportGlossary"];

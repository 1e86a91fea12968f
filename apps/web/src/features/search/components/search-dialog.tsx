import { useEffect, useId, useState, type KeyboardEvent } from "react";
import { Dialog } from "radix-ui";
import { SEARCH_KEYWORD_MAX_LENGTH } from "@tafsiri/domain";
import { useOpenAudio } from "#web/hooks/use-open-audio";
import { useAudioSearch, type AudioSearch, type AudioSearchResult } from "#web/features/search/hooks/use-audio-search";
import { isSearchShortcut, SEARCH_SHORTCUTS, shortcutHint } from "#web/features/search/lib/search-shortcut";
import { SearchIcon } from "./search-icon";
import { optionId, SearchResults } from "./search-results";
import "#web/features/search/search.css";

/** The live status line: 'Searching…', 'No results found' or the number of results. */
function SearchStatus({ search }: { search: AudioSearch }) {
  let text = null;
  if (search.state === "searching") {
    text = (
      <>
        <span className="spinner" aria-hidden="true" /> Searching…
      </>
    );
  } else if (search.state === "done") {
    const count = search.results.length;
    text = count === 0 ? "No results found" : `${count} ${count === 1 ? "result" : "results"}`;
  }
  return (
    <p role="status" className="search-status" data-state={search.state}>
      {text}
    </p>
  );
}

/**
 * The open search dialog's body: the keyword box (a combobox owning the results listbox), the
 * 'Search Results' heading with its status, and the results. ArrowDown / ArrowUp move through the
 * results (wrapping), Enter or a click opens the highlighted one through `onSelect`. Mounted only
 * while the dialog is open, so each opening starts blank.
 */
function SearchPanel({ onSelect }: { onSelect(result: AudioSearchResult): void }) {
  const [keyword, setKeyword] = useState("");
  const search = useAudioSearch(keyword);
  // The highlight belongs to the results of one keyword; new results start with none.
  const [active, setActive] = useState({ term: "", index: -1 });
  const { results } = search;
  const activeIndex = active.term === search.term && active.index < results.length ? active.index : -1;
  const inputId = useId();
  const listId = useId();
  const headingId = useId();
  const activeResult = activeIndex >= 0 ? results[activeIndex] : undefined;
  const activeId = activeResult ? optionId(listId, activeResult) : undefined;

  useEffect(() => {
    if (activeId) document.getElementById(activeId)?.scrollIntoView({ block: "nearest" });
  }, [activeId]);

  const highlight = (index: number) => setActive({ term: search.term, index });

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const count = results.length;
    if (event.key === "ArrowDown" && count > 0) {
      event.preventDefault();
      highlight(activeIndex + 1 >= count ? 0 : activeIndex + 1);
    } else if (event.key === "ArrowUp" && count > 0) {
      event.preventDefault();
      highlight(activeIndex <= 0 ? count - 1 : activeIndex - 1);
    } else if (event.key === "Enter" && activeResult) {
      event.preventDefault();
      onSelect(activeResult);
    }
  };

  return (
    <>
      <Dialog.Title asChild>
        <label htmlFor={inputId} className="search-label">
          Search audios
        </label>
      </Dialog.Title>
      <div className="search-box">
        <SearchIcon />
        <input
          id={inputId}
          type="text"
          role="combobox"
          className="search-input"
          placeholder="Type part of a file name…"
          autoComplete="off"
          spellCheck={false}
          maxLength={SEARCH_KEYWORD_MAX_LENGTH}
          aria-autocomplete="list"
          aria-expanded={results.length > 0}
          aria-controls={listId}
          aria-activedescendant={activeId}
          value={keyword}
          onChange={(event) => setKeyword(event.target.value)}
          onKeyDown={onKeyDown}
        />
      </div>
      <div className="search-results-header">
        <h2 id={headingId} className="search-results-title">
          Search Results
        </h2>
        <SearchStatus search={search} />
      </div>
      {search.state === "idle" && <p className="search-hint">Results appear as you type.</p>}
      <SearchResults
        id={listId}
        labelledBy={headingId}
        results={results}
        activeIndex={activeIndex}
        stale={search.state === "searching"}
        onHighlight={highlight}
        onSelect={onSelect}
      />
      <Dialog.Description className="search-keys">
        <span>
          <kbd>↑</kbd> <kbd>↓</kbd> to choose,
        </span>{" "}
        <span>
          <kbd>Enter</kbd> to open,
        </span>{" "}
        <span>
          <kbd>Esc</kbd> to close
        </span>
      </Dialog.Description>
    </>
  );
}

/**
 * The header's search (SPEC §2.3, §5): a 'Search' button (also Ctrl+K / ⌘K, or '/' outside text
 * fields) opening a dialog that finds audios by any part of their file name, case-insensitively
 * (Staff: only audios assigned to them). Choosing a result makes it the current audio, records an
 * Admin's opening and goes to /audiomanagement/audiocontrol (useOpenAudio). Escape or a click
 * outside closes the dialog; focus then returns to the button.
 */
export function SearchDialog() {
  const [open, setOpen] = useState(false);
  const openAudio = useOpenAudio();

  useEffect(() => {
    const onKey = (event: globalThis.KeyboardEvent) => {
      if (!isSearchShortcut(event)) return;
      event.preventDefault();
      setOpen(true);
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);

  const select = (result: AudioSearchResult) => {
    setOpen(false);
    openAudio(result.id);
  };

  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Trigger asChild>
        <button type="button" className="search-trigger" aria-keyshortcuts={SEARCH_SHORTCUTS}>
          <SearchIcon />
          {/* The button's name; on small screens only the icon shows, the text stays for screen readers. */}
          <span className="search-trigger-text">Search</span>
          <kbd className="search-trigger-kbd" aria-hidden="true">
            {shortcutHint()}
          </kbd>
        </button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog-content search-dialog">
          <SearchPanel onSelect={select} />
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

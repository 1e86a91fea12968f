import type { AudioSearchResult } from "#web/features/search/hooks/use-audio-search";

/** The id of the option showing `result` in the list `listId` (for aria-activedescendant). */
export function optionId(listId: string, result: AudioSearchResult): string {
  return `${listId}-option-${result.id}`;
}

/**
 * The results of the header search (SPEC §2.3) as a listbox owned by the search box (combobox
 * pattern: focus stays in the box, `activeIndex` is the highlighted option). Each option shows the
 * filename, the assignee and the category as text; a click (or Enter in the box) calls `onSelect`.
 * Hidden while there is no result, so the box's aria-controls always points at it.
 */
export function SearchResults({
  id,
  labelledBy,
  results,
  activeIndex,
  stale,
  onHighlight,
  onSelect,
}: {
  id: string;
  labelledBy: string;
  results: readonly AudioSearchResult[];
  activeIndex: number;
  /** True while a newer keyword is being searched: the list is dimmed. */
  stale: boolean;
  onHighlight(index: number): void;
  onSelect(result: AudioSearchResult): void;
}) {
  return (
    <ul
      id={id}
      role="listbox"
      aria-labelledby={labelledBy}
      className="search-results"
      data-stale={stale || undefined}
      hidden={results.length === 0}
    >
      {results.map((result, index) => (
        <li
          key={result.id}
          id={optionId(id, result)}
          role="option"
          aria-selected={index === activeIndex}
          className="search-option"
          // Keep the focus in the search box: the option is chosen on click.
          onMouseDown={(event) => event.preventDefault()}
          onMouseMove={() => index !== activeIndex && onHighlight(index)}
          onClick={() => onSelect(result)}
        >
          <span className="search-option-text">
            <span className="search-option-name">{result.filename}</span>
            <span className="search-option-meta">
              {result.task?.assignedTo ? `Assigned to ${result.task.assignedTo.username}` : "Not assigned"}
            </span>
          </span>
          <span className={`category-chip category-${result.category.toLowerCase()}`}>{result.category}</span>
        </li>
      ))}
    </ul>
  );
}

/** SPEC §9: the page-number strip shows up to 100 numbers. */
const DEFAULT_MAX_NUMBERS = 100;

export interface PaginationProps {
  /** The current page, starting at 1. */
  page: number;
  /** The number of pages (SPEC §3 Pagination: totalPages). */
  totalPages: number;
  onPageChange: (page: number) => void;
  /** How many page numbers to show at most, centred on the current page. */
  maxNumbers?: number;
  /** Accessible name of the navigation landmark. */
  label?: string;
}

/** The page numbers to show: a window of at most `max` numbers around `page`. */
export function pageWindow(page: number, totalPages: number, max = DEFAULT_MAX_NUMBERS): number[] {
  const count = Math.min(totalPages, max);
  const start = Math.max(1, Math.min(page - Math.floor(count / 2), totalPages - count + 1));
  return Array.from({ length: count }, (_, i) => start + i);
}

/**
 * Numbered pagination with Previous and Next (SPEC §2.7, §2.8, §2.9). Renders nothing when
 * there is at most one page. The current page's button carries aria-current="page".
 */
export function Pagination({
  page,
  totalPages,
  onPageChange,
  maxNumbers = DEFAULT_MAX_NUMBERS,
  label = "Pagination",
}: PaginationProps) {
  if (totalPages <= 1) return null;
  return (
    <nav className="pagination" aria-label={label}>
      <button type="button" className="btn btn-sm" disabled={page <= 1} onClick={() => onPageChange(page - 1)}>
        Previous
      </button>
      <ul className="pagination-numbers">
        {pageWindow(page, totalPages, maxNumbers).map((n) => (
          <li key={n}>
            <button
              type="button"
              className={`btn btn-sm${n === page ? " btn-primary" : ""}`}
              aria-current={n === page ? "page" : undefined}
              onClick={() => onPageChange(n)}
            >
              {n}
            </button>
          </li>
        ))}
      </ul>
      <button type="button" className="btn btn-sm" disabled={page >= totalPages} onClick={() => onPageChange(page + 1)}>
        Next
      </button>
    </nav>
  );
}

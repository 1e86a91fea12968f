import type { RefObject } from "react";
import { formatDuration } from "@tafsiri/ui/duration";
import type { ReviewItem } from "#web/features/reviews/hooks/use-review-queue";
import { keysOf } from "#web/features/reviews/lib/review-shortcuts";

/**
 * The item's heading (its filename, focused after a move), 'Staff: amina · Category: Dementia ·
 * 3:05' under it, and the queue's Previous / '3 of 41' / Next with their keys (decision 025).
 */
export function ReviewItemHeader({
  item,
  headingRef,
  position,
  total,
  moving,
  onMove,
}: {
  item: ReviewItem;
  headingRef: RefObject<HTMLHeadingElement | null>;
  /** The item's place in the queue, or null once it left the filter (reviewed). */
  position: number | null;
  total: number;
  moving: boolean;
  onMove: (to: "next" | "previous") => void;
}) {
  return (
    <div className="page-header review-header">
      <div>
        <h1 id="review-item-heading" ref={headingRef} tabIndex={-1} className="page-title review-item-title">
          {item.filename}
        </h1>
        <p className="muted review-item-facts">
          Staff: {item.staff?.username ?? "Unknown User"} · Category: {item.category}
          {item.durationSeconds !== null ? ` · ${formatDuration(item.durationSeconds)}` : ""}
        </p>
      </div>
      <nav className="row review-nav" aria-label="Review queue">
        <button
          type="button"
          className="btn"
          aria-keyshortcuts={keysOf("previous")}
          disabled={moving}
          onClick={() => onMove("previous")}
        >
          Previous <kbd>{keysOf("previous")}</kbd>
        </button>
        <span className="review-position" data-testid="review-position">
          {position !== null ? `${position} of ${total}` : `Reviewed · ${total} in this filter`}
        </span>
        <button
          type="button"
          className="btn btn-primary"
          aria-keyshortcuts={keysOf("next")}
          disabled={moving}
          onClick={() => onMove("next")}
        >
          Next <kbd>{keysOf("next")}</kbd>
        </button>
      </nav>
    </div>
  );
}

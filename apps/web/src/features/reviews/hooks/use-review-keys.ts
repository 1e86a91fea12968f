import { useEffect, useEffectEvent } from "react";
import { reviewCommandOf, type ReviewCommand } from "#web/features/reviews/lib/review-shortcuts";

/**
 * Review mode's keys (decision 025, REVIEW_KEYS) anywhere on the page: each press of one is
 * kept from the browser and handed to `onCommand`.
 */
export function useReviewKeys(onCommand: (command: ReviewCommand) => void): void {
  const run = useEffectEvent(onCommand);
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      const command = reviewCommandOf(event);
      if (!command) return;
      event.preventDefault();
      run(command);
    };
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, []);
}

import type { Database } from "@tafsiri/db";
import { rebuildAllPageAnchors, type AnchorRebuild } from "@tafsiri/db/repositories/page-anchors";

/**
 * Decision 030: rebuilds the page anchors of every list that changed since the last rebuild (one
 * transaction per list) and answers what each rebuild did; an empty list when nothing changed.
 */
export async function rebuildChangedPageAnchors(db: Database): Promise<AnchorRebuild[]> {
  return rebuildAllPageAnchors(db);
}

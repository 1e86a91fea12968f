import { adminProcedure, router } from "../trpc";
import { ZExportChoice, ZExportItem, ZExportList, ZExportListInput } from "../schemas/exports";
import { listExports, startExport } from "../services/exports";

/** Dataset exports (issue 12 Build 1, Management → Export); Admin only (FORBIDDEN otherwise). */
export const exportsRouter = router({
  /**
   * `{ page = 1, limit = 10 }` → `{ items, totalPages }`: every export, newest first, with its
   * state, progress and, while ready, a download link valid until 24 hours after it finished.
   */
  list: adminProcedure
    .input(ZExportListInput)
    .output(ZExportList)
    .query(({ ctx, input }) => listExports(ctx, ctx.user, input)),
  /**
   * `{ category, status, approvedFrom?, approvedTo?, chat }` (ZExportChoice) → the export, running:
   * its job writes the zip in the background and 'export.changed' events tell its progress.
   * BAD_REQUEST for a bad choice, TOO_MANY_REQUESTS when three are running.
   */
  create: adminProcedure
    .input(ZExportChoice)
    .output(ZExportItem)
    .mutation(({ ctx, input }) => startExport(ctx, ctx.user, input)),
});

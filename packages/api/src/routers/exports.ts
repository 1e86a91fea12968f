import { adminProcedure, router, sensitiveAdminProcedure } from "../trpc";
import { REAUTH_STATUS } from "../services/identity-checks";
import {
  ZExportChoice,
  ZExportDownload,
  ZExportIdInput,
  ZExportItem,
  ZExportList,
  ZExportListInput,
} from "../schemas/exports";
import { exportDownloadLink, listExports, startExport } from "../services/exports";

/** Dataset exports (decision 019, Management → Export); Admin only (FORBIDDEN otherwise). */
export const exportsRouter = router({
  /**
   * `{ page = 1, limit = 10 }` → `{ items, totalPages }`: every export, newest first, with its
   * state (running, ready, failed, expired, superseded), progress and, while ready, a download
   * link valid until 24 hours after it finished.
   */
  list: adminProcedure
    .input(ZExportListInput)
    .output(ZExportList)
    .query(({ ctx, input }) => listExports(ctx, ctx.user, input)),
  /**
   * `{ category, status, approvedFrom?, approvedTo?, chat, includeRestricted = false }`
   * (ZExportChoice) → the export, running: its job writes the zip in the background and
   * 'export.changed' events tell its progress. Only recordings of participants whose consent is
   * given (and restricted, with includeRestricted) are exported (decision 024). BAD_REQUEST for a
   * bad choice, TOO_MANY_REQUESTS when three are running.
   */
  create: sensitiveAdminProcedure
    .input(ZExportChoice)
    .output(ZExportItem)
    .mutation(({ ctx, input }) => startExport(ctx, ctx.user, input)),
  /**
   * `{ exportId }` → `{ url }`: a signed link to a ready export's zip (decision 024). NOT_FOUND
   * for an unknown export, GONE (410) when it was superseded (a participant in it withdrew consent)
   * or expired, CONFLICT while it runs or when it failed.
   */
  download: sensitiveAdminProcedure
    .meta({
      rest: {
        method: "GET",
        path: "/api/exports/:id/download",
        params: { id: "exportId" },
        summary: "Get a dataset export's download link",
        description:
          "SPEC §6 (Admin only); decisions 019 and 024. A signed link to a ready export's zip (no Authorization " +
          "header needed), valid until 24 hours after it finished. 400 'Unknown id.', 404 'Export not found.', 409 " +
          "'This export is not ready to download.' while it runs or when it failed, 410 'This export was superseded: " +
          "a participant in it withdrew consent. Start a new export.' or \"This export's link has expired. Start a " +
          'new export.", 401 without a session, 403 for staff. ' +
          REAUTH_STATUS,
        tags: ["Exports"],
        done: true,
      },
    })
    .input(ZExportIdInput)
    .output(
      ZExportDownload.meta({
        examples: [
          { url: "/files/exports/3c1d7e9a-2b4f-4a6c-8e0d-9f1a2b3c4d5e.zip?expires=1795685472&signature=Jx0…" },
        ],
      }),
    )
    .query(({ ctx, input }) => exportDownloadLink(ctx, ctx.user, input.exportId)),
});

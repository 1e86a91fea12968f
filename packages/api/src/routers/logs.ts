import { adminProcedure, router } from "../trpc";
import { ZLogFilterChoices, ZLogList, ZLogListInput } from "../schemas/logs";
import { listLogs, logFilterChoices } from "../services/logs";

/** The audit log, readable (Logs page); Admin only (FORBIDDEN otherwise). */
export const logsRouter = router({
  /**
   * `{ page, limit = 50, actorId?, action?, from?, to? }` → `{ items, totalPages }`: one page of
   * audit entries newest first, each `{ id, createdAt, actor, action, entity, sentence, audio,
   * user }` (see listLogs). BAD_REQUEST for a malformed date or 'from must be before to.'.
   */
  list: adminProcedure
    .input(ZLogListInput)
    .output(ZLogList)
    .query(({ ctx, input }) => listLogs(ctx, ctx.user, input)),
  /** The filters' choices → `{ actions: [{ value, label }], actors: [{ id, username }] }` (see logFilterChoices). */
  filters: adminProcedure.output(ZLogFilterChoices).query(({ ctx }) => logFilterChoices(ctx, ctx.user)),
});

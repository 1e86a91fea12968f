import { authedProcedure, router } from "../trpc";
import { ZOnEventInput } from "../schemas/events";
import { streamLiveEvents } from "../live/stream";

export const eventsRouter = router({
  /**
   * The caller's live events (ZLiveEvent, decision 004) over WebSocket, as tracked events; resumable
   * with `lastEventId` (wsLink sends the last tracking id on reconnect). Ends with UNAUTHORIZED
   * when the caller is deactivated.
   */
  onEvent: authedProcedure
    .input(ZOnEventInput)
    .subscription(({ ctx, input, signal }) => streamLiveEvents(ctx, ctx.user, input.lastEventId, signal)),
});

import { router } from "./trpc";
import { accountsRouter } from "./routers/accounts";
import { audiosRouter } from "./routers/audios";
import { tasksRouter } from "./routers/tasks";
import { transcriptsRouter } from "./routers/transcripts";
import { recordingsRouter } from "./routers/recordings";

export const appRouter = router({
  accounts: accountsRouter,
  audios: audiosRouter,
  tasks: tasksRouter,
  transcripts: transcriptsRouter,
  recordings: recordingsRouter,
});

export type AppRouter = typeof appRouter;

import { router } from "./trpc";
import { accountsRouter } from "./routers/accounts";
import { audiosRouter } from "./routers/audios";
import { tasksRouter } from "./routers/tasks";
import { transcriptsRouter } from "./routers/transcripts";
import { recordingsRouter } from "./routers/recordings";
import { notificationsRouter } from "./routers/notifications";
import { recommendationsRouter } from "./routers/recommendations";
import { eventsRouter } from "./routers/events";
import { commentsRouter } from "./routers/comments";
import { submissionsRouter } from "./routers/submissions";
import { searchRouter } from "./routers/search";
import { statisticsRouter } from "./routers/statistics";
import { logsRouter } from "./routers/logs";
import { exportsRouter } from "./routers/exports";
import { participantsRouter } from "./routers/participants";
import { reviewsRouter } from "./routers/reviews";
import { translationRouter } from "./routers/translation";
import { apiTokensRouter } from "./routers/api-tokens";
import { webhooksRouter } from "./routers/webhooks";
import { backupsRouter } from "./routers/backups";
import { passkeysRouter } from "./routers/passkeys";
import { totpRouter } from "./routers/totp";
import { sessionsRouter } from "./routers/sessions";

export const appRouter = router({
  accounts: accountsRouter,
  audios: audiosRouter,
  tasks: tasksRouter,
  transcripts: transcriptsRouter,
  recordings: recordingsRouter,
  notifications: notificationsRouter,
  recommendations: recommendationsRouter,
  events: eventsRouter,
  comments: commentsRouter,
  submissions: submissionsRouter,
  search: searchRouter,
  statistics: statisticsRouter,
  logs: logsRouter,
  exports: exportsRouter,
  participants: participantsRouter,
  reviews: reviewsRouter,
  translation: translationRouter,
  apiTokens: apiTokensRouter,
  webhooks: webhooksRouter,
  backups: backupsRouter,
  passkeys: passkeysRouter,
  totp: totpRouter,
  sessions: sessionsRouter,
});

export type AppRouter = typeof appRouter;

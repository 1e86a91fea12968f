/**
 * The public surface of @tafsiri/api (with `@tafsiri/api/testing/*` for tests). The web app
 * imports types only (AppRouter, RouterInputs, RouterOutputs, LiveEvent); the server imports
 * what its transports need: the router and context, authentication, errors, uploads, files
 * and live events.
 */

// tRPC: router, context, types.
export { appRouter, type AppRouter } from "./root";
export { createCallerFactory } from "./trpc";
export { createContextInner, type AppDeps, type SessionUser } from "./context";
export type { RouterInputs, RouterOutputs } from "./router-types";
export type { RestMeta } from "./rest-meta";

// One error model for both APIs.
export { requireAdmin } from "./services/access";
export { ADMINS_ONLY, AppError, APP_ERROR_CODES, SIGN_IN_REQUIRED, type AppErrorCode } from "./errors/app-error";
export { describeError } from "./errors/describe-error";
export { NUL_IN_TEXT, refuseNulText } from "./errors/nul-text";

// Input schemas the REST layer reuses field by field, so both APIs validate with the same rules and messages.
export { USER_ID_REQUIRED, ZLoginInput, ZPasswordResetAnswer, ZRegisterInput } from "./schemas/accounts";
export { createMailer } from "./mail/mailer";
export { RESET_REQUESTED } from "./services/password-reset";
export { ZAssignTaskInput, ZReassignInput, ZSetTaskStatusInput } from "./schemas/tasks";
export { ZCreateNotificationInput } from "./schemas/notifications";
export { ZCreateRecommendationInput } from "./schemas/recommendations";
export { ZCommentText } from "./schemas/comments";
export { ZEnsureSubmissionInput } from "./schemas/submissions";
export { ZId } from "./schemas/common";
export { ZReassignTo, ZReviewReason } from "./schemas/transcripts";

// Accounts and sessions.
export {
  authenticateSession,
  bearerToken,
  DEFAULT_SESSION_IDLE_DAYS,
  verifySessionToken,
  type AuthenticatedSession,
} from "./services/auth";
export { endsSession } from "./live/session-events";
export { REAUTH_STATUS, refuseBeforeEnrolment, requireRecentIdentityCheck } from "./services/identity-checks";
export { knownTokenId } from "./services/api-tokens";
export { ensureFirstAdmin } from "./services/accounts";

// Services the REST layer calls where no procedure fits (uploads, file links, the translation lookup).
export { findTranslationFor } from "./services/recommendations";
export { REASSIGN_ONLY_ON_REJECT, reviewSubmission, type ReviewAction, type ReviewedKind } from "./services/reviews";
export { fileDownload, fileLinkFor } from "./services/file-links";
export { signFileUrl, verifyFileUrl } from "./services/file-urls";
export {
  createLocalStorage,
  isStorageKey,
  StoredFileMissingError,
  type FileStorage,
  type StorageBackend,
} from "./storage/file-storage";
export { openStorage, type StorageConfig } from "./storage/open-storage";
export { storedContentType } from "./storage/stored-content-type";
export { takeFinishedUpload } from "./storage/upload-store";
export { sweepFiles, sweepStoredFiles, sweepTempFiles, sweepResumableUploads } from "./storage/sweep";
export {
  receiveTake,
  receiveUpload,
  requireUploader,
  tooLargeMessage,
  uploadKind,
  uploadLimit,
  UPLOAD_KINDS,
  type ReceivedFile,
  type UploadForm,
  type UploadKind,
  type UploadResult,
} from "./uploads/receive-upload";
export {
  cancelResumableUpload,
  finishResumableUpload,
  openResumableUpload,
  ownResumableUpload,
  recordResumableUpload,
  startResumableUpload,
} from "./uploads/resumable-upload";

// Waveforms of long recordings (ARCHITECTURE "Long recordings and the corpus"): the decoder and the job.
export { computeWaveform } from "./waveforms/compute-waveform";
export {
  processPendingWaveforms,
  startWaveformJob,
  type WaveformJob,
  type WaveformRoundReport,
} from "./waveforms/waveform-job";

// Speech measures of the original audio (decision 035): the job measuring approved transcripts' recordings.
export { measurePendingAudios } from "./measures/measures-job";

// Live events.
export { createEventBus, type EventSubscriber } from "./live/bus";
export { serializedJson } from "./live/serialize-once";
export { pruneEvents, pruneWebhookEvents } from "./live/retention";
export type { LiveEvent } from "./schemas/events";

// Dataset exports (decision 019): the REST layer's choice fields, shutdown and start-up.
export { ZChatSettings, ZExportChoice, EXPORT_STATES_SHOWN } from "./schemas/exports";
export {
  abandonExportJobs,
  exportJobsIdle,
  failAbandonedExportsAtStart,
  refuseSupersededExportFile,
} from "./services/exports";

// Research participants (decision 024): what the REST layer calls where no procedure fits (the consent document's file).
export { attachConsentDocument, consentDocument, removeConsentDocument } from "./services/consent-documents";

// Metrics (decision 028): the process's registry and the job counters services and timers count into.
export { collectProcessMetrics } from "./metrics/registry";
export { timeJob } from "./metrics/jobs";
export { liveSubscriptions, webSocketConnections } from "./metrics/live";
export { httpRequestDuration, uploadBytes } from "./metrics/http";
export { METRICS_CONTENT_TYPE, scrapeMetrics } from "./metrics/scrape";
export { writeBackup, type BackupSummary } from "./backup/write-backup";
export { auditBackup, auditBackupFailure } from "./backup/backup-audit";
export { backupFileName, listBackupArchives } from "./backup/backup-folder";
export { openBackupDesk } from "./backup/backup-desk";
export { openBackupDownload } from "./services/backups";
export { restoreBackup, RestoreRefusedError, type RestoreTarget } from "./backup/restore-backup";

// The server's scheduled jobs (decision 015, decision 030) and its health check: the job locks that elect one
// process per job, the page anchors' rebuild, the database's readiness for /healthz.
export { openJobLocks, type JobLocks, type JobRound } from "@tafsiri/db/repositories/job-locks";
export { rebuildChangedPageAnchors } from "./services/page-anchors";
export { checkDatabaseReady } from "./services/health";

// Webhooks (decision 037): the delivery job and its defaults.
export { startWebhookJob, type WebhookJob } from "./webhooks/webhook-job";
export { DEFAULT_WEBHOOK_DELIVERY } from "./webhooks/deliver";

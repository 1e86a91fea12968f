/**
 * The public surface of @tafsiri/api (with `@tafsiri/api/testing/*` for tests). The web app
 * imports types only (AppRouter, RouterInputs, RouterOutputs, LiveEvent); the server imports
 * what its transports need: the router and context, authentication, errors, uploads, files
 * and live events.
 */

// tRPC: router, context, types.
export { appRouter, type AppRouter } from "./root";
export { ADMINS_ONLY, SIGN_IN_REQUIRED, createCallerFactory } from "./trpc";
export { createContextInner, type AppDeps, type CallSession, type Context, type SessionUser } from "./context";
export type { RouterInputs, RouterOutputs } from "./router-types";

// One error model for both APIs.
export { AppError, APP_ERROR_CODES, UNEXPECTED_ERROR, type AppErrorCode } from "./errors/app-error";
export { describeError, firstIssueMessage, type ErrorAnswer } from "./errors/describe-error";
export { holdsNul, NUL_IN_TEXT, refuseNulText } from "./errors/nul-text";

// Input schemas the REST layer reuses field by field, so both APIs validate with the same rules and messages.
export {
  ZLoginInput,
  ZPasswordResetAnswer,
  ZRegisterInput,
  ZRequestPasswordResetInput,
  ZResetPasswordInput,
} from "./schemas/accounts";
export { createMailer, MAIL_FROM, type Mailer, type MailMessage } from "./mail/mailer";
export { requestPasswordReset, resetPassword, RESET_REQUESTED, TOO_MANY_RESETS } from "./services/password-reset";
export { ZAssignTaskInput, ZReassignInput, ZSetTaskStatusInput } from "./schemas/tasks";
export { ZCreateNotificationInput } from "./schemas/notifications";
export { ZCreateRecommendationInput } from "./schemas/recommendations";
export { ZCommentText } from "./schemas/comments";
export { ZEnsureSubmissionInput, ZListSubmissionsInput } from "./schemas/submissions";
export { ZCategory, ZId } from "./schemas/common";
export { MAX_BULK_SUBMISSIONS, ZBulkReviewInput } from "./schemas/reviews";
export { MAX_TRANSCRIPT_CHARS, TRANSCRIPT_TOO_LONG, ZReassignTo, ZReviewReason } from "./schemas/transcripts";

// Accounts and sessions.
export {
  authenticate,
  authenticateSession,
  bearerToken,
  DEFAULT_SESSION_IDLE_DAYS,
  verifySessionToken,
  type AuthenticatedSession,
  type VerifiedToken,
} from "./services/auth";
export { endsSession, SESSION_ENDED } from "./live/session-events";
export { ensureFirstAdmin } from "./services/accounts";

// Services the REST layer calls where no procedure fits (uploads, file links, the translation lookup).
export { findTranslationFor } from "./services/recommendations";
export { reviewSubmission, type ReviewAction, type ReviewedKind } from "./services/reviews";
export { fileDownload, fileLinkFor, type FileDownload } from "./services/file-links";
export { signFileUrl, verifyFileUrl } from "./services/file-urls";
export {
  createLocalStorage,
  isStorageKey,
  StoredFileMissingError,
  type ByteRange,
  type FileStorage,
  type StorageBackend,
  type StoredFileStat,
  type StoredObject,
} from "./storage/file-storage";
export { openStorage, type StorageConfig } from "./storage/open-storage";
export type { S3StorageConfig } from "./storage/s3-storage";
export { isUploadId, takeFinishedUpload, RESUMABLE_UPLOAD_TTL_MS, type UploadStore } from "./storage/upload-store";
export {
  sweepFiles,
  sweepStoredFiles,
  sweepTempFiles,
  sweepResumableUploads,
  FILE_SWEEP_MIN_AGE_MS,
  type FileSweepOptions,
  type FileSweepReport,
  type StoredFileSweepReport,
} from "./storage/sweep";
export {
  receiveUpload,
  requireUploader,
  uploadKind,
  uploadLimit,
  UPLOAD_KINDS,
  type ReceivedFile,
  type UploadForm,
  type UploadKind,
  type UploadResult,
} from "./uploads/receive-upload";
export { storedContentType } from "./uploads/file-rules";
export {
  checkResumableUpload,
  finishResumableUpload,
  resumableUploadForm,
  UPLOAD_NOT_FOUND,
  type ResumableUploadForm,
  type TakenFile,
} from "./uploads/resumable-upload";

// Waveforms of long recordings (ARCHITECTURE "Long recordings and the corpus"): the decoder, the job, the peaks format.
export {
  computeWaveform,
  decoderFormatFor,
  DECODER_ERRORS_ALLOWED,
  WAVEFORM_TIMEOUT_MS,
  WaveformDecodeError,
  type ComputedWaveform,
  type DecoderFormat,
} from "./waveforms/compute-waveform";
export {
  processPendingWaveforms,
  startWaveformJob,
  WAVEFORM_POLL_MS,
  type WaveformJob,
  type WaveformJobLog,
  type WaveformRoundReport,
} from "./waveforms/waveform-job";
export {
  encodePeaks,
  peaksKeyOf,
  peakValue,
  samplesPerPixelFor,
  PEAKS_FLAGS_8_BIT,
  PEAKS_HEADER_BYTES,
  PEAKS_PER_SECOND,
  PEAKS_VERSION,
} from "./waveforms/peaks-format";

// Live events.
export { createEventBus, type EventBus, type EventSubscriber } from "./live/bus";
export { serializedJson, shareSerialization } from "./live/serialize-once";
export { pruneEvents } from "./live/retention";
export type { LiveEvent } from "./schemas/events";

// Dataset exports (issue 12 Build 1): the REST layer's choice fields, shutdown and start-up.
export { ZChatSettings, ZExportChoice, EXPORT_STATES_SHOWN } from "./schemas/exports";
export {
  abandonExportJobs,
  exportJobsIdle,
  failAbandonedExportsAtStart,
  refuseSupersededExportFile,
} from "./services/exports";

// Research participants (decision 024): what the REST layer calls where no procedure fits (the consent document's file).
export {
  attachConsentDocument,
  consentDocument,
  removeConsentDocument,
  CONSENT_DOCUMENT_MAX_BYTES,
} from "./services/participants";
export { ZParticipantFields, ZListParticipantsInput, ZDay } from "./schemas/participants";

// Metrics (decision 028): the process's registry and the job counters services and timers count into.
export { collectProcessMetrics, metricsRegistry } from "./metrics/registry";
export { jobRun, timeJob, type MetricsJob, type MetricsJobResult } from "./metrics/jobs";
export { liveSubscriptions, webSocketConnections } from "./metrics/live";
export { httpRequestDuration, uploadBytes } from "./metrics/http";
export { METRICS_CONTENT_TYPE, scrapeMetrics } from "./metrics/scrape";
export { writeBackup, type BackupSource, type BackupSummary } from "./backup/write-backup";
export { restoreBackup, RestoreRefusedError, type RestoreSummary, type RestoreTarget } from "./backup/restore-backup";
export { ZBackupManifest, type BackupManifest } from "./backup/manifest";

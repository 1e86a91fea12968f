export { appRouter, type AppRouter } from "./root";
export { createCallerFactory } from "./trpc";
export { createContextInner, type AppDeps, type Context, type SessionUser } from "./context";
export { authenticate, bearerToken } from "./services/auth";
export { createLocalStorage, type FileStorage } from "./storage/file-storage";
export { createEventBus, type EventBus, type EventSubscriber } from "./live/bus";
export type { LiveEvent } from "./schemas/events";
export { serializedJson, shareSerialization } from "./live/serialize-once";
export { AppError, APP_ERROR_CODES, UNEXPECTED_ERROR, type AppErrorCode } from "./errors/app-error";
export { describeError, firstIssueMessage, type ErrorAnswer } from "./errors/describe-error";
export type { RouterInputs, RouterOutputs } from "./router-types";
export { ADMINS_ONLY, SIGN_IN_REQUIRED } from "./trpc";
// Input schemas the REST layer reuses field by field, so both APIs validate with the same rules and messages.
export { ZLoginInput, ZRegisterInput } from "./schemas/accounts";
export { ZAssignTaskInput, ZReassignInput } from "./schemas/tasks";
export { ZCreateNotificationInput } from "./schemas/notifications";
export { ZCreateRecommendationInput } from "./schemas/recommendations";
export { ZCategory, ZId } from "./schemas/common";
export { findTranslationFor } from "./services/recommendations";
export { signFileUrl, verifyFileUrl } from "./services/file-urls";
export { ensureFirstAdmin } from "./services/accounts";
export { fileLinkFor } from "./services/file-links";
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

import type { ApiTokenScope, Category, CognitiveScore, ConsentStatus, ParticipantGroup, Sex } from "@tafsiri/domain";
import type { ColumnType, Generated, GeneratedAlways, Insertable, Selectable, Updateable } from "kysely";
import type {
  AssigneeWorkCountsTable,
  AssigneeReviewDaysTable,
  AssigneeWorkTasksTable,
  ListCountsTable,
  PageAnchorTable,
  PageAnchorChangeTable,
} from "./schema-counters";
import type {
  GlossaryTermTable,
  SegmentTakeTable,
  RecordingSpanTable,
  SourceSegmentTable,
  TranslationMemoryTable,
  TranslationMemoryShortSourceTable,
  TranslationMemoryWordTable,
  TranslationSegmentTable,
} from "./schema-translation";
import type { SpeechMeasureGroupTable, SpeechMeasureTable, SpeechStretchTable } from "./schema-measures";
import type { WebhookTables } from "./schema-webhooks";
import type { PasskeyTables } from "./schema-passkeys";
import type { SessionTables } from "./schema-sessions";
import type { SecondFactorTables } from "./schema-second-factor";
import type { ApprovalStatus, RecordingStatus, Role, StageStatus, TranscriptStatus, WaveformStatus } from "./statuses";

export * from "./statuses";

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
/** bigint columns come back as strings from pg; we convert at the repository edge. */
type BigIntColumn = ColumnType<string, number | bigint | string, number | bigint | string>;

interface UserTable {
  id: Generated<string>;
  username: string;
  email: string;
  passwordHash: string;
  role: Role;
  active: Generated<boolean>;
  image: string | null;
  passwordChangedAt: Timestamp;
  /** Carried in every session token; raising it ends every older session (decision 012). */
  sessionVersion: Generated<number>;
  createdAt: CreatedAt;
}

/** Decision 036: a person's API token, kept as its SHA-256 only. */
export interface ApiTokenTable {
  id: Generated<string>;
  userId: string;
  name: string;
  /** SHA-256 of the whole token, hex. */
  tokenHash: string;
  /** The token's first characters ('tfs_a1b2'), to tell tokens apart. */
  hint: string;
  scope: ApiTokenScope;
  /** The owner's session version when it was made: a newer one ends the token. */
  sessionVersion: number;
  expiresAt: Date | null;
  lastUsedAt: Date | null;
  lastUsedIp: string | null;
  revokedAt: Date | null;
  revokedBy: string | null;
  createdAt: CreatedAt;
}

interface AudioTable {
  id: Generated<string>;
  filename: string;
  category: Category;
  fileKey: string;
  mimeType: string;
  sizeBytes: BigIntColumn;
  transcriptKey: string | null;
  uploadedBy: string | null;
  lastOpenedBy: string | null;
  timeLastOpened: Date | null;
  createdAt: CreatedAt;
  /** Whether a task exists for the audio: kept by a trigger on tasks (never written by the app). */
  hasTask: Generated<boolean>;
  /** What decoding the file found (null until the waveform job has run, or when it failed). */
  durationSeconds: number | null;
  /** Hz, of the decoded file. */
  sampleRate: number | null;
  channelCount: number | null;
  /** Storage key of the file's peaks (audiowaveform .dat), beside the file; null until ready. */
  peaksKey: string | null;
  waveformStatus: Generated<WaveformStatus>;
  /** The participant the audio records (decision 024); null until linked. */
  participantId: string | null;
  /** The recording session's day, YYYY-MM-DD. */
  sessionDate: string | null;
  /** The audio's own source and target languages (ISO 639-3), null for the programme's (decision 035). */
  sourceLanguage: string | null;
  targetLanguage: string | null;
}

interface TaskTable {
  id: Generated<string>;
  audioId: string;
  assignedTo: string;
  translationStatus: ColumnType<StageStatus, StageStatus | undefined, StageStatus>;
  recordingStatus: ColumnType<StageStatus, StageStatus | undefined, StageStatus>;
  isComplete: Generated<boolean>;
  createdAt: CreatedAt;
  updatedAt: Timestamp;
}

interface SubmissionTable {
  id: Generated<string>;
  taskId: string;
  createdBy: string | null;
  submissionDate: Timestamp;
  translationScript: string | null;
  translationScriptApprovalStatus: ColumnType<TranscriptStatus, TranscriptStatus | undefined, TranscriptStatus>;
  recordedAudio: string | null;
  recordedAudioApprovalStatus: ColumnType<RecordingStatus, RecordingStatus | undefined, RecordingStatus>;
  approvalStatus: ColumnType<ApprovalStatus, ApprovalStatus | undefined, ApprovalStatus>;
  recordedBy: string | null;
  updatedAt: Timestamp;
  /** When the transcript became Approved or Rejected; null while Pending or absent (decision 011). */
  transcriptReviewedAt: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** When the recording became Approved or Rejected; null while Pending or absent (decision 011). */
  recordingReviewedAt: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** The task's assignee (tasks.assigned_to), kept by triggers: never written by the app. */
  assignedTo: Generated<string>;
}

interface TranscriptVersionTable {
  id: Generated<string>;
  submissionId: string;
  fileKey: string;
  fileName: string;
  text: string;
  createdBy: string | null;
  createdAt: CreatedAt;
}

/** One approval or rejection of a submission's transcript or recording (decision 025). */
interface ReviewTable {
  id: Generated<string>;
  submissionId: string;
  output: ReviewedOutputKind;
  action: ReviewDecision;
  reviewerId: string | null;
  reviewedAt: CreatedAt;
  /** When the reviewed version (transcript version or recording) was saved. */
  savedAt: Date;
  /** reviewed_at − saved_at in whole seconds (at least 0), computed by the database. */
  waitSeconds: GeneratedAlways<number>;
  transcriptVersionId: string | null;
  recordingId: string | null;
  reason: string | null;
}

export type ReviewedOutputKind = "transcript" | "recording";
export type ReviewDecision = "approve" | "reject";

interface TranslatedRecordingTable {
  id: Generated<string>;
  submissionId: string;
  fileKey: string;
  mimeType: string;
  sizeBytes: BigIntColumn;
  recordedBy: string | null;
  uploadedBy: string | null;
  createdAt: CreatedAt;
  /** What decoding the file found (null until the waveform job has run, or when it failed). */
  durationSeconds: number | null;
  /** Hz, of the decoded file. */
  sampleRate: number | null;
  channelCount: number | null;
  /** Storage key of the file's peaks (audiowaveform .dat), beside the file; null until ready. */
  peaksKey: string | null;
  waveformStatus: Generated<WaveformStatus>;
}

interface CommentTable {
  id: Generated<string>;
  submissionId: string;
  text: string;
  postedBy: string | null;
  postedAt: CreatedAt;
}

interface NotificationTable {
  id: Generated<string>;
  recipientId: string;
  senderId: string | null;
  message: string;
  link: string;
  audioId: string | null;
  isRead: Generated<boolean>;
  createdAt: CreatedAt;
}

interface RecommendationTable {
  id: Generated<string>;
  taskId: string;
  recommendedTo: string;
  recommendedBy: string | null;
  createdAt: CreatedAt;
}

interface SettingTable {
  key: string;
  value: unknown;
  updatedAt: Timestamp;
}

interface AuditLogTable {
  id: Generated<string>;
  actorId: string | null;
  action: string;
  entity: string;
  entityId: string | null;
  detail: ColumnType<unknown, string | undefined, string>;
  createdAt: CreatedAt;
}

/** Who an event reaches: every active admin, or one user (recipientId). */
export type EventAudience = "admins" | "user";

/** A live event (decision 004), recorded in the transaction of the change it reports. */
interface EventTable {
  /** bigserial: a string from pg, a number from PGlite; repositories convert to string. */
  id: Generated<string>;
  audience: EventAudience;
  recipientId: string | null;
  audioId: string | null;
  kind: string;
  payload: ColumnType<unknown, string | undefined, string>;
  createdAt: CreatedAt;
}

/** A password reset link (SPEC §2.5): only the sha256 of its token is kept. */
interface PasswordResetTable {
  id: Generated<string>;
  userId: string;
  tokenHash: string;
  expiresAt: Timestamp;
  usedAt: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  createdAt: CreatedAt;
}

/** What a dataset export takes (decision 019): completed tasks, or every approved transcript. */
export const EXPORT_STATUS_CHOICES = ["completed", "approved-transcript"] as const;
export type ExportStatusChoice = (typeof EXPORT_STATUS_CHOICES)[number];
/** Where an export's job is: running, done (the zip is stored), failed. */
export type ExportState = "running" | "done" | "failed";

/** A dataset export (decision 019, migration 20261204000000_exports). */
interface ExportTable {
  id: Generated<string>;
  createdBy: string | null;
  createdAt: CreatedAt;
  /** The running job's heartbeat: written with every progress step. */
  updatedAt: Timestamp;
  /** null: both categories. */
  category: Category | null;
  statusChoice: ExportStatusChoice;
  /** The approval period's first and last day (YYYY-MM-DD, in APP_TIMEZONE), both included. */
  approvedFrom: string | null;
  approvedTo: string | null;
  chatSettings: ColumnType<unknown, string, string>;
  /** The choice as one string: exports of the same choice share it. */
  choiceKey: string;
  /** What the zip holds as one hash (the files' sources and the CHAT settings); set when known. */
  contentKey: string | null;
  state: ColumnType<ExportState, ExportState | undefined, ExportState>;
  done: Generated<number>;
  total: Generated<number>;
  fileKey: string | null;
  sizeBytes: ColumnType<string | null, number | null | undefined, number | null>;
  reusedFiles: Generated<number>;
  reusedArchive: Generated<boolean>;
  error: string | null;
  finishedAt: Date | null;
  expiresAt: Date | null;
  /** Whether recordings of participants with 'restricted' consent were included (decision 024). */
  includeRestricted: Generated<boolean>;
  /** When a participant in it withdrew consent: its link then answers 410. */
  supersededAt: Date | null;
}

/** One file a finished export wrote (decision 019): reused by the next export of its choice. */
interface ExportFileTable {
  exportId: string;
  /** Its path in the zip. */
  path: string;
  /** Where its bytes came from: a storage key, or what a generated file was made of. */
  source: string;
  sizeBytes: BigIntColumn;
  sha256: string;
}

/** A resumable (tus) upload a user started (decision 020, migration 20261205000000_resumable_uploads). */
interface ResumableUploadTable {
  /** The tus upload id: 32 hex digits. */
  id: string;
  userId: string;
  /** The upload kind (AUDIO, INITIAL_TRANSCRIPT, AUDIOTRANSLATION, TRANSLATED_TRANSCRIPT). */
  kind: string;
  sizeBytes: BigIntColumn;
  createdAt: CreatedAt;
  /** Set by the one request that finishes the upload. */
  finishingAt: Date | null;
  /** That request's answer, kept for retries; null until it is known. */
  result: ColumnType<unknown, string | null | undefined, string | null>;
}

/**
 * A research participant (decision 024, migration 20261208000000_participants): pseudonymous code,
 * study group, sex, age, education, languages, cognitive scores, notes and consent. Days are
 * YYYY-MM-DD strings.
 */
interface ParticipantTable {
  id: Generated<string>;
  code: string;
  studyGroup: ParticipantGroup;
  sex: Sex | null;
  birthDate: string | null;
  /** Age in whole months on ageRecordedOn, when no birth date is known. */
  ageMonths: number | null;
  ageRecordedOn: string | null;
  educationYears: number | null;
  /** ISO 639-3 codes. */
  languages: ColumnType<string[], string | undefined, string>;
  scores: ColumnType<CognitiveScore[], string | undefined, string>;
  notes: Generated<string>;
  consentStatus: Generated<ConsentStatus>;
  consentDate: string | null;
  /** Storage key of the consent document (a PDF, admins only). */
  consentDocumentKey: string | null;
  consentDocumentName: string | null;
  createdAt: CreatedAt;
  updatedAt: Timestamp;
}

/** Which participants a finished export holds (decision 024): a withdrawal supersedes those exports. */
interface ExportParticipantTable {
  participantId: string;
  exportId: string;
}

export interface DB extends WebhookTables, SessionTables, SecondFactorTables, PasskeyTables {
  users: UserTable;
  audios: AudioTable;
  tasks: TaskTable;
  submissions: SubmissionTable;
  transcriptVersions: TranscriptVersionTable;
  reviews: ReviewTable;
  translatedRecordings: TranslatedRecordingTable;
  comments: CommentTable;
  notifications: NotificationTable;
  recommendations: RecommendationTable;
  settings: SettingTable;
  auditLog: AuditLogTable;
  events: EventTable;
  passwordResets: PasswordResetTable;
  assigneeWorkCounts: AssigneeWorkCountsTable;
  assigneeReviewDays: AssigneeReviewDaysTable;
  assigneeWorkTasks: AssigneeWorkTasksTable;
  listCounts: ListCountsTable;
  pageAnchors: PageAnchorTable;
  pageAnchorChanges: PageAnchorChangeTable;
  exports: ExportTable;
  exportFiles: ExportFileTable;
  resumableUploads: ResumableUploadTable;
  participants: ParticipantTable;
  exportParticipants: ExportParticipantTable;
  sourceSegments: SourceSegmentTable;
  translationSegments: TranslationSegmentTable;
  translationMemory: TranslationMemoryTable;
  translationMemoryWords: TranslationMemoryWordTable;
  translationMemoryShortSources: TranslationMemoryShortSourceTable;
  segmentTakes: SegmentTakeTable;
  recordingSpans: RecordingSpanTable;
  apiTokens: ApiTokenTable;
  glossaryTerms: GlossaryTermTable;
  speechStretches: SpeechStretchTable;
  speechMeasures: SpeechMeasureTable;
  speechMeasureGroups: SpeechMeasureGroupTable;
}

export type User = Selectable<UserTable>;
export type NewUser = Insertable<UserTable>;
export type Audio = Selectable<AudioTable>;
export type NewAudio = Insertable<AudioTable>;
export type Task = Selectable<TaskTable>;
export type NewTask = Insertable<TaskTable>;
export type TaskUpdate = Updateable<TaskTable>;
export type Submission = Selectable<SubmissionTable>;
export type SubmissionUpdate = Updateable<SubmissionTable>;
export type Comment = Selectable<CommentTable>;
export type Participant = Selectable<ParticipantTable>;
export type NewParticipant = Insertable<ParticipantTable>;
export type ParticipantUpdate = Updateable<ParticipantTable>;

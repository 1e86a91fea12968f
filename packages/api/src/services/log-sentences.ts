/**
 * The audit log in words (the Logs page): pure functions, no database. The web app shows
 * these strings; it never imports this file.
 */

/** What describeAuditEntry needs of an entry: as written by insertAuditEntry, plus the names it concerns. */
export interface DescribedEntry {
  action: string;
  entity: string;
  entityId: string | null;
  detail: Record<string, unknown>;
  /** The concerned audio's filename now; null when it is gone or the entry concerns none. */
  audioName: string | null;
  /** The concerned user's username now; null when the account is gone or the entry concerns none. */
  userName: string | null;
}

const RATE_NAMES: Record<string, string> = {
  transcript_rate_ugx: "transcript",
  recording_rate_ugx: "recording",
};

function text(value: unknown): string | null {
  return typeof value === "string" && value.trim() !== "" ? value : null;
}

/**
 * An audit entry in words, without the actor (who has their own column), e.g. 'approved the
 * transcript of acc-101-0', 'assigned interview-07 to amina', 'created the account of baraka'.
 * Every action written by packages/api (grep insertAuditEntry) has its sentence; an unknown one
 * reads '<action> <entity>'. A deleted audio reads as its filename when the entry kept it
 * ('delete'), else 'a deleted audio'; a gone account as 'a deleted user'.
 */
export function describeAuditEntry(e: DescribedEntry): string {
  const audio = e.audioName ?? text(e.detail.filename) ?? "a deleted audio";
  const user = e.userName ?? "a deleted user";
  const reason = text(e.detail.reason);
  const corpus = describeCorpusEntry(e, audio);
  if (corpus) return corpus;
  switch (e.entity) {
    case "transcript":
    case "recording":
      switch (e.action) {
        case "approve":
          return `approved the ${e.entity} of ${audio}`;
        case "reject":
          return `rejected the ${e.entity} of ${audio}${reason ? `: ${reason}` : ""}`;
        case "remove":
          return `deleted the ${e.entity} of ${audio}`;
        case "save":
          return `saved the ${e.entity} of ${audio}`;
        case "upload":
          return `uploaded the ${e.entity} of ${audio}`;
      }
      break;
    case "task":
      switch (e.action) {
        case "assign":
          return `assigned ${audio} to ${user}`;
        case "reassign":
          return `reassigned ${audio} to ${user}`;
        case "recommend":
          return `recommended ${audio} to ${user}`;
        case "set-status":
          return `changed the task status of ${audio}`;
      }
      break;
    case "audio":
      switch (e.action) {
        case "create":
          return `uploaded ${audio}`;
        case "open":
          return `opened ${audio}`;
        case "delete":
          return `deleted ${audio}`;
      }
      break;
    case "initial-transcript":
      if (e.action === "attach")
        return `${e.detail.replaced === true ? "replaced" : "attached"} the initial transcript of ${audio}`;
      break;
    case "submission":
      switch (e.action) {
        case "create":
          return `started the submission of ${audio}`;
        case "comment":
          return `commented on ${audio}`;
      }
      break;
    case "user":
      switch (e.action) {
        case "create":
          return `created the account of ${user}`;
        case "activate":
          return `activated the account of ${user}`;
        case "deactivate":
          return `deactivated the account of ${user}`;
        case "edit":
        case "update":
          return `edited the account of ${user}`;
        case "reset-password":
          return "reset their password with an e-mailed link";
        case "sign-out-everywhere":
          return `signed out every session of ${user}`;
      }
      return describeSecondFactorEntry(e, user) ?? `${e.action} ${e.entity}`;
    case "take": {
      // Decision 035, oral translation by segment.
      if (e.action === "upload") return `recorded a segment's take for ${audio}`;
      if (e.action === "delete") return `removed a segment's take of ${audio}`;
      if (e.action === "update") {
        const n = typeof e.detail.redo === "number" ? e.detail.redo : 1;
        return `asked for ${n === 1 ? "a take" : `${n} takes`} of ${audio} to be recorded again`;
      }
      break;
    }
    case "recording-spans": {
      // SPEC §2.13, decision 035: a whole recording matched to its segments.
      const n = typeof e.detail.spans === "number" ? e.detail.spans : null;
      if (e.action === "confirm")
        return `matched the recording of ${audio} to its ${n === null ? "" : `${n} `}segments`;
      break;
    }
    case "api-token": {
      // Decision 036.
      const name = text(e.detail.name) ?? "a token";
      if (e.action === "create") return `created the API token '${name}' (${text(e.detail.scope) ?? "read"})`;
      if (e.action === "revoke") return `revoked the API token '${name}'`;
      break;
    }
    case "passkey": {
      // Decision 038: a person's own passkeys.
      const name = text(e.detail.name) ?? "a passkey";
      if (e.action === "passkey.added") return `added the passkey '${name}'`;
      if (e.action === "passkey.renamed")
        return `renamed the passkey '${text(e.detail.from) ?? "a passkey"}' to '${name}'`;
      if (e.action === "passkey.removed") return `removed the passkey '${name}'`;
      break;
    }
    case "archive": {
      // The scheduled backups (decision 027), written by the server itself (no actor).
      const file = text(e.detail.file) ?? "an archive";
      if (e.action === "backup") {
        const files = typeof e.detail.files === "number" ? e.detail.files : 0;
        return `backed up the database and ${files} stored file${files === 1 ? "" : "s"} to ${file}`;
      }
      if (e.action === "backup-failed") {
        const error = text(e.detail.error);
        return `could not back up to ${file}${error ? `: ${error}` : ""}`;
      }
      // The Backups page (decision 027).
      if (e.action === "download") return `downloaded the backup ${file}`;
      if (e.action === "delete") return `deleted the backup ${file}`;
      break;
    }
    case "export":
      if (e.action === "export") return `exported the dataset (${exportChoiceInWords(e.detail)})`;
      break;
    case "setting":
      if (e.action === "set-rate") {
        const rate = RATE_NAMES[e.entityId ?? ""] ?? e.entityId ?? "a";
        const from = typeof e.detail.from === "number" ? ` from ${e.detail.from}` : "";
        const to = typeof e.detail.to === "number" ? ` to ${e.detail.to} UGX` : "";
        return `set the ${rate} rate${from}${to}`;
      }
      if (e.action === "translation.settings") return "changed the translation settings";
      break;
    case "translation-memory":
    case "glossary":
      return describeTranslationEntry(e);
  }
  return `${e.action} ${e.entity}`;
}

/**
 * The second factor's entries (decision 038) in words, or null for another action. The owner is
 * the actor of their own changes; a wrong code and a lockout have no actor (who typed it is unknown).
 */
function describeSecondFactorEntry(e: DescribedEntry, user: string): string | null {
  switch (e.action) {
    case "totp.enrolled":
      return "turned on two-factor authentication (authenticator app)";
    case "totp.removed":
      return "turned off two-factor authentication";
    case "recovery-codes.generated":
      return "made new recovery codes";
    case "recovery-code.used": {
      const left = typeof e.detail.left === "number" ? ` (${e.detail.left} left)` : "";
      return `signed in with a recovery code${left}`;
    }
    case "code.failed":
      return `a wrong two-factor code was entered for ${user}`;
    case "second-factor.locked":
      return `locked the two-factor codes of ${user} for 15 minutes after too many wrong codes`;
  }
  return null;
}

/** The translation memory's and glossary's entries (decision 035) in words. */
function describeTranslationEntry(e: DescribedEntry): string {
  const pair = `${text(e.detail.source) ?? "?"}→${text(e.detail.target) ?? "?"}`;
  const count = typeof e.detail.count === "number" ? e.detail.count : 0;
  switch (e.action) {
    case "memory.imported":
      return `imported ${count} translation memory entr${count === 1 ? "y" : "ies"} (${pair})`;
    case "glossary.imported":
      return `imported ${count} glossary term${count === 1 ? "" : "s"} (${pair})`;
    case "glossary.added":
      return `added the glossary term "${text(e.detail.sourceTerm) ?? ""}" (${pair})`;
    case "glossary.removed":
      return `removed the glossary term "${text(e.detail.sourceTerm) ?? ""}" (${pair})`;
  }
  return `${e.action} ${e.entity}`;
}

/** A consent status in words: 'given', 'restricted', 'withdrawn', 'not recorded'. */
function consentWords(value: unknown): string {
  return (text(value) ?? "unknown").replace(/_/g, " ");
}

/**
 * The participants' and consent's entries (decision 024) in words, or null for any other entry:
 * 'recorded participant P0042', 'changed the consent of participant P0042 from given to withdrawn',
 * 'linked interview-07 to participant P0042 (session 2026-03-02)'. Only codes, field names and
 * statuses are kept in these entries, never a participant's free text.
 */
function describeCorpusEntry(e: DescribedEntry, audio: string): string | null {
  const code = text(e.detail.code) ?? "a participant";
  switch (e.action) {
    case "participant.created":
      return `recorded participant ${code}`;
    case "participant.updated": {
      const fields = Array.isArray(e.detail.fields) ? e.detail.fields.filter((f) => typeof f === "string") : [];
      return `edited participant ${code}${fields.length > 0 ? ` (${fields.join(", ")})` : ""}`;
    }
    case "participant.consent_changed":
      return `changed the consent of participant ${code} from ${consentWords(e.detail.from)} to ${consentWords(e.detail.to)}`;
    case "participant.consent_document_attached":
      return `${e.detail.replaced === true ? "replaced" : "attached"} the consent document of participant ${code}`;
    case "participant.consent_document_removed":
      return `removed the consent document of participant ${code}`;
    case "participants.imported": {
      const created = typeof e.detail.created === "number" ? e.detail.created : 0;
      const updated = typeof e.detail.updated === "number" ? e.detail.updated : 0;
      return `imported participants from CSV (${created} new, ${updated} updated)`;
    }
    case "audio.participant_linked": {
      const participant = text(e.detail.participantCode);
      const session = text(e.detail.sessionDate);
      if (!participant) return `unlinked ${audio} from its participant`;
      return `linked ${audio} to participant ${participant}${session ? ` (session ${session})` : ""}`;
    }
    case "audio.languages": {
      const source = text(e.detail.sourceLanguage) ?? "the programme's";
      const target = text(e.detail.targetLanguage) ?? "the programme's";
      return `set the languages of ${audio} (source ${source}, target ${target})`;
    }
    case "export.superseded": {
      const who = text(e.detail.participantCode);
      return `marked an export superseded${who ? ` (participant ${who} withdrew consent)` : ""}`;
    }
  }
  return null;
}

/**
 * An export's choice as its audit entry keeps it, in words: 'Control, completed
 * tasks, approved 2026-01-01 to 2026-03-31'.
 */
function exportChoiceInWords(detail: Record<string, unknown>): string {
  const category = text(detail.category) === "both" ? "both categories" : (text(detail.category) ?? "both categories");
  const status = detail.status === "approved-transcript" ? "approved transcripts" : "completed tasks";
  const from = text(detail.approvedFrom);
  const to = text(detail.approvedTo);
  const period =
    from && to ? `, approved ${from} to ${to}` : from ? `, approved from ${from}` : to ? `, approved until ${to}` : "";
  return `${category}, ${status}${period}`;
}

const ACTION_LABELS: Record<string, string> = {
  activate: "Activated an account",
  approve: "Approved",
  assign: "Assigned",
  attach: "Attached an initial transcript",
  comment: "Commented",
  create: "Created (audio, account, submission)",
  deactivate: "Deactivated an account",
  delete: "Deleted an audio",
  edit: "Edited an account",
  export: "Exported the dataset",
  backup: "Backed up",
  "backup-failed": "Backup failed",
  download: "Downloaded a backup",
  open: "Opened an audio",
  reassign: "Reassigned",
  recommend: "Recommended",
  reject: "Rejected",
  "reset-password": "Reset a password by e-mail",
  remove: "Deleted a transcript or recording",
  save: "Saved a transcript",
  "set-rate": "Set a payment rate",
  "set-status": "Changed a task status",
  "sign-out-everywhere": "Signed a user out everywhere",
  update: "Edited an account",
  upload: "Uploaded a recording",
  "participant.created": "Recorded a participant",
  "participant.updated": "Edited a participant",
  "participant.consent_changed": "Changed a participant's consent",
  "participant.consent_document_attached": "Attached a consent document",
  "participant.consent_document_removed": "Removed a consent document",
  "participants.imported": "Imported participants",
  "audio.participant_linked": "Linked an audio to a participant",
  "export.superseded": "Superseded an export (consent withdrawn)",
  "translation.settings": "Changed the translation settings",
  "audio.languages": "Set an audio's languages",
  "memory.imported": "Imported translation memory",
  "glossary.imported": "Imported a glossary",
  "glossary.added": "Added a glossary term",
  "glossary.removed": "Removed a glossary term",
  "passkey.added": "Added a passkey",
  "passkey.renamed": "Renamed a passkey",
  "passkey.removed": "Removed a passkey",
  "totp.enrolled": "Turned on two-factor authentication",
  "totp.removed": "Turned off two-factor authentication",
  "recovery-codes.generated": "Made new recovery codes",
  "recovery-code.used": "Used a recovery code",
  "code.failed": "Entered a wrong two-factor code",
  "second-factor.locked": "Two-factor codes locked",
};

/** An action as the Logs filter offers it ('approve' → 'Approved'); an unknown one with its dashes as spaces, capitalised. */
export function actionLabel(action: string): string {
  const known = ACTION_LABELS[action];
  if (known) return known;
  const words = action.replace(/[-_]+/g, " ").trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

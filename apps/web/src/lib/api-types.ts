import type { RouterInputs, RouterOutputs } from "@tafsiri/api";

// The data shapes the web app reads, named after the tRPC procedures that answer them. Types
// only: the web app never imports server code at runtime, nor reaches into @tafsiri/api's files.

/** `audios.get`: one audio with its task, for the audiomanagement screens. */
export type AudioDetail = RouterOutputs["audios"]["get"];
/** A row of `audios.list` (Manage Audios). */
export type ManagedAudio = RouterOutputs["audios"]["list"]["items"][number];
/** A card of `tasks.list` (Tasks page). */
export type TaskCard = RouterOutputs["tasks"]["list"]["items"][number];
/** A card of `recommendations.list` (Recommended Recordings page). */
export type RecommendedRecording = RouterOutputs["recommendations"]["list"]["items"][number];
/** `notifications.list`: the bell's entries and unread count. */
export type NotificationList = RouterOutputs["notifications"]["list"];
/** One entry of the bell. */
export type NotificationItem = NotificationList["items"][number];
/** A token of `apiTokens.mine` / `apiTokens.all` (decision 036): never the token itself. */
export type ApiTokenView = RouterOutputs["apiTokens"]["mine"]["tokens"][number];
/** An endpoint of `webhooks.list` (decision 037): never its secret. */
export type WebhookEndpoint = RouterOutputs["webhooks"]["list"]["endpoints"][number];
/** `recordings.get`: an audio's translated recording. */
export type Recording = RouterOutputs["recordings"]["get"];
/** `transcripts.get`: an audio's translated transcript. */
export type Transcript = RouterOutputs["transcripts"]["get"];
/** A comment of `comments.list` (Feedback); `author` null for a deleted account. */
export type AudioComment = RouterOutputs["comments"]["list"][number];
/** A row of `submissions.list` (Submissions page). */
export type SubmissionRow = RouterOutputs["submissions"]["list"]["items"][number];
/** The counts of the Submissions list's filters. */
export type SubmissionCounts = RouterOutputs["submissions"]["list"]["counts"];
/** A filter of the Submissions list. */
export type SubmissionFilter = keyof SubmissionCounts;
/** A row of `statistics.engagement` (Staff overall Activity, Work Load). */
export type EngagementRow = RouterOutputs["statistics"]["engagement"][number];
/** A row of `statistics.teamReport` (Team Engagement Report). */
export type TeamReportRow = RouterOutputs["statistics"]["teamReport"][number];
/** A user of `accounts.list` (Accounts page): never a password hash. */
export type AccountUser = RouterOutputs["accounts"]["list"][number];
/** A row of `logs.list` (Logs page). */
export type LogEntry = RouterOutputs["logs"]["list"]["items"][number];
/** `logs.filters`: the Logs page's actor and action choices. */
export type LogFilterChoices = RouterOutputs["logs"]["filters"];
/** One dataset export of `exports.list` (Export page). */
export type ExportItem = RouterOutputs["exports"]["list"]["items"][number];
/** What `exports.create` takes: the Export form's choice. */
export type ExportChoiceInput = RouterInputs["exports"]["create"];
export type MemoryMatch = RouterOutputs["translation"]["matches"][number];
export type SegmentGridData = RouterOutputs["translation"]["segments"];
/** `accounts.login`: the session token and the user (decision 038: after a second factor too). */
export type SignInAnswer = RouterOutputs["accounts"]["login"];
/** `totp.status` (decision 038): whether the caller's authenticator app is on, and recovery codes left. */
export type TotpStatus = RouterOutputs["totp"]["status"];
/** A passkey of `passkeys.list` (decision 038): name, made, last used; never its key. */
export type PasskeyView = RouterOutputs["passkeys"]["list"]["passkeys"][number];

import type { Migration } from "kysely";
import * as initialSchema from "./20261121000000_initial_schema";
import * as lookupIndexes from "./20261122000000_lookup_indexes";
import * as events from "./20261123000000_events";
import * as eventsCreatedAtIndex from "./20261124000000_events_created_at_index";
import * as submissionListIndexes from "./20261125000000_submission_list_indexes";
import * as listOrderIndexes from "./20261126000000_list_order_indexes";
import * as reviewTimes from "./20261127000000_review_times";
import * as auditListIndexes from "./20261128120000_audit_list_indexes";
import * as passwordResets from "./20261129000000_password_resets";
import * as sessionVersions from "./20261130000000_session_versions";
import * as assigneeWorkCounts from "./20261201000000_assignee_work_counts";
import * as listCounts from "./20261202000000_list_counts";
import * as submissionAssignees from "./20261203000000_submission_assignees";
import * as datasetExports from "./20261204000000_exports";
import * as resumableUploads from "./20261205000000_resumable_uploads";
import * as waveforms from "./20261206000000_waveforms";
import * as assigneeWorkAudioMinutes from "./20261207000000_assignee_work_audio_minutes";
import * as participants from "./20261208000000_participants";
import * as participantBandCounts from "./20261209000000_participant_band_counts";
import * as reviews from "./20261210000000_reviews";
import * as pageAnchors from "./20261211000000_page_anchors";
import * as staffTaskOrderIndex from "./20261211000100_staff_task_order_index";
import * as notificationOrderIndex from "./20261211000200_notification_order_index";
import * as participantListOrderIndexes from "./20261211000300_participant_list_order_indexes";
import * as participantListCounts from "./20261211000400_participant_list_counts";
import * as unassignedAudioPageIndex from "./20261211000500_unassigned_audio_page_index";
import * as translationSegments from "./20261211000600_translation_segments";
import * as translationMemoryWords from "./20261211000700_translation_memory_words";
import * as segmentTakes from "./20261211000800_segment_takes";
import * as recordingSpans from "./20261211000900_recording_spans";
import * as speechMeasures from "./20261211001000_speech_measures";
import * as apiTokens from "./20261211001100_api_tokens";
import * as webhooks from "./20261211001200_webhooks";
import * as totp from "./20261211001300_totp";
import * as passkeys from "./20261211001400_passkeys";
import * as sessions from "./20261211001500_sessions";
import * as webhookDeliveryCounts from "./20261211001600_webhook_delivery_counts";
import * as translationMemoryWordPairs from "./20261211001700_translation_memory_word_pairs";

/** Every migration, keyed by its file name; Kysely runs them in key order. Add new files here. */
export const migrations: Record<string, Migration> = {
  "20261121000000_initial_schema": initialSchema,
  "20261122000000_lookup_indexes": lookupIndexes,
  "20261123000000_events": events,
  "20261124000000_events_created_at_index": eventsCreatedAtIndex,
  "20261125000000_submission_list_indexes": submissionListIndexes,
  "20261126000000_list_order_indexes": listOrderIndexes,
  "20261127000000_review_times": reviewTimes,
  "20261128120000_audit_list_indexes": auditListIndexes,
  "20261129000000_password_resets": passwordResets,
  "20261130000000_session_versions": sessionVersions,
  "20261201000000_assignee_work_counts": assigneeWorkCounts,
  "20261202000000_list_counts": listCounts,
  "20261203000000_submission_assignees": submissionAssignees,
  "20261204000000_exports": datasetExports,
  "20261205000000_resumable_uploads": resumableUploads,
  "20261206000000_waveforms": waveforms,
  "20261207000000_assignee_work_audio_minutes": assigneeWorkAudioMinutes,
  "20261208000000_participants": participants,
  "20261209000000_participant_band_counts": participantBandCounts,
  "20261210000000_reviews": reviews,
  "20261211000000_page_anchors": pageAnchors,
  "20261211000100_staff_task_order_index": staffTaskOrderIndex,
  "20261211000200_notification_order_index": notificationOrderIndex,
  "20261211000300_participant_list_order_indexes": participantListOrderIndexes,
  "20261211000400_participant_list_counts": participantListCounts,
  "20261211000500_unassigned_audio_page_index": unassignedAudioPageIndex,
  "20261211000600_translation_segments": translationSegments,
  "20261211000700_translation_memory_words": translationMemoryWords,
  "20261211000800_segment_takes": segmentTakes,
  "20261211000900_recording_spans": recordingSpans,
  "20261211001000_speech_measures": speechMeasures,
  "20261211001100_api_tokens": apiTokens,
  "20261211001200_webhooks": webhooks,
  "20261211001300_totp": totp,
  "20261211001400_passkeys": passkeys,
  "20261211001500_sessions": sessions,
  "20261211001600_webhook_delivery_counts": webhookDeliveryCounts,
  "20261211001700_translation_memory_word_pairs": translationMemoryWordPairs,
};

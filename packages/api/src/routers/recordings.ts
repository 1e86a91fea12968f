import { adminProcedure, authedProcedure, router } from "../trpc";
import { ZAudioIdInput } from "../schemas/common";
import { ZRecording } from "../schemas/recordings";
import { ZReviewOutput } from "../schemas/transcripts";
import { notImplemented } from "../services/not-implemented";

export const recordingsRouter = router({
  /** SPEC §2.13: the translated recording of an audio (upload goes through REST multipart). */
  get: authedProcedure.input(ZAudioIdInput).output(ZRecording).query(() => notImplemented()),
  /** SPEC §4 Approve: Approved; task recording_status Completed. */
  approve: adminProcedure.input(ZAudioIdInput).output(ZReviewOutput).mutation(() => notImplemented()),
  /** SPEC §4 Reject: Rejected; recording_status In Progress. */
  reject: adminProcedure.input(ZAudioIdInput).output(ZReviewOutput).mutation(() => notImplemented()),
  /** SPEC §4 Delete: clears the recording; 'No translation audio'; recording_status In Progress. */
  remove: adminProcedure.input(ZAudioIdInput).output(ZReviewOutput).mutation(() => notImplemented()),
});

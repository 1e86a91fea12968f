import { useState, type FormEvent } from "react";
import { UNEXPECTED_ERROR } from "@tafsiri/domain";
import { useQuery } from "@tanstack/react-query";
import { toast } from "sonner";
import { DropZone } from "@tafsiri/ui/drop-zone";
import { STAFF_LIST_FAILED, StaffSelect } from "#web/components/staff-select";
import { UploadProgress } from "#web/components/upload-progress";
import { UnfinishedUploadNotice } from "#web/components/unfinished-upload-notice";
import { useResumableUpload } from "#web/hooks/use-resumable-upload";
import { useTRPC } from "#web/lib/trpc";
import { useSession } from "#web/hooks/use-session";
import { INVALID_RECORDING_FILE, RECORDING_ACCEPT, pickRecordingFile } from "#web/lib/audio-files";
import { useMicrophoneRecorder } from "#web/features/recording/hooks/use-microphone-recorder";
import { MicrophoneRecorder } from "./microphone-recorder";

/** The name of a take recorded in the browser for the audio `filename` (a WAV file). */
function takeName(filename: string): string {
  return `${filename}_take.wav`;
}

/**
 * SPEC §2.13 'Upload Translated Audio' (Staff, while the recording is not Approved): a drop zone for
 * one audio file and beside it 'Record' (decision 018: a take recorded in the browser, kept as
 * `{filename}_take.wav`), a 'Select Recorder' list of staff (the current user marked '(You)') and
 * 'Upload Audio'. The file uploaded is the last one chosen: a dropped file replaces the take, a new
 * take replaces the dropped file. Nothing is sent before 'Upload Audio' (disabled while a take is
 * being recorded). Sends it resumable (decision 020: bytes sent, rate, time left, Pause and Resume) with the
 * fields of SPEC §3 and calls `onUploaded` on success.
 */
export function RecordingUploadForm({
  audioId,
  audioFilename,
  onUploaded,
}: {
  audioId: string;
  /** The audio's filename, which names a recorded take. */
  audioFilename: string;
  onUploaded: () => void;
}) {
  const trpc = useTRPC();
  const session = useSession();
  const staff = useQuery({ ...trpc.accounts.staff.queryOptions(), meta: { errorMessage: STAFF_LIST_FAILED } });
  const [picked, setPicked] = useState<File | null>(null);
  const [recorder, setRecorder] = useState("");
  const [uploading, setUploading] = useState(false);
  const upload = useResumableUpload();
  const microphone = useMicrophoneRecorder(takeName(audioFilename));
  const taking = ["requesting", "recording", "encoding"].includes(microphone.status);
  const file = microphone.take?.file ?? picked;

  const chooseFiles = (files: File[]) => {
    const choice = pickRecordingFile(files);
    if ("error" in choice) toast.error(choice.error);
    else {
      microphone.discard();
      setPicked(choice.file);
    }
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!file) {
      toast.error("Please upload an audio file.");
      return;
    }
    if (!recorder) {
      toast.error("Please select a staff to recorded the audio.");
      return;
    }
    setUploading(true);
    try {
      const result = await upload.start(file, "AUDIOTRANSLATION", { audioId, recordedBy: recorder });
      if (result.status === "failed") {
        toast.error("Error", { description: result.message || UNEXPECTED_ERROR });
        return;
      }
      toast.success("Translation Audio file uploaded successfully.");
      setPicked(null);
      microphone.discard();
      onUploaded();
    } catch (error) {
      console.error("Failed to upload the translated audio", error);
      toast.error(UNEXPECTED_ERROR);
    } finally {
      setUploading(false);
    }
  };

  return (
    <form
      className="stack recording-upload"
      onSubmit={(e) => void submit(e)}
      aria-labelledby="recording-upload-title"
      noValidate
    >
      <h3 id="recording-upload-title" className="panel-subtitle">
        Upload Translated Audio
      </h3>
      <UnfinishedUploadNotice kind="AUDIOTRANSLATION" match={{ audioId }} uploading={uploading} />
      <div className="recording-sources">
        <DropZone
          accept={RECORDING_ACCEPT}
          multiple
          disabled={uploading || taking}
          onFiles={chooseFiles}
          onReject={() => toast.error(INVALID_RECORDING_FILE)}
          prompt="Drag and drop the translated audio here, or click to select a file (mp3, wav, ogg, flac)"
          file={file}
          inputLabel="Translated audio file"
          inputName="file"
        />
        <MicrophoneRecorder recorder={microphone} disabled={uploading} />
      </div>
      <StaffSelect
        label="Select Recorder"
        staff={staff.data ?? []}
        loading={staff.isPending}
        failed={staff.isError}
        value={recorder}
        onChange={setRecorder}
        disabled={uploading}
        suffix={(member) => (member.id === session?._id ? " (You)" : "")}
      />
      <div className="row">
        <button type="submit" className="btn btn-primary" disabled={uploading || taking}>
          {uploading && <span className="spinner" aria-hidden="true" />}
          Upload Audio
        </button>
        <UploadProgress upload={upload} label="Upload progress" />
      </div>
    </form>
  );
}

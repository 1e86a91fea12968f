import { useId, useState, type FormEvent } from "react";
import { toast } from "sonner";
import { DropZone } from "@tafsiri/ui/drop-zone";
import { CategorySelect } from "./category-select";
import { SessionDateField } from "./session-date-field";
import { LanguageFields } from "./language-fields";
import {
  audioLanguagesOf,
  languageErrors,
  type LanguageFieldErrors,
  type LanguageFieldValues,
} from "#web/features/audio/lib/audio-languages";
import { useProgrammePair } from "#web/features/audio/hooks/use-programme-pair";
import { audioUploadFields, isFailed } from "#web/features/audio/lib/upload";
import { UploadProgress } from "#web/components/upload-progress";
import { TextField } from "#web/components/field";
import { UnfinishedUploadNotice } from "#web/components/unfinished-upload-notice";
import { useResumableUpload } from "#web/hooks/use-resumable-upload";
import { AUDIO_ACCEPT, isAudioFile } from "#web/lib/audio-files";
import { toastRejection } from "#web/features/audio/lib/rejection-toast";
import {
  CATEGORY_REQUIRED,
  isParticipantCode,
  PARTICIPANT_CODE_MAX_LENGTH,
  PARTICIPANT_CODE_MESSAGE,
  type Category,
} from "@tafsiri/domain";

const NOT_AUDIO = "The selected file is not a valid audio file.";
const NO_LANGUAGES: LanguageFieldValues = { source: "", target: "" };

/**
 * SPEC §2.16 Single upload: a category and one audio file (mp3, wav, ogg, flac), checked in the
 * browser before sending (SPEC §5), and optionally the participant's code and the session's day
 * (decision 024; the server refuses an unknown code or a group that differs from the category
 * before it stores anything) and the audio's own source and target languages (decision 035: ISO
 * 639-3 codes checked in the browser, shown under their fields; empty for the programme's, which
 * the hint names); the form resets after a successful upload.
 */
export function SingleUpload({ onUploaded }: { onUploaded(): void }) {
  const id = useId();
  const [category, setCategory] = useState<Category | "">("");
  const [file, setFile] = useState<File | null>(null);
  const [participantCode, setParticipantCode] = useState("");
  const [sessionDate, setSessionDate] = useState("");
  const [languages, setLanguages] = useState<LanguageFieldValues>(NO_LANGUAGES);
  const [languageProblems, setLanguageProblems] = useState<LanguageFieldErrors>({});
  const [uploading, setUploading] = useState(false);
  const upload = useResumableUpload();
  const programme = useProgrammePair();

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!category) return void toast.error(CATEGORY_REQUIRED);
    if (!file) return void toast.error("Please select an audio file to upload.");
    if (!isAudioFile(file)) return void toast.error(NOT_AUDIO);
    const code = participantCode.trim();
    if (code && !isParticipantCode(code)) return void toast.error(PARTICIPANT_CODE_MESSAGE);
    if (sessionDate && !code) return void toast.error("A session date needs a participant code.");
    const problems = languageErrors(languages);
    setLanguageProblems(problems);
    if (Object.keys(problems).length > 0) return;
    setUploading(true);
    const link = code ? { participantCode: code, sessionDate: sessionDate || null } : null;
    const result = await upload.start(file, "AUDIO", audioUploadFields(category, link, audioLanguagesOf(languages)));
    setUploading(false);
    if (isFailed(result)) {
      toast.error(`Failed to upload audio: ${result.message ?? ""}`);
      return;
    }
    const filename = typeof result.filename === "string" ? result.filename : file.name;
    toast.success(`${filename} has been uploaded successfully.`);
    setCategory("");
    setFile(null);
    setParticipantCode("");
    setSessionDate("");
    setLanguages(NO_LANGUAGES);
    onUploaded();
  }

  return (
    <section className="card stack" aria-labelledby="single-upload-title">
      <h2 id="single-upload-title" className="section-title">
        Single upload
      </h2>
      <form className="stack" onSubmit={submit} noValidate>
        <UnfinishedUploadNotice kind="AUDIO" uploading={uploading} />
        <CategorySelect value={category} onChange={setCategory} disabled={uploading} />
        <DropZone
          accept={AUDIO_ACCEPT}
          multiple={false}
          disabled={uploading}
          file={file}
          inputName="file"
          inputLabel="Audio file"
          onFiles={(files) => setFile(files[0] ?? null)}
          onReject={(messages) => toastRejection(messages, NOT_AUDIO)}
          prompt={
            <>
              <strong>Drop an audio file here, or click to choose one</strong>
              <div className="muted">mp3, wav, ogg or flac</div>
            </>
          }
        />
        <div className="upload-participant">
          <TextField
            id={`${id}-participant`}
            label="Participant code (optional)"
            name="participant_code"
            type="text"
            autoComplete="off"
            maxLength={PARTICIPANT_CODE_MAX_LENGTH}
            value={participantCode}
            disabled={uploading}
            onChange={setParticipantCode}
          />
          <SessionDateField value={sessionDate} onChange={setSessionDate} disabled={uploading} />
        </div>
        <LanguageFields
          legend="Languages (optional)"
          values={languages}
          errors={languageProblems}
          programme={programme}
          disabled={uploading}
          onChange={(next) => {
            setLanguages(next);
            setLanguageProblems({});
          }}
        />
        <div className="row">
          <button type="submit" className="btn btn-primary" disabled={uploading}>
            {uploading ? <span className="spinner" aria-hidden="true" /> : null}
            Upload
          </button>
          <UploadProgress upload={upload} label="Upload progress" />
        </div>
      </form>
    </section>
  );
}

import type { ReactNode } from "react";
import { useDropzone, type FileRejection } from "react-dropzone";

export interface DropZoneProps {
  /** Allowed types: MIME type → file extensions (e.g. `{ "application/zip": [".zip"] }`); all types when absent. */
  accept?: Record<string, string[]>;
  /** Whether several files may be chosen at once (default true; no count limit, SPEC §9). */
  multiple?: boolean;
  /** Disables picking and dropping (e.g. while an upload runs). */
  disabled?: boolean;
  /** Receives the accepted files of one drop or pick (never empty). */
  onFiles(files: File[]): void;
  /** Receives react-dropzone's messages for rejected files ('File type must be ...', 'Too many files'). */
  onReject?(messages: string[]): void;
  /** What the region says (e.g. "Drag and drop an audio file here, or click to select one"). */
  prompt: ReactNode;
  /** The chosen file, shown under the prompt with its size. */
  file?: File | null;
  /** Accessible name of the hidden file input (for tests and screen readers). */
  inputLabel?: string;
  /** `name` attribute of the hidden file input. */
  inputName?: string;
}

/** Formats a byte count for people: "512 B", "1.5 KB", "3.2 MB". */
export function formatFileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  if (bytes < 1024 * 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  return `${(bytes / (1024 * 1024 * 1024)).toFixed(1)} GB`;
}

/** Distinct messages of react-dropzone's rejections, in order of first appearance. */
function rejectionMessages(rejections: readonly FileRejection[]): string[] {
  const messages = rejections.flatMap((rejection) => rejection.errors.map((error) => error.message));
  return [...new Set(messages)];
}

/**
 * A region that accepts files by drag and drop or through the file picker (click, Enter or
 * Space), over react-dropzone. No maximum size, no file-count limit (SPEC §9). Carries the
 * `.dropzone` class with `data-active="true"` while a drag is over it, and a hidden
 * `<input type="file">` that tests can set files on. The input is the region's sibling, not its
 * child: a button holding a focusable input is a nested interactive control (axe, WCAG 4.1.2).
 */
export function DropZone({
  accept,
  multiple = true,
  disabled = false,
  onFiles,
  onReject,
  prompt,
  file,
  inputLabel,
  inputName,
}: DropZoneProps) {
  const { getRootProps, getInputProps, isDragActive, inputRef } = useDropzone({
    accept,
    multiple,
    disabled,
    minSize: 0,
    onDrop: (accepted, rejections) => {
      // Forget the picked files so that picking the same file again (after a form reset) still fires `change`.
      if (inputRef.current) inputRef.current.value = "";
      if (accepted.length > 0) onFiles(accepted);
      if (rejections.length > 0) onReject?.(rejectionMessages(rejections));
    },
  });

  return (
    <>
      <div
        {...getRootProps({
          role: "button",
          className: "dropzone",
          "aria-disabled": disabled || undefined,
          "data-active": isDragActive ? "true" : "false",
          "data-disabled": disabled ? "true" : undefined,
        })}
      >
        <div className="dropzone-prompt">{prompt}</div>
        {file ? (
          <div className="dropzone-file" data-testid="dropzone-file">
            <span className="dropzone-file-name">{file.name}</span>{" "}
            <span className="muted">({formatFileSize(file.size)})</span>
          </div>
        ) : null}
      </div>
      <input {...getInputProps({ name: inputName, "aria-label": inputLabel })} />
    </>
  );
}

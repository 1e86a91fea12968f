import { toast } from "sonner";

/**
 * Shows a drop zone's rejection messages as an error toast. A wrong file type is told in the
 * spec's wording for that form (SPEC §5) rather than react-dropzone's long list of types.
 */
export function toastRejection(messages: string[], wrongTypeMessage: string): void {
  if (messages.some((m) => m.startsWith("File type must be"))) toast.error(wrongTypeMessage);
  else toast.error(messages.join(" "));
}

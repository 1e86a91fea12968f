import dayjs from "dayjs";
import type { ExportItem } from "#web/lib/api-types";
import { CATEGORY_CHOICES } from "./export-form";

const count = new Intl.NumberFormat("en");

/** A day (YYYY-MM-DD) as the list shows it, e.g. 'Mar 3 2026'. */
function day(date: string): string {
  return dayjs(date).format("MMM D YYYY");
}

/** The approval period in words: 'approved any time', 'approved from …', 'approved until …' or 'approved … to …'. */
function periodInWords(from: string | null, to: string | null): string {
  if (from && to) return from === to ? `approved on ${day(from)}` : `approved ${day(from)} to ${day(to)}`;
  if (from) return `approved from ${day(from)}`;
  if (to) return `approved until ${day(to)}`;
  return "approved any time";
}

/**
 * What an export took, in words, e.g. 'Control and Dementia, completed tasks
 * only, approved any time', with ', restricted consent included' when it took those participants
 * too (decision 024).
 */
export function choiceInWords(
  item: Pick<ExportItem, "category" | "status" | "approvedFrom" | "approvedTo" | "includeRestricted">,
): string {
  const category = CATEGORY_CHOICES.find((c) => c.value === item.category)?.label ?? item.category;
  const status = item.status === "completed" ? "completed tasks only" : "everything with an approved transcript";
  const consent = item.includeRestricted ? ", restricted consent included" : "";
  return `${category}, ${status}, ${periodInWords(item.approvedFrom, item.approvedTo)}${consent}`;
}

/** An export's CHAT settings in words, e.g. 'CHAT: eng, swa · Participant · corpus tafsiri'. */
export function chatInWords(chat: ExportItem["chat"]): string {
  return `CHAT: ${chat.languages.join(", ")} · ${chat.participantRole} · corpus ${chat.corpus}`;
}

/** A number of audios in words: '1 audio', '1,000 audios'. */
export function audiosInWords(audios: number): string {
  return `${count.format(audios)} ${audios === 1 ? "audio" : "audios"}`;
}

/** Progress in words: '340 of 1,000 audios' ('0 of 1 audio'). */
export function progressInWords(done: number, total: number): string {
  return `${count.format(done)} of ${audiosInWords(total)}`;
}

/** A size in bytes for people: '812 bytes', '4.2 KB', '1.3 MB', '2.05 GB' (powers of 1,000). */
export function sizeInWords(bytes: number): string {
  if (bytes < 1000) return `${count.format(bytes)} ${bytes === 1 ? "byte" : "bytes"}`;
  const units = ["KB", "MB", "GB", "TB"];
  let value = bytes;
  let unit = -1;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${value.toLocaleString("en", { maximumSignificantDigits: 3 })} ${units[unit]}`;
}

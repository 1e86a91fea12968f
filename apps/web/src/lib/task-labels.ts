import type { TaskCard } from "./api-types";

/** The task fields a card labels: shared by the Tasks page and the Recommended Recordings page. */
type CardTask = Pick<TaskCard, "filename" | "category" | "assignedTo">;

/**
 * SPEC §2.8, §2.9: the card title: the audio's filename, 'Unnamed File' when it has none,
 * 'Unknown Audio' when the audio is unknown (gone: neither filename nor category).
 */
export function taskTitle(task: Pick<CardTask, "filename" | "category">): string {
  if (task.filename === null && task.category === null) return "Unknown Audio";
  return task.filename?.trim() ? task.filename : "Unnamed File";
}

/** SPEC §2.8, §2.9: the assignee's username, 'Unknown User' when unknown. */
export function assigneeName(task: Pick<CardTask, "assignedTo">): string {
  return task.assignedTo?.username ?? "Unknown User";
}

/** SPEC §2.8, §2.9: the card colour class: green for Control, red otherwise. */
export function categoryCardClass(category: CardTask["category"]): string {
  return category === "Control" ? "card-control" : "card-dementia";
}

/**
 * SPEC §2.8, §2.9, WCAG 1.4.1: the audio's category as text, since the card's colour alone must not
 * tell it; 'Unknown category' when unknown (the audio is gone).
 */
export function categoryName(category: CardTask["category"]): string {
  return category ?? "Unknown category";
}

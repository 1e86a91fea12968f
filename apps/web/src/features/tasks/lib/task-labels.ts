import type { TaskCard } from "../../../lib/api-types";

/** SPEC §2.8: the card title: the audio's filename, 'Unnamed File' when it has none, 'Unknown Audio' when the audio is unknown. */
export function taskTitle(task: Pick<TaskCard, "filename" | "category">): string {
  if (task.filename === null && task.category === null) return "Unknown Audio";
  return task.filename?.trim() ? task.filename : "Unnamed File";
}

/** SPEC §2.8: the assignee's username, 'Unknown User' when unknown. */
export function assigneeName(task: Pick<TaskCard, "assignedTo">): string {
  return task.assignedTo?.username ?? "Unknown User";
}

/** SPEC §2.8: the card colour class: green for Control, red otherwise. */
export function categoryCardClass(category: TaskCard["category"]): string {
  return category === "Control" ? "card-control" : "card-dementia";
}

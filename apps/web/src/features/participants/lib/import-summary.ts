/** "2 participants created, 1 updated." */
export function importSummary(created: number, updated: number): string {
  return `${created} ${created === 1 ? "participant" : "participants"} created, ${updated} updated.`;
}

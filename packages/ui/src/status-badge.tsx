/**
 * An approval or stage status as a coloured badge: Approved and Completed green, Rejected red,
 * anything else neutral grey (SPEC §2.13, §4).
 */
export function StatusBadge({ status, label }: { status: string; label?: string }) {
  const tone =
    status === "Approved" || status === "Completed" ? "badge-success" : status === "Rejected" ? "badge-danger" : "";
  return (
    <span className={`badge ${tone}`} data-status={status}>
      {label ?? status}
    </span>
  );
}

import type { ReactNode } from "react";

/**
 * A list's table (Submissions, Logs): an `h2` heading `title` (id `id`) naming a scrollable table
 * with one header row of `columns` and `children` as its body rows.
 */
export function DataTable({
  id,
  title,
  columns,
  className,
  children,
}: {
  id: string;
  title: string;
  columns: readonly string[];
  className?: string;
  children: ReactNode;
}) {
  return (
    <>
      <h2 className="section-title" id={id}>
        {title}
      </h2>
      <div className="table-wrap">
        <table className={className ? `table ${className}` : "table"} aria-labelledby={id}>
          <thead>
            <tr>
              {columns.map((column) => (
                <th key={column} scope="col">
                  {column}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>{children}</tbody>
        </table>
      </div>
    </>
  );
}

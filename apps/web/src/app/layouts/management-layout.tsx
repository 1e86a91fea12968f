import type { ReactNode } from "react";
import { ManagementMenu } from "./management-menu";
import "#web/styles/management.css";

/** A management page: the side menu (SPEC §2.2) beside the page's title and content. */
export function ManagementLayout({
  title,
  actions,
  children,
}: {
  title: string;
  actions?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="management-layout">
      <ManagementMenu />
      <section className="page management-content" aria-labelledby="management-title">
        <div className="page-header">
          <h1 className="page-title" id="management-title">
            {title}
          </h1>
          {actions}
        </div>
        {children}
      </section>
    </div>
  );
}

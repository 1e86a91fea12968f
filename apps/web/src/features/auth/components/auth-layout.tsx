import type { ReactNode } from "react";
import "#web/features/auth/auth.css";

/**
 * The frame of the open pages (sign-in, password reset): product panel beside a form card, led by
 * a 'Skip to content' link to the card (as in the signed-in shell).
 */
export function AuthLayout({ children }: { children: ReactNode }) {
  return (
    <div className="auth-page">
      <a href="#main-content" className="shell-skip-link">
        Skip to content
      </a>
      <aside className="auth-aside">
        <div className="auth-brand">
          <span className="shell-logo-mark auth-logo" aria-hidden="true">
            <svg
              width="22"
              height="22"
              viewBox="0 0 24 24"
              fill="none"
              stroke="currentColor"
              strokeWidth={2.2}
              strokeLinecap="round"
            >
              <path d="M4 10v4M8 6v12M12 3v18M16 7v10M20 10v4" />
            </svg>
          </span>
          <span className="auth-brand-name">Tafsiri</span>
        </div>
        <div className="auth-aside-copy">
          <p className="auth-aside-title">Audio translation, reviewed in one place.</p>
          <p className="auth-aside-text">
            Audio recordings, translated transcripts and translated re-recordings for the Tafsiri programme.
          </p>
        </div>
      </aside>
      <main id="main-content" className="auth-main" tabIndex={-1}>
        <div className="auth-card">{children}</div>
      </main>
    </div>
  );
}

import { Link } from "react-router";
import { paths } from "#web/config/paths";
import "#web/styles/not-found.css";

/** /utility/404 and any unknown path (SPEC §2.19), led by a 'Skip to content' link as every page is. */
export function Component() {
  return (
    <>
      <a href="#main-content" className="shell-skip-link">
        Skip to content
      </a>
      <main id="main-content" className="not-found" tabIndex={-1}>
        <div className="not-found-card">
          <p className="not-found-code" aria-hidden="true">
            404
          </p>
          <h1 className="not-found-message">Hmm...this page doesn’t exist. Try searching for something else!</h1>
          <Link to={paths.home} className="btn btn-primary">
            Back To Dashboard
          </Link>
        </div>
      </main>
    </>
  );
}

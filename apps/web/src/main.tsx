import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { AppProvider } from "./app/provider";
import { AppRouter } from "./app/router";
// Styles every page needs, the sign-in page included; each feature's own stylesheet loads with its lazy
// chunk (docs/performance.md).
import "./styles/base.css";
import "./styles/buttons.css";
import "./styles/forms.css";
import "./styles/badges.css";
import "./styles/tables.css";
import "./styles/dialogs.css";
import "./styles/uploads.css";
import "./styles/work.css";
import "./styles/notices.css";

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <AppProvider>
      <AppRouter />
    </AppProvider>
  </StrictMode>,
);

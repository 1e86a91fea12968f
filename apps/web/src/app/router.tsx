import { createBrowserRouter, RouterProvider, type RouteObject } from "react-router";
import { RequireAuth, RequireRole } from "./guards";
import type { Session } from "#web/lib/session";
import { paths } from "#web/config/paths";

type Role = Session["role"];
const BOTH: Role[] = ["Admin", "Staff"];
const ADMIN: Role[] = ["Admin"];

/** A lazily loaded route file (STYLE §12) guarded by role. Each file exports `Component`. */
function guarded(path: string, roles: Role[], load: () => Promise<{ Component: React.ComponentType }>): RouteObject {
  return {
    path,
    lazy: async () => {
      const { Component } = await load();
      return {
        Component: () => (
          <RequireRole roles={roles}>
            <Component />
          </RequireRole>
        ),
      };
    },
  };
}

/** SPEC §2.1 route table. Paths match case-insensitively (react-router's default). */
const routes: RouteObject[] = [
  { path: paths.signIn, lazy: () => import("./routes/signin") },
  { path: paths.resetPassword, lazy: () => import("./routes/reset-password") },
  { path: `${paths.resetPassword}/:token`, lazy: () => import("./routes/reset-password-token") },
  { path: paths.notFound, lazy: () => import("./routes/not-found") },
  // Decision 038: outside the shell, whose own calls that session may not make.
  { path: paths.enrolSecondFactor, lazy: () => import("./routes/security-required") },
  {
    // The signed-in shell (header, sidebar, live events, search) loads with the first signed-in page, so
    // the sign-in page on a slow link does not wait for it.
    lazy: async () => {
      const { AppLayout } = await import("./layouts/app-layout");
      return {
        Component: () => (
          <RequireAuth>
            <AppLayout />
          </RequireAuth>
        ),
      };
    },
    children: [
      guarded(paths.home, BOTH, () => import("./routes/home")),
      guarded(paths.tasks, BOTH, () => import("./routes/tasks")),
      guarded(paths.recordings, BOTH, () => import("./routes/recordings")),
      guarded(paths.submissions, BOTH, () => import("./routes/submissions")),
      guarded(paths.review, ADMIN, () => import("./routes/submissions-review")),
      guarded(paths.accounts, ADMIN, () => import("./routes/accounts")),
      guarded(paths.audio, BOTH, () => import("./routes/audiomanagement/audio")),
      guarded(paths.transcript, BOTH, () => import("./routes/audiomanagement/transcript")),
      guarded(paths.translatedAudio, BOTH, () => import("./routes/audiomanagement/translated-audio")),
      guarded(paths.feedback, BOTH, () => import("./routes/audiomanagement/feedback")),
      guarded(paths.recommend, BOTH, () => import("./routes/audiomanagement/recommend")),
      guarded(paths.upload, ADMIN, () => import("./routes/management/upload")),
      guarded(paths.createTasks, ADMIN, () => import("./routes/management/create-tasks")),
      guarded(paths.manageAudios, ADMIN, () => import("./routes/management/manage-audios")),
      guarded(paths.exports, ADMIN, () => import("./routes/management/export")),
      guarded(paths.backups, ADMIN, () => import("./routes/management/backups")),
      guarded(paths.participants, ADMIN, () => import("./routes/management/participants")),
      guarded(paths.participant, ADMIN, () => import("./routes/management/participants-detail")),
      guarded(paths.translationAdmin, ADMIN, () => import("./routes/management/translation")),
      guarded(paths.logs, ADMIN, () => import("./routes/logs")),
      guarded(paths.apiTokens, BOTH, () => import("./routes/api-tokens")),
      guarded(paths.profile, BOTH, () => import("./routes/profile")),
      guarded(paths.webhooks, ADMIN, () => import("./routes/management/webhooks")),
    ],
  },
  { path: "*", lazy: () => import("./routes/not-found") },
];

const router = createBrowserRouter(routes);

export function AppRouter() {
  return <RouterProvider router={router} />;
}

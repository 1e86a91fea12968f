// `npm start`: builds what is missing, then runs the server (embedded PGlite unless DATABASE_URL is set).
import { spawn } from "node:child_process";
import path from "node:path";
import { ensureWebBuild, root } from "./web-build.mjs";

ensureWebBuild();
const tsx = path.join(root, "node_modules/.bin/tsx");
const child = spawn(tsx, [path.join(root, "apps/server/src/server.ts")], { stdio: "inherit", cwd: process.cwd() });
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code) => process.exit(code ?? 0));

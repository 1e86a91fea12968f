// `npm run backup -- …` and `npm run restore -- …` (decision 027): builds the compiled server when
// it is missing or stale (as `npm start` does, decision 026), then runs the command compiled beside
// it, apps/server/dist/<name>.js, in this process with source maps on. Its arguments follow the name.
import path from "node:path";
import { pathToFileURL } from "node:url";
import { CLIS, ensureServerBuild, serverDist } from "./server-build.mjs";

const name = process.argv[2];
if (!CLIS.includes(name)) {
  console.error(`Usage: node scripts/cli.mjs ${CLIS.join("|")} [arguments]`);
  process.exit(2);
}
ensureServerBuild();
process.setSourceMapsEnabled(true);
// The command reads its own arguments from process.argv, after the script's path.
process.argv.splice(2, 1);
await import(pathToFileURL(path.join(serverDist, `${name}.js`)).href);

import { readdirSync } from "node:fs";
import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";
import importX from "eslint-plugin-import-x";
import checkFile from "eslint-plugin-check-file";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";
import prettierRecommended from "eslint-plugin-prettier/recommended";
import tafsiri from "./scripts/lint/no-type-import-cycle.js";

// The web app's feature folders (apps/web/src/features/<feature>), read from disk so a new
// feature gets its boundary zone without editing this file.
const webFeatures = readdirSync(new URL("./apps/web/src/features", import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/**
 * import-x settings for TypeScript sources: .ts/.tsx dependencies are parsed with the TypeScript parser and resolved
 * through `projects` (tsconfig.json files), so no-cycle and no-type-import-cycle can follow them.
 */
function importXTypeScriptSettings(projects) {
  return {
    "import-x/extensions": importX.flatConfigs.typescript.settings["import-x/extensions"],
    "import-x/parsers": importX.flatConfigs.typescript.settings["import-x/parsers"],
    "import-x/external-module-folders": importX.flatConfigs.typescript.settings["import-x/external-module-folders"],
    "import-x/resolver-next": [createTypeScriptImportResolver({ project: projects, noWarnOnMultipleProjects: true })],
  };
}

/** SQL lives in packages/db/src/repositories (the selectors of no-restricted-syntax). */
const SQL_IN_REPOSITORIES = [
  {
    selector:
      "CallExpression[callee.property.name=/^(selectFrom|insertInto|updateTable|deleteFrom|replaceInto|mergeInto)$/]",
    message: "SQL lives in packages/db/src/repositories: call a repository function.",
  },
  {
    selector: "TaggedTemplateExpression[tag.name='sql'], TaggedTemplateExpression[tag.object.name='sql']",
    message: "SQL lives in packages/db/src/repositories: call a repository function.",
  },
];

/** A `message` written as text in an answer a REST handler returns or sends (decision 033). */
const NO_MESSAGE_IN_HANDLERS = [
  "ReturnStatement > ObjectExpression",
  "ArrowFunctionExpression > ObjectExpression",
  "CallExpression[callee.property.name='send'] > ObjectExpression",
].map((answer) => ({
  selector: `${answer} > Property[key.name='message'] > :matches(Literal, TemplateLiteral)`,
  message: "A REST answer's message is the sentence its service returned (decision 033): return it from the service.",
}));

export default tseslint.config(
  { ignores: ["**/dist/**", "**/node_modules/**", "data/**", ".turbo/**"] },
  ...tseslint.configs.recommended,
  {
    files: ["apps/web/**/*.{ts,tsx}", "packages/ui/**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/no-explicit-any": "error",
    },
  },
  {
    // Web boundaries (STYLE §12): kebab-case file and folder names, no index barrels, no import cycles.
    files: ["apps/web/{src,e2e}/**/*.{ts,tsx}", "packages/ui/{src,test}/**/*.{ts,tsx}"],
    plugins: { "import-x": importX, "check-file": checkFile, tafsiri },
    settings: importXTypeScriptSettings([
      "apps/web/tsconfig.json",
      "apps/web/e2e/tsconfig.json",
      "packages/ui/tsconfig.json",
    ]),
    rules: {
      "import-x/no-cycle": ["error", { ignoreExternal: true }],
      // import-x/no-cycle does not follow type-only imports; this reports the cycles that close through one.
      "tafsiri/no-type-import-cycle": "error",
      "check-file/filename-naming-convention": [
        "error",
        { "**/*.{ts,tsx}": "KEBAB_CASE" },
        { ignoreMiddleExtensions: true },
      ],
      "check-file/folder-naming-convention": [
        "error",
        { "apps/web/{src,e2e}/**/": "KEBAB_CASE", "packages/ui/{src,test}/**/": "KEBAB_CASE" },
      ],
      "check-file/no-index": "error",
    },
  },
  {
    // Server code has no import cycles either, type imports included: packages/* (packages/ui is in the web block
    // above) and apps/server, sources and tests. Workspace imports (@tafsiri/api, @tafsiri/db…) resolve to their
    // sources through the packages' tsconfig.json files, so a cycle across packages counts too.
    files: ["packages/*/{src,test}/**/*.ts", "apps/server/{src,test}/**/*.ts"],
    ignores: ["packages/ui/**"],
    plugins: { "import-x": importX, tafsiri },
    settings: importXTypeScriptSettings([
      "packages/api/tsconfig.json",
      "packages/db/tsconfig.json",
      "packages/domain/tsconfig.json",
      "apps/server/tsconfig.json",
    ]),
    rules: {
      "import-x/no-cycle": ["error", { ignoreExternal: true }],
      // import-x/no-cycle does not follow type-only imports; this reports the cycles that close through one.
      "tafsiri/no-type-import-cycle": "error",
    },
  },
  {
    // API layering (STYLE §1, §5): the domain code under packages/api/src (services, uploads, storage, live events,
    // dataset exports) sits below tRPC: it never imports trpc.ts, root.ts or the routers. Storage sits below uploads.
    files: ["packages/api/src/**/*.ts"],
    rules: {
      "import-x/no-restricted-paths": [
        "error",
        {
          basePath: import.meta.dirname,
          zones: [
            {
              target: [
                "./packages/api/src/services",
                "./packages/api/src/uploads",
                "./packages/api/src/storage",
                "./packages/api/src/live",
                "./packages/api/src/export",
              ],
              from: ["./packages/api/src/trpc.ts", "./packages/api/src/root.ts", "./packages/api/src/routers"],
              message:
                "Services, uploads, storage, live events and exports never import tRPC (trpc.ts, root.ts, routers): messages go beside the error model in src/errors, the rest beside what it describes.",
            },
            {
              target: "./packages/api/src/storage",
              from: "./packages/api/src/uploads",
              message: "Storage never imports uploads: what both need belongs in src/storage.",
            },
          ],
        },
      ],
    },
  },
  {
    // Every web feature has the same inner layout: features/<feature>/{components,hooks,lib}.
    files: ["apps/web/src/features/**/*.{ts,tsx}"],
    rules: {
      "check-file/folder-match-with-fex": [
        "error",
        { "*.{ts,tsx}": "**/src/features/*/{components,hooks,lib}/**/" },
        { errorMessage: "A feature's files live in its components/, hooks/ or lib/ folder: {{ target }}" },
      ],
    },
  },
  {
    // Web dependency direction (STYLE §12): app → features → shared (components, hooks, lib, config).
    // A feature never imports another feature; shared code never imports a feature or the app;
    // config/paths.ts is plain data that imports nothing from the app (a server test reads it).
    files: ["apps/web/src/**/*.{ts,tsx}"],
    rules: {
      "import-x/no-restricted-paths": [
        "error",
        {
          basePath: import.meta.dirname,
          zones: [
            ...webFeatures.map((feature) => ({
              target: `./apps/web/src/features/${feature}`,
              from: "./apps/web/src/features",
              except: [`./${feature}`],
              message:
                "A feature never imports another feature: move the shared piece to src/components, src/hooks or src/lib, or compose the features in src/app.",
            })),
            {
              target: "./apps/web/src/features",
              from: "./apps/web/src/app",
              message: "Features never import the app (routes, router, layouts).",
            },
            {
              target: ["./apps/web/src/components", "./apps/web/src/hooks", "./apps/web/src/lib"],
              from: ["./apps/web/src/features", "./apps/web/src/app"],
              message: "Shared code (components, hooks, lib) never imports features or the app.",
            },
            {
              target: "./apps/web/src/config",
              from: "./apps/web/src",
              except: ["./config"],
              message: "src/config is plain data: it imports nothing from the app.",
            },
          ],
        },
      ],
      // The web app uses the API package's types only, through its root entry (RouterInputs,
      // RouterOutputs, AppRouter): no runtime import of server code, no deep imports.
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          paths: [
            {
              name: "@tafsiri/api",
              allowTypeImports: true,
              message: "The web app imports only types from @tafsiri/api.",
            },
          ],
          patterns: [
            {
              group: ["@tafsiri/api/*", "@tafsiri/db", "@tafsiri/db/*"],
              message: 'Use `import type { RouterOutputs } from "@tafsiri/api"`.',
            },
          ],
        },
      ],
    },
  },
  {
    // The shared UI package is app-independent: it never imports the web app.
    files: ["packages/ui/src/**/*.{ts,tsx}"],
    rules: {
      "import-x/no-restricted-paths": [
        "error",
        { basePath: import.meta.dirname, zones: [{ target: "./packages/ui", from: "./apps" }] },
      ],
    },
  },
  {
    // All SQL lives in packages/db (its repositories, connection and migrator): application code
    // calls repository functions instead of building queries.
    files: ["apps/*/src/**/*.{ts,tsx}", "packages/api/src/**/*.ts", "packages/ui/src/**/*.{ts,tsx}"],
    rules: { "no-restricted-syntax": ["error", ...SQL_IN_REPOSITORIES] },
  },
  {
    // Services say what happened (decision 033): a REST handler answers the sentence its service
    // returned, it never writes one. Route plugins stay a size a reader can see.
    files: ["apps/server/src/routes/**/*.ts"],
    rules: {
      "no-restricted-syntax": ["error", ...SQL_IN_REPOSITORIES, ...NO_MESSAGE_IN_HANDLERS],
      "max-lines-per-function": ["error", { max: 150, skipBlankLines: true, skipComments: true }],
    },
  },
  {
    // One idea per file (STYLE): a source file past 400 lines holds several; cut it along its seams.
    files: ["apps/*/src/**/*.{ts,tsx}", "packages/*/src/**/*.{ts,tsx}"],
    rules: { "max-lines": ["error", { max: 400 }] },
  },
  {
    // Thin server (STYLE §5, §10; ARCHITECTURE "A request, end to end"): apps/server reaches the database only
    // through packages/api's services (or the deps object), never a repository function; its tests may.
    files: ["apps/server/src/**/*.ts"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: [
                "@tafsiri/db/repositories",
                "@tafsiri/db/repositories/*",
                "**/packages/db/src/repositories",
                "**/packages/db/src/repositories/*",
              ],
              message:
                "apps/server never calls a repository: call a service of packages/api (@tafsiri/api) or use the deps object, and put the rule or the bookkeeping there.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["migrations/**/*.ts"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  // Formatting (Prettier, print width 120, .prettierrc.json) is a lint rule: an unformatted file fails `npm run lint`.
  // Last, so eslint-config-prettier turns off the style rules Prettier owns.
  prettierRecommended,
);

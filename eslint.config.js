import { readdirSync } from "node:fs";
import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";
import importX from "eslint-plugin-import-x";
import checkFile from "eslint-plugin-check-file";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";
import prettierRecommended from "eslint-plugin-prettier/recommended";

// The web app's feature folders (apps/web/src/features/<feature>), read from disk so a new
// feature gets its boundary zone without editing this file.
const webFeatures = readdirSync(new URL("./apps/web/src/features", import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

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
    plugins: { "import-x": importX, "check-file": checkFile },
    settings: {
      // Parse .ts/.tsx dependencies with the TypeScript parser, so no-cycle can follow them.
      "import-x/extensions": importX.flatConfigs.typescript.settings["import-x/extensions"],
      "import-x/parsers": importX.flatConfigs.typescript.settings["import-x/parsers"],
      "import-x/external-module-folders": importX.flatConfigs.typescript.settings["import-x/external-module-folders"],
      "import-x/resolver-next": [
        createTypeScriptImportResolver({
          project: ["apps/web/tsconfig.json", "apps/web/e2e/tsconfig.json", "packages/ui/tsconfig.json"],
          noWarnOnMultipleProjects: true,
        }),
      ],
    },
    rules: {
      "import-x/no-cycle": ["error", { ignoreExternal: true }],
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
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector:
            "CallExpression[callee.property.name=/^(selectFrom|insertInto|updateTable|deleteFrom|replaceInto|mergeInto)$/]",
          message: "SQL lives in packages/db/src/repositories: call a repository function.",
        },
        {
          selector: "TaggedTemplateExpression[tag.name='sql'], TaggedTemplateExpression[tag.object.name='sql']",
          message: "SQL lives in packages/db/src/repositories: call a repository function.",
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

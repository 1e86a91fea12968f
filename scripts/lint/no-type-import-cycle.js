import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

/**
 * `tafsiri/no-type-import-cycle`: import-x/no-cycle skips type-only imports (`import type`, `export type … from`,
 * `import("…")` in a type) and has no option to count them, so a cycle that closes through one goes unreported.
 * This rule reports each type-only import whose module leads back to the importing file through imports of any
 * kind. Cycles made of value imports only are import-x/no-cycle's to report, so every cycle is reported once
 * by one of the two. Modules resolve with the `import-x/resolver-next` resolvers of the file's settings; what
 * resolves into node_modules (or to a Node built-in) is outside the graph, as with no-cycle's `ignoreExternal`.
 */

/** Each resolver's view of a file's dependencies, kept while the file's modification time stays the same. */
const dependencyCache = new WeakMap();

/** The module specifiers a file imports or re-exports, of any kind (value, type, dynamic). */
function specifiersOf(file) {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest);
  const specifiers = new Set();
  const visit = (node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      if (ts.isStringLiteral(node.moduleSpecifier)) specifiers.add(node.moduleSpecifier.text);
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      if (ts.isStringLiteral(node.moduleReference.expression)) specifiers.add(node.moduleReference.expression.text);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [argument] = node.arguments;
      if (argument && ts.isStringLiteralLike(argument)) specifiers.add(argument.text);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      if (ts.isStringLiteral(node.argument.literal)) specifiers.add(node.argument.literal.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return specifiers;
}

/** The project file `specifier` names from `file`, or null when it is external, built in or unresolved. */
function resolveIn(resolvers, specifier, file) {
  for (const resolver of resolvers) {
    const resolved = resolver.resolve(specifier, file);
    if (!resolved.found) continue;
    const found = resolved.path;
    return found && !found.split(path.sep).includes("node_modules") ? found : null;
  }
  return null;
}

/** The project files `file` imports, of any kind. */
function dependenciesOf(resolvers, file) {
  let mtimeMs;
  try {
    mtimeMs = statSync(file).mtimeMs;
  } catch {
    return [];
  }
  let cache = dependencyCache.get(resolvers[0]);
  if (!cache) dependencyCache.set(resolvers[0], (cache = new Map()));
  const cached = cache.get(file);
  if (cached?.mtimeMs === mtimeMs) return cached.dependencies;
  const dependencies = new Set();
  for (const specifier of specifiersOf(file)) {
    const dependency = resolveIn(resolvers, specifier, file);
    if (dependency) dependencies.add(dependency);
  }
  cache.set(file, { mtimeMs, dependencies: [...dependencies] });
  return [...dependencies];
}

/** True for `import type …` and for `import { type A, type B }` (every specifier a type). */
function importsTypesOnly(node) {
  return (
    node.importKind === "type" || (node.specifiers.length > 0 && node.specifiers.every((s) => s.importKind === "type"))
  );
}

/** True for `export type { … } from`, `export type * from` and `export { type A } from` (every specifier a type). */
function exportsTypesOnly(node) {
  return (
    node.exportKind === "type" || (node.specifiers?.length > 0 && node.specifiers.every((s) => s.exportKind === "type"))
  );
}

const noTypeImportCycle = {
  meta: {
    type: "problem",
    docs: { description: "Forbid a type-only import of a module with a dependency path back to the importing file." },
    schema: [],
    messages: {
      cycle: "Dependency cycle through a type-only import via {{route}}",
    },
  },
  create(context) {
    const file = context.physicalFilename;
    const resolvers = [context.settings["import-x/resolver-next"] ?? []]
      .flat()
      .filter((resolver) => typeof resolver?.resolve === "function");
    if (file === "<text>" || resolvers.length === 0) return {};
    const relative = (to) => path.relative(path.dirname(file), to);

    /** Reports `node` when the module `specifier` names leads back to this file (breadth first: the shortest route). */
    function check(node, specifier) {
      const start = resolveIn(resolvers, specifier, file);
      if (!start || start === file) return;
      const seen = new Set([start]);
      const queue = [{ at: start, route: [specifier] }];
      while (queue.length > 0) {
        const { at, route } = queue.shift();
        for (const dependency of dependenciesOf(resolvers, at)) {
          if (dependency === file) {
            context.report({ node, messageId: "cycle", data: { route: [...route, "here"].join(" -> ") } });
            return;
          }
          if (seen.has(dependency)) continue;
          seen.add(dependency);
          queue.push({ at: dependency, route: [...route, relative(dependency)] });
        }
      }
    }

    return {
      ImportDeclaration(node) {
        if (importsTypesOnly(node)) check(node, node.source.value);
      },
      ExportNamedDeclaration(node) {
        if (node.source && exportsTypesOnly(node)) check(node, node.source.value);
      },
      ExportAllDeclaration(node) {
        if (node.exportKind === "type") check(node, node.source.value);
      },
      TSImportType(node) {
        const literal = node.argument?.type === "TSLiteralType" ? node.argument.literal : node.source;
        if (typeof literal?.value === "string") check(node, literal.value);
      },
    };
  },
};

/** The project's own ESLint rules, as a plugin. */
export default { rules: { "no-type-import-cycle": noTypeImportCycle } };

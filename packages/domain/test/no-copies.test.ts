import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import * as domain from "../src";

/**
 * Decision 034: the vocabulary, rules and messages both sides need live once, in @tafsiri/domain.
 * This test reads every source file of apps/ and packages/ (outside packages/domain) with the
 * TypeScript parser (comments are not code, so they may name a rule) and fails on a copy:
 *
 * - a string literal, template text or JSX text that is exactly one of domain's messages (every
 *   exported string with a space in it) or a password criterion's words;
 * - a list of string literals (an array, `z.enum([...])`, a union type, or SQL's `in ('…', '…')`)
 *   holding every member of one of domain's exported lists, in order (`["Control", "Dementia"]`);
 * - a WebSocket close code of domain's (4401, 4403, 1012) written as a number;
 * - a length limit of domain's (`*_MAX_LENGTH`, `*_MAX_CHARS`, `*_MAX_BYTES`) written as a number
 *   in a `maxLength` or in a constant whose name says it is a limit (`const COMMENT_MAX = 5_000`).
 *
 * Tests (`*.test.ts(x)`, `test/`, `e2e/`) are not read: they may quote the texts people see, since
 * checking those texts is what they are for.
 */

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
const SOURCE_DIRS = ["apps/server/src", "apps/web/src", "packages/api/src", "packages/db/src", "packages/ui/src"];
const SOURCE_FILE = /\.(ts|tsx|mts|js|mjs)$/;
const TEST_FILE = /\.(test|spec)\.(ts|tsx)$/;

/** Every source file under `dir` (relative to the repository), tests left out. */
function sourceFiles(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const relative = `${dir}/${entry.name}`;
    if (entry.isDirectory()) {
      if (entry.name !== "node_modules" && entry.name !== "dist" && entry.name !== "test") {
        found.push(...sourceFiles(relative));
      }
    } else if (SOURCE_FILE.test(entry.name) && !TEST_FILE.test(entry.name) && !entry.name.endsWith(".d.ts")) {
      found.push(relative);
    }
  }
  return found;
}

const exported = Object.entries(domain);
const messages = new Set<string>([
  ...exported.flatMap(([, value]) => (typeof value === "string" && value.includes(" ") ? [value] : [])),
  ...domain.PASSWORD_CRITERIA.map((criterion) => criterion.label),
]);
// One entry per list: PARTICIPANT_GROUPS is CATEGORIES itself.
const lists = exported.flatMap(([name, value], i) =>
  Array.isArray(value) &&
  value.length >= 2 &&
  value.every((v) => typeof v === "string") &&
  !exported.slice(0, i).some(([, earlier]) => earlier === value)
    ? [{ name, members: value as string[] }]
    : [],
);
const closeCodes = new Map(
  exported.flatMap(([name, value]) => (/_CLOSE_CODE$/.test(name) ? [[value as number, name] as const] : [])),
);
const limits = exported.flatMap(([name, value]) =>
  /_MAX_(LENGTH|CHARS|BYTES)$/.test(name) ? [{ name, value: value as number }] : [],
);
/** The words of a constant's name that say what it limits: COMMENT of COMMENT_MAX_LENGTH, REASON of MAX_REASON. */
function subjectWords(name: string): string[] {
  return name.split("_").filter((word) => !/^(MAX|MIN|LENGTH|CHARS|BYTES|LIMIT)$/.test(word));
}

/** The value of a number written as a literal or a product of literals (`10 * 1024 * 1024`), else null. */
function numberOf(node: ts.Node): number | null {
  if (ts.isNumericLiteral(node)) return Number(node.text);
  if (ts.isParenthesizedExpression(node)) return numberOf(node.expression);
  if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.AsteriskToken) {
    const left = numberOf(node.left);
    const right = numberOf(node.right);
    return left === null || right === null ? null : left * right;
  }
  return null;
}

/** The string members of an array literal or a union of literal types, in order. */
function stringMembers(node: ts.Node): string[] | null {
  let items: readonly ts.Node[] | null = null;
  if (ts.isArrayLiteralExpression(node)) items = node.elements;
  else if (ts.isUnionTypeNode(node)) items = node.types.map((t) => (ts.isLiteralTypeNode(t) ? t.literal : t));
  if (!items) return null;
  return items.flatMap((item) => (ts.isStringLiteralLike(item) ? [item.text] : []));
}

/** Whether `members` appear in `within` one after another. */
function holdsInOrder(within: readonly string[], members: readonly string[]): boolean {
  for (let start = 0; start + members.length <= within.length; start += 1) {
    if (members.every((member, i) => within[start + i] === member)) return true;
  }
  return false;
}

/** SQL's `'Control', 'Dementia'` inside a string. */
function sqlList(members: readonly string[]): RegExp {
  const quoted = members.map((m) => `'${m.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}'`);
  return new RegExp(quoted.join("\\s*,\\s*"));
}

/** The copies in `text`, the source of `file`, each as `file:line: what`. */
function copiesIn(file: string, text = readFileSync(path.join(ROOT, file), "utf8")): string[] {
  const kind = file.endsWith(".tsx") ? ts.ScriptKind.TSX : file.endsWith("ts") ? ts.ScriptKind.TS : ts.ScriptKind.JS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const copies: string[] = [];
  const report = (node: ts.Node, what: string) => {
    const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
    copies.push(`${file}:${line}: ${what}`);
  };
  const visit = (node: ts.Node) => {
    let texts: string[] = [];
    if (ts.isStringLiteralLike(node)) texts = [node.text];
    else if (ts.isTemplateExpression(node)) texts = [node.head.text, ...node.templateSpans.map((s) => s.literal.text)];
    else if (ts.isJsxText(node)) texts = [node.text.trim()];
    for (const t of texts) {
      if (messages.has(t)) report(node, `the message ${JSON.stringify(t)}`);
      for (const list of lists) {
        if (list.members.every((m) => t.includes(`'${m}'`)) && sqlList(list.members).test(t)) {
          report(node, `${list.name} written out in a string`);
        }
      }
    }
    const members = stringMembers(node);
    if (members) {
      for (const list of lists) {
        if (holdsInOrder(members, list.members)) report(node, `${list.name} written out (${members.join(", ")})`);
      }
    }
    if (ts.isNumericLiteral(node) && closeCodes.has(Number(node.text))) {
      report(node, `${closeCodes.get(Number(node.text))} written as ${node.text}`);
    }
    // A limit as a number: in a maxLength, or in a constant named for the same subject (MAX_REASON, COMMENT_MAX).
    const limitAt = (value: ts.Node | undefined, where: string, subject?: string) => {
      const n = value ? numberOf(value) : null;
      for (const limit of limits) {
        if (n !== limit.value) continue;
        if (subject && !subjectWords(limit.name).some((word) => subjectWords(subject).includes(word))) continue;
        report(value!, `${limit.name} written as ${value!.getText(source)} ${where}`);
      }
    };
    if (ts.isJsxAttribute(node) && node.name.getText(source) === "maxLength") {
      const init = node.initializer;
      limitAt(init && ts.isJsxExpression(init) ? init.expression : undefined, "in maxLength");
    }
    if (ts.isPropertyAssignment(node) && node.name.getText(source) === "maxLength") {
      limitAt(node.initializer, "in maxLength");
    }
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name)) {
      const snakeName = node.name.text.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toUpperCase();
      limitAt(node.initializer, `in ${node.name.text}`, snakeName);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return copies;
}

describe("no copies of @tafsiri/domain's rules and messages (decision 034)", () => {
  const files = SOURCE_DIRS.flatMap(sourceFiles);
  const copies = new Map(files.map((file) => [file, copiesIn(file)] as const));

  it("finds the guarded values (a rename in domain must not leave the check empty)", () => {
    expect(files.length).toBeGreaterThan(300);
    expect(messages).toContain(domain.WEAK_PASSWORD_DESCRIPTION);
    expect(messages).toContain(domain.PARTICIPANT_CODE_MESSAGE);
    expect(messages).toContain("a special character");
    expect(lists.map((l) => l.name)).toContain("CATEGORIES");
    expect([...closeCodes.keys()]).toEqual(expect.arrayContaining([4401, 4403, 1012]));
    expect(limits.map((l) => l.name)).toContain("COMMENT_MAX_LENGTH");
  });

  it("finds a copy where one is written, and not in a comment (the check itself works)", () => {
    const probe = [
      `// ["Control", "Dementia"], 4401 and "Password is weak" in a comment are not copies.`,
      `const GROUPS = z.enum(["Control", "Dementia", "both"]);`,
      `type Group = "Control" | "Dementia";`,
      `const MAX_REASON = 1_000;`,
      `const q = sql\`category in ('Control', 'Dementia')\`;`,
      `toast.error("Password is weak");`,
      `const Meter = () => <p maxLength={5000}>a special character</p>;`,
      `if (cause?.code === 4403) drop();`,
      `const MAX_KEYS_PER_LOOKUP = 1000;`,
      `const notesMax = 5000;`,
    ].join("\n");
    expect(copiesIn("probe.tsx", probe).map((c) => c.replace(/^probe\.tsx:(\d+): (\w+).*/, "$1 $2"))).toEqual([
      "2 CATEGORIES",
      "3 CATEGORIES",
      "4 REVIEW_REASON_MAX_LENGTH",
      "5 CATEGORIES",
      "6 the",
      "7 NOTES_MAX_LENGTH",
      "7 COMMENT_MAX_LENGTH",
      "7 the",
      "8 DEACTIVATED_CLOSE_CODE",
      "10 NOTES_MAX_LENGTH",
    ]);
  });

  it("finds no copy in apps/ or packages/ source outside packages/domain", () => {
    const found = [...copies].flatMap(([, c]) => c);
    expect(found, "import these from @tafsiri/domain instead").toEqual([]);
  });
});

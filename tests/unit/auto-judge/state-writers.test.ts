// A judged version's lifecycle lives in one place (server/auto-judge/lifecycle.ts): no other code under server/,
// scripts/, lib/ or app/ creates an auto_judge_versions row or writes its state. Read from the syntax tree: every
// `….autoJudgeVersion.<write>(…)` call, the object literal it writes, and raw SQL that writes the table.
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const LIFECYCLE = "server/auto-judge/lifecycle.ts";
const CREATES = new Set(["create", "createMany", "createManyAndReturn", "upsert"]);
const UPDATES = new Set(["update", "updateMany", "updateManyAndReturn"]);
const RAW_WRITE = /\b(update\s+"?auto_judge_versions"?|insert\s+into\s+"?auto_judge_versions"?)\b/i;

function sourceFiles(dir: string): string[] {
  if (dir.startsWith(path.join(ROOT, "server/db/generated")) || !fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const p = path.join(dir, d.name);
    if (d.isDirectory()) return sourceFiles(p);
    return /\.tsx?$/.test(d.name) && !d.name.endsWith(".d.ts") && !d.name.endsWith(".test.ts") ? [p] : [];
  });
}

function stateWrites(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const at = (n: ts.Node, what: string) => found.push(`${file}:${source.getLineAndCharacterOfPosition(n.getStart()).line + 1} ${what}`);
  const visit = (n: ts.Node) => {
    if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression) && ts.isPropertyAccessExpression(n.expression.expression) && n.expression.expression.name.text === "autoJudgeVersion") {
      const method = n.expression.name.text;
      if (CREATES.has(method)) at(n, `autoJudgeVersion.${method}`);
      if (UPDATES.has(method)) {
        const arg = n.arguments[0];
        const data = arg && ts.isObjectLiteralExpression(arg) ? arg.properties.find((p) => p.name && ts.isIdentifier(p.name) && p.name.text === "data") : undefined;
        const literal = data && ts.isPropertyAssignment(data) && ts.isObjectLiteralExpression(data.initializer) ? data.initializer : undefined;
        if (!literal) at(n, `autoJudgeVersion.${method} with data that is not an object literal`);
        else if (literal.properties.some((p) => ts.isSpreadAssignment(p) || (p.name && ts.isIdentifier(p.name) && p.name.text === "state"))) at(n, `autoJudgeVersion.${method} writes state`);
      }
    }
    if ((ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n) || ts.isTemplateHead(n)) && RAW_WRITE.test(n.text)) at(n, "raw SQL writes auto_judge_versions");
    ts.forEachChild(n, visit);
  };
  visit(source);
  return found;
}

it("only server/auto-judge/lifecycle.ts creates judged versions or moves their state", { timeout: 120_000 }, () => {
  const writes = ["server", "scripts", "lib", "app"].flatMap((d) => sourceFiles(path.join(ROOT, d))).flatMap((f) => stateWrites(path.relative(ROOT, f), fs.readFileSync(f, "utf8")));
  // The detector sees the lifecycle's own writes (the create and the compare-and-set), so it can fail.
  expect(writes.filter((w) => w.startsWith(LIFECYCLE)).length).toBeGreaterThanOrEqual(2);
  expect(writes.filter((w) => !w.startsWith(LIFECYCLE))).toEqual([]);
});

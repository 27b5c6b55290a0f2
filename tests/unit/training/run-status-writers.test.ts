// A run's lifecycle lives in one place (server/training/lifecycle.ts): no other code under server/, scripts/,
// lib/ or app/ writes a training run's status, its reason or its worker's hold, nor creates a run (a new run's
// first state is the lifecycle's). Read from the syntax tree: every `….trainingRun.<write>(…)` call outside the
// lifecycle, the object literal it writes, and raw SQL that updates or inserts into training_runs.
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const SCANNED = ["server", "scripts", "lib", "app"];
const SKIPPED = [path.join(ROOT, "server/db/generated")];
const LIFECYCLE = "server/training/lifecycle.ts";
/** The fields the lifecycle owns: the status, why, and which worker holds the run until when. */
const OWNED = new Set(["status", "statusReason", "workerId", "leaseUntil"]);
const CREATES = new Set(["create", "createMany", "createManyAndReturn", "upsert"]);
const UPDATES = new Set(["update", "updateMany", "updateManyAndReturn"]);
const RAW_WRITE = /\b(update\s+"?training_runs"?|insert\s+into\s+"?training_runs"?)\b/i;

function sourceFiles(dir: string): string[] {
  if (SKIPPED.some((s) => dir.startsWith(s)) || !fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const p = path.join(dir, d.name);
    if (d.isDirectory()) return sourceFiles(p);
    return /\.tsx?$/.test(d.name) && !d.name.endsWith(".d.ts") && !d.name.endsWith(".test.ts") ? [p] : [];
  });
}

/** Every write of the lifecycle's fields in `text`, as "file:line what". */
function statusWrites(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const at = (n: ts.Node, what: string) => found.push(`${file}:${source.getLineAndCharacterOfPosition(n.getStart()).line + 1} ${what}`);
  const visit = (n: ts.Node) => {
    if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression) && ts.isPropertyAccessExpression(n.expression.expression) && n.expression.expression.name.text === "trainingRun") {
      const method = n.expression.name.text;
      if (CREATES.has(method)) at(n, `trainingRun.${method}: a new run's first status is the lifecycle's (createQueuedRun)`);
      if (UPDATES.has(method)) {
        const arg = n.arguments[0];
        const data = arg && ts.isObjectLiteralExpression(arg) ? arg.properties.find((p) => p.name && ts.isIdentifier(p.name) && p.name.text === "data") : undefined;
        const value = data && ts.isPropertyAssignment(data) ? data.initializer : data && ts.isShorthandPropertyAssignment(data) ? data.name : undefined;
        if (!value || !ts.isObjectLiteralExpression(value)) at(n, `trainingRun.${method} writes data that is not an object literal (it may carry the status)`);
        else
          for (const p of value.properties) {
            if (ts.isSpreadAssignment(p)) at(p, `trainingRun.${method} spreads into its data (it may carry the status)`);
            else if (p.name && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name)) && OWNED.has(p.name.text)) at(p, `trainingRun.${method} writes ${p.name.text}`);
            else if (p.name && ts.isComputedPropertyName(p.name)) at(p, `trainingRun.${method} writes a computed field`);
          }
      }
    }
    if ((ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n) || ts.isTemplateHead(n) || ts.isTemplateMiddle(n) || ts.isTemplateTail(n)) && RAW_WRITE.test(n.text)) at(n, "raw SQL writes training_runs");
    ts.forEachChild(n, visit);
  };
  visit(source);
  return found;
}

describe("a training run's status has one writer", () => {
  it("the finder sees each way a status could be written", () => {
    const sample = [
      `await tx.trainingRun.updateMany({ where: { id, status: "running" }, data: { status: "failed" } });`,
      `await db.trainingRun.update({ where: { id }, data: { ...changes } });`,
      `await db.trainingRun.update({ where: { id }, data: changes });`,
      `await this.#db.trainingRun.updateMany({ where: { id }, data: { workerId: null, leaseUntil: null } });`,
      `await tx.trainingRun.create({ data: { id, status: "queued" } });`,
      'await db.$executeRaw`UPDATE training_runs SET status = ${s} WHERE id = ${id}`;',
      // Reading by status, and writing other fields, are fine.
      `await db.trainingRun.updateMany({ where: { id, status: "running" }, data: { updatesDone: 3, name } });`,
      `await db.trainingRun.findMany({ where: { status: "queued" } });`,
    ].join("\n");
    expect(statusWrites("sample.ts", sample).map((w) => w.split(" ")[0])).toEqual(["sample.ts:1", "sample.ts:2", "sample.ts:3", "sample.ts:4", "sample.ts:4", "sample.ts:5", "sample.ts:6"]);
  });

  it(`nothing under ${SCANNED.join("/, ")}/ writes it but ${LIFECYCLE}`, () => {
    const files = SCANNED.flatMap((d) => sourceFiles(path.join(ROOT, d)));
    expect(files.length).toBeGreaterThan(100);
    const writes = (f: string) => statusWrites(path.relative(ROOT, f), fs.readFileSync(f, "utf8"));
    // The lifecycle itself is seen by the finder (a finder that saw nothing would pass).
    expect(writes(path.join(ROOT, LIFECYCLE)).length).toBeGreaterThan(0);
    expect(files.filter((f) => path.relative(ROOT, f) !== LIFECYCLE).flatMap(writes)).toEqual([]);
  });
});

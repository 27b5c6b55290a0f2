// No import circles (house style): every static import and re-export between the project's own modules,
// type-only ones included, resolved the way tsc resolves them (paths like "@/server/…"), must form no cycle.
// A lazy `await import()` inside a function would not be an edge (the project has none between its own modules).
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const SCANNED = ["server", "lib", "components", "app"];
const SKIPPED = [path.join(ROOT, "server/db/generated")]; // Prisma's generated client

function sourceFiles(dir: string): string[] {
  if (SKIPPED.some((s) => dir.startsWith(s)) || !fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const p = path.join(dir, d.name);
    if (d.isDirectory()) return sourceFiles(p);
    return /\.tsx?$/.test(d.name) && !d.name.endsWith(".d.ts") ? [p] : [];
  });
}

function compilerOptions(): ts.CompilerOptions {
  const file = path.join(ROOT, "tsconfig.json");
  const { config } = ts.readConfigFile(file, ts.sys.readFile);
  return ts.parseJsonConfigFileContent(config, ts.sys, ROOT).options;
}

/** The project files each file imports at load time (static imports and `export … from`). */
function importGraph(files: string[]): Map<string, string[]> {
  const options = compilerOptions();
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const source = ts.createSourceFile(file, fs.readFileSync(file, "utf8"), ts.ScriptTarget.Latest, false);
    const specifiers = source.statements.flatMap((s) =>
      (ts.isImportDeclaration(s) || ts.isExportDeclaration(s)) && s.moduleSpecifier && ts.isStringLiteral(s.moduleSpecifier) ? [s.moduleSpecifier.text] : [],
    );
    const targets = specifiers
      .map((spec) => ts.resolveModuleName(spec, file, options, ts.sys).resolvedModule?.resolvedFileName)
      .filter((t): t is string => t !== undefined && known.has(path.resolve(t)))
      .map((t) => path.resolve(t));
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** Tarjan's strongly connected components of more than one file (or a file importing itself). */
function cycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    for (let w = stack.pop()!; ; w = stack.pop()!) {
      onStack.delete(w);
      component.push(w);
      if (w === v) break;
    }
    if (component.length > 1 || graph.get(v)!.includes(v)) found.push(component.map((f) => path.relative(ROOT, f)).sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

/** Every import edge from a file under `from/` to a file under `to/`, as "importer → imported" (relative paths). */
function edgesBetween(graph: Map<string, string[]>, from: string, to: string): string[] {
  const under = (f: string, dir: string) => path.relative(ROOT, f).startsWith(`${dir}/`);
  return [...graph].flatMap(([file, targets]) => (under(file, from) ? targets.filter((t) => under(t, to)).map((t) => `${path.relative(ROOT, file)} → ${path.relative(ROOT, t)}`) : []));
}

describe("import graph", () => {
  it("the cycle finder finds a circle through a type-only import", () => {
    const [a, b, c] = ["/x/a.ts", "/x/b.ts", "/x/c.ts"];
    expect(cycles(new Map([[a!, [b!]], [b!, [c!]], [c!, [a!]]]))).toHaveLength(1);
    expect(cycles(new Map([[a!, [b!]], [b!, [c!]], [c!, []]]))).toEqual([]);
  });

  it(`has no import circle in ${SCANNED.join("/, ")}/`, () => {
    const files = SCANNED.flatMap((d) => sourceFiles(path.join(ROOT, d)));
    expect(files.length).toBeGreaterThan(100);
    const graph = importGraph(files);
    // The resolver really follows "@/…" paths and relative imports (a graph without edges would pass).
    expect([...graph.values()].reduce((n, t) => n + t.length, 0)).toBeGreaterThan(files.length);
    expect(cycles(graph)).toEqual([]);
  });

  // House rules between layers (issue 24): the audit log signs with a key that is not the receipts' business,
  // and approvals build on receipts, never the other way round (what both need lives in server/promotion,
  // server/candidates or server/keys).
  it("server/audit imports nothing from server/receipts; server/receipts imports nothing from server/approvals", () => {
    const files = SCANNED.flatMap((d) => sourceFiles(path.join(ROOT, d)));
    const graph = importGraph(files);
    expect(edgesBetween(graph, "server/approvals", "server/receipts").length).toBeGreaterThan(0); // the finder sees edges
    expect(edgesBetween(graph, "server/audit", "server/receipts")).toEqual([]);
    expect(edgesBetween(graph, "server/receipts", "server/approvals")).toEqual([]);
  });
});

// One home for canonical JSON and digests: server/digest.ts is the only module that turns values into bytes
// to hash, chain or sign (RFC 8785 via the `canonicalize` package, SHA-256). No other module imports
// `canonicalize`, re-exports those helpers under another name or path, or hashes with node:crypto itself,
// so a receipt, an audit row and a signature can never disagree on the bytes of the same value.
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { canonicalJson, digestOf, hexId, sha256Digest } from "@/server/digest";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const HOME = "server/digest.ts";
// Hashes that are not content digests: an API key's secret (compared in constant time) and a PRNG's seed words.
const OWN_HASHES = new Set(["server/auth/api-keys.ts", "server/environments/prng.ts"]);

function sourceFiles(dir: string): string[] {
  if (dir.includes(`${path.sep}generated`)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const p = path.join(dir, d.name);
    if (d.isDirectory()) return sourceFiles(p);
    return /\.tsx?$/.test(d.name) && !d.name.endsWith(".d.ts") ? [p] : [];
  });
}

type Finding = { file: string; what: string };

function findings(): Finding[] {
  const out: Finding[] = [];
  for (const abs of ["server", "lib", "components", "app"].flatMap((d) => sourceFiles(path.join(ROOT, d)))) {
    const file = path.relative(ROOT, abs);
    if (file === HOME) continue;
    const source = ts.createSourceFile(abs, fs.readFileSync(abs, "utf8"), ts.ScriptTarget.Latest, true);
    for (const s of source.statements) {
      const spec = (ts.isImportDeclaration(s) || ts.isExportDeclaration(s)) && s.moduleSpecifier && ts.isStringLiteral(s.moduleSpecifier) ? s.moduleSpecifier.text : null;
      if (spec === "canonicalize") out.push({ file, what: "imports canonicalize" });
      if (ts.isExportDeclaration(s) && spec !== null && /(^|\/)digest$/.test(spec)) out.push({ file, what: `re-exports ${spec}` });
      // A module-level helper of its own (a local `const canonical = canonicalJson(x)` is fine).
      const names = ts.isFunctionDeclaration(s) ? [s.name] : ts.isVariableStatement(s) ? s.declarationList.declarations.map((d) => d.name) : [];
      for (const n of names) if (n && ts.isIdentifier(n) && /canonical|stableStringify/i.test(n.text)) out.push({ file, what: `defines ${n.text}` });
    }
    const visit = (node: ts.Node) => {
      const callee = ts.isCallExpression(node) ? node.expression : null;
      const name = callee && (ts.isIdentifier(callee) ? callee.text : ts.isPropertyAccessExpression(callee) ? callee.name.text : null);
      if (name === "createHash" && !OWN_HASHES.has(file)) {
        out.push({ file, what: "hashes with createHash" });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return out;
}

describe("canonical JSON and digests", () => {
  it("live in server/digest.ts only", () => {
    expect(findings()).toEqual([]);
  });

  it("keep their bytes (RFC 8785: sorted keys by UTF-16 units, ES number form, minimal escapes)", () => {
    const value = { b: [1, 2.5, 1e21, -0, 1e-7], a: 'é\u2028"\u0001', c: { z: null, y: true, "10": 1, "1": 2 }, "€": "x" };
    expect(canonicalJson(value)).toBe('{"a":"é\u2028\\"\\u0001","b":[1,2.5,1e+21,0,1e-7],"c":{"1":2,"10":1,"y":true,"z":null},"€":"x"}');
    expect(digestOf(value)).toBe("sha256:db8a51e87bd7f22d82140f1134197cad73f59e458908273785fc0480f1eed95c");
    expect(sha256Digest("abc")).toBe("sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(hexId(12, "ticket", 7)).toBe("f0dbb09c9484");
    expect(() => canonicalJson(undefined)).toThrow(/no JSON form/);
  });
});

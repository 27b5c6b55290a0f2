// Integration files share their worker's module graph (vitest.config.ts): one that changes process-wide state must
// be listed in tests/own-module-graph.ts, or the next file in its worker would see the change.
import fs from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { OWN_MODULE_GRAPH } from "../../own-module-graph";

const PROCESS_WIDE = [/process\.env(\.[A-Z_]+|\[[^\]]+\])\s*=[^=]/, /delete process\.env/, /\bvi\.(spyOn|mock|doMock|stubEnv|stubGlobal|useFakeTimers)\(/, /import\(path\.resolve\("app\//];

function files(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name)) : e.name.endsWith(".test.ts") ? [path.join(dir, e.name)] : []));
}

it("every integration file that changes process-wide state runs with a module graph of its own", () => {
  const changing = files("tests/integration").filter((f) => PROCESS_WIDE.some((re) => re.test(fs.readFileSync(f, "utf8"))));
  expect(changing.length).toBeGreaterThan(0);
  expect(changing.filter((f) => !OWN_MODULE_GRAPH.includes(f))).toEqual([]);
  for (const f of OWN_MODULE_GRAPH) expect(fs.existsSync(f), f).toBe(true);
});

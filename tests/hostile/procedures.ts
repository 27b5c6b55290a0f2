// Every tRPC procedure of appRouter with its type, scope and a minimal valid input (tests/helpers/minimal-input).
// Run as a script (`tsx tests/hostile/procedures.ts` prints them as JSON) because Playwright's loader cannot
// import the router (server/version.ts imports package.json without an import attribute).
import { execFileSync } from "node:child_process";
import path from "node:path";
import type { Scope } from "@/lib/auth/scopes";

export type Procedure = { path: string; type: "query" | "mutation"; scope?: Scope; base: unknown };

export function listProcedures(): Procedure[] {
  const out = execFileSync(path.join(process.cwd(), "node_modules/.bin/tsx"), ["tests/hostile/procedures.ts"], { encoding: "utf8", maxBuffer: 16 << 20 });
  return JSON.parse(out) as Procedure[];
}

async function print() {
  const { appRouter } = await import("@/server/routers/_app");
  const { minimalInput } = await import("../helpers/minimal-input");
  type Def = { _def: { type: string; meta?: { scope?: Scope }; inputs: unknown[] } };
  const procs = Object.entries(appRouter._def.procedures as unknown as Record<string, Def>)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([p, d]): Procedure => {
      const m = minimalInput(d._def.inputs);
      return { path: p, type: d._def.type as Procedure["type"], scope: d._def.meta?.scope, base: m.ok ? m.value : {} };
    });
  process.stdout.write(JSON.stringify(procs));
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve("tests/hostile/procedures.ts")) {
  print().then(
    () => process.exit(0),
    (e: unknown) => {
      console.error(e);
      process.exit(1);
    },
  );
}

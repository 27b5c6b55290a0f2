// The hostile-input suite against one running server: identities, real objects to aim at, then each route
// family's generated requests (fast-check, fixed seed) with the checks of runner.ts. Used by
// e2e/hostile.spec.ts (in `npm test`) and bench/hostile.ts (`npm run bench:hostile`, full size, both databases).
import { obtainCredentials } from "./credentials";
import { makeFixtures, type SuiteContext } from "./context";
import { closeConnections } from "./http";
import { listProcedures } from "./procedures";
import { openRowCounter } from "./row-counts";
import { runFamily, type FamilyCases, type FamilyReport } from "./runner";
import { authCases } from "./families/auth";
import { otlpCases } from "./families/otlp";
import { pointerCases } from "./families/pointers";
import { storeCases } from "./families/store";
import { trpcCases } from "./families/trpc";

export const DEFAULT_SEED = 20_261_201;

/**
 * In this order: what the store and OTLP families store (magic keys in rollout metadata, span attributes)
 * is then read back by the tRPC family's dashboard queries; auth runs last, since its wrong passwords lock
 * the demo accounts (sessions made earlier stay valid).
 */
export const FAMILIES: Record<string, (ctx: SuiteContext) => FamilyCases> = { store: storeCases, otlp: otlpCases, trpc: trpcCases, pointers: pointerCases, auth: authCases };
export type FamilyName = keyof typeof FAMILIES;

export async function prepareSuite(server: { url: URL; origin: string; databaseUrl: string }): Promise<SuiteContext> {
  const creds = await obtainCredentials(server.url, server.origin, server.databaseUrl);
  return { url: server.url, creds, fixtures: await makeFixtures(server.url, server.databaseUrl, creds), procedures: listProcedures() };
}

export async function runSuite(opts: { ctx: SuiteContext; databaseUrl: string; runs: number; seed?: number; families?: string[]; log?: (line: string) => void }): Promise<FamilyReport[]> {
  const counter = await openRowCounter(opts.databaseUrl);
  const reports: FamilyReport[] = [];
  try {
    for (const [i, name] of Object.keys(FAMILIES).entries()) {
      if (opts.families && !opts.families.includes(name)) continue;
      const seed = (opts.seed ?? DEFAULT_SEED) + i;
      reports.push(await runFamily({ family: name, url: opts.ctx.url, counter, cases: FAMILIES[name]!(opts.ctx), runs: opts.runs, seed, log: opts.log }));
      opts.log?.(summaryLine(reports.at(-1)!));
    }
  } finally {
    await counter.close();
    closeConnections();
  }
  return reports;
}

export function summaryLine(r: FamilyReport): string {
  const t = r.tally;
  return `${r.family.padEnd(9)} ${String(r.requests).padStart(6)} requests  ${String(t["5xx"]).padStart(4)} ≥500  ${String(t["unnamed-4xx"]).padStart(4)} unnamed 4xx  ${String(t["half-written"]).padStart(3)} half-written  ${String(t["not-refused"]).padStart(3)} not refused  ${String(t["no-answer"] + t["server-down"]).padStart(3)} unanswered  ${r.seconds.toFixed(1).padStart(6)} s`;
}

/** Every violation group, with one example request each. */
export function violationReport(reports: FamilyReport[]): string {
  const lines: string[] = [];
  for (const r of reports) {
    for (const v of r.violations) lines.push(`[${r.family}] ${v.kind} ×${v.count} — ${v.route} → ${v.status}\n    ${v.detail}\n    e.g. ${v.request}`);
  }
  return lines.join("\n");
}

/** Violations by class (kind, status, route prefix, what went wrong): the short list to act on. */
export function classReport(reports: FamilyReport[]): string {
  const classes = new Map<string, { count: number; routes: Set<string> }>();
  for (const r of reports)
    for (const v of r.violations) {
      const c = classes.get(v.violationClass) ?? { count: 0, routes: new Set<string>() };
      c.count += v.count;
      c.routes.add(v.route);
      classes.set(v.violationClass, c);
    }
  return [...classes.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, c]) => `  ×${String(c.count).padStart(4)}  ${k}   (${c.routes.size} routes, e.g. ${[...c.routes][0]})`)
    .join("\n");
}

export const violationsOf = (reports: FamilyReport[]) => reports.reduce((n, r) => n + r.violations.reduce((m, v) => m + v.count, 0), 0);

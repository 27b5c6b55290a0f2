// Sends one family's generated requests to the real server, one at a time, and checks each answer:
// nothing ≥ 500, every refusal names what is wrong, a refused request changed no row count (beyond the
// tables where refusals are recorded), a request that must be refused is, and the server still answers.
// Every violation is kept with its request, grouped by kind + route + status.
import fc from "fast-check";
import { send, unanswered, type Answer, type HostileCase } from "./http";
import { judge } from "./rules";
import { countChanges, type RowCounter, type RowCounts } from "./row-counts";

export type ViolationKind = "5xx" | "unnamed-4xx" | "half-written" | "not-refused" | "no-answer" | "server-down";
export type Violation = { kind: ViolationKind; violationClass: string; route: string; status: number; detail: string; request: string; count: number };
export type FamilyReport = {
  family: string;
  requests: number;
  seconds: number;
  statuses: Record<string, number>;
  tally: Record<ViolationKind, number>;
  violations: Violation[];
};
export type FamilyCases = { fixed: HostileCase[]; random: fc.Arbitrary<HostileCase> };

const KINDS: ViolationKind[] = ["5xx", "unnamed-4xx", "half-written", "not-refused", "no-answer", "server-down"];
const HEALTH_EVERY = 100;

/** The kind of failure, without the ids and names that vary between requests (for a summary by class). */
export function classOf(kind: ViolationKind, status: number, path: string, detail: string): string {
  const where = path.split("?")[0]!.split("/").slice(0, 3).join("/");
  const what = detail.split(" — ")[0]!.replace(/"[^"]*"/g, '"…"').replace(/\b(ro|at|cand|usr|ak)-[\w-]+/g, "<id>").slice(0, 110);
  return `${kind} ${status || "-"} ${where}: ${what}`;
}

export function describeRequest(c: HostileCase): string {
  const shown = ["content-type", "content-encoding", "origin", "sec-fetch-site"].filter((h) => c.headers[h] !== undefined).map((h) => `${h}: ${c.headers[h]}`);
  const body = c.body === undefined ? "" : ` body(${c.body.length} B): ${JSON.stringify(c.body.subarray(0, 240).toString("latin1"))}`;
  return `${c.method} ${c.path.length > 300 ? `${c.path.slice(0, 300)}…` : c.path} [as ${c.who ?? "?"}${shown.length ? `; ${shown.join("; ")}` : ""}]${body}`;
}

async function answers(url: URL): Promise<string | null> {
  for (const p of ["/api/health", "/v1/agl/health"]) {
    const a = await send(url, { route: "health", method: "GET", path: p, headers: {} }, 10_000);
    if (a.status !== 200) return `${p} → ${unanswered(a) ? a.error : a.status}`;
  }
  return null;
}

/** Waits until no row count moves for a moment (background work, such as the watchdog, finished). */
async function settled(counter: RowCounter): Promise<RowCounts> {
  let last = await counter.counts();
  for (let i = 0; i < 30; i++) {
    await new Promise((r) => setTimeout(r, 100));
    const now = await counter.counts();
    if (Object.keys(countChanges(last, now)).length === 0) return now;
    last = now;
  }
  return last;
}

function unexpectedChanges(c: HostileCase, before: RowCounts, after: RowCounts): Record<string, string> {
  const changes = countChanges(before, after);
  for (const t of Object.keys(changes)) if (c.refusalRecordedIn?.some((r) => r.test(t))) delete changes[t];
  return changes;
}

export async function runFamily(opts: { family: string; url: URL; counter: RowCounter; cases: FamilyCases; runs: number; seed: number; log?: (line: string) => void }): Promise<FamilyReport> {
  const t0 = performance.now();
  const { fixed, random } = opts.cases;
  const cases = [...fixed, ...fc.sample(random, { seed: opts.seed, numRuns: Math.max(0, opts.runs - fixed.length) })];
  const report: FamilyReport = { family: opts.family, requests: 0, seconds: 0, statuses: {}, tally: Object.fromEntries(KINDS.map((k) => [k, 0])) as Record<ViolationKind, number>, violations: [] };
  const groups = new Map<string, Violation>();
  const record = (kind: ViolationKind, c: HostileCase, status: number, detail: string) => {
    report.tally[kind]++;
    const key = `${kind} ${c.route} ${status}`;
    const seen = groups.get(key);
    if (seen) seen.count++;
    else groups.set(key, { kind, violationClass: classOf(kind, status, c.path, detail), route: c.route, status, detail, request: describeRequest(c), count: 1 });
  };

  for (const [i, c] of cases.entries()) {
    const before = await opts.counter.counts();
    const a: Answer = await send(opts.url, c);
    report.requests++;
    report.statuses[String(a.status)] = (report.statuses[String(a.status)] ?? 0) + 1;
    if (unanswered(a)) {
      if (c.dropAfterBytes === undefined) record("no-answer", c, 0, a.error);
      else {
        const changes = unexpectedChanges(c, before, await settled(opts.counter));
        if (Object.keys(changes).length) record("half-written", c, 0, `a dropped upload still wrote: ${JSON.stringify(changes)}`);
      }
    } else {
      const j = judge(c, a);
      if (j.serverError) record("5xx", c, a.status, j.serverError);
      if (j.unnamed) record("unnamed-4xx", c, a.status, j.unnamed);
      if (c.mustRefuse && !j.refused) record("not-refused", c, a.status, `${c.mustRefuse}, yet answered ${a.status}`);
      else if (c.mustRefuse && c.refuseWith && a.status !== c.refuseWith) record("not-refused", c, a.status, `${c.mustRefuse}: expected ${c.refuseWith}, got ${a.status}`);
      if (j.refused && c.mustName && !a.body.toString("utf8").toLowerCase().includes(c.mustName.toLowerCase())) record("unnamed-4xx", c, a.status, `the refusal does not name "${c.mustName}" — ${a.body.toString("utf8").slice(0, 160)}`);
      if (j.refused) {
        const changes = unexpectedChanges(c, before, await opts.counter.counts());
        if (Object.keys(changes).length && (await stillWrites(opts, c))) record("half-written", c, a.status, `refused, yet wrote: ${JSON.stringify(changes)}`);
      }
    }
    if ((i + 1) % HEALTH_EVERY === 0 || i === cases.length - 1) {
      const down = await answers(opts.url);
      if (down) {
        record("server-down", c, 0, `after ${i + 1} requests the server no longer answers: ${down}`);
        break;
      }
      opts.log?.(`${opts.family}: ${i + 1}/${cases.length}`);
    }
  }
  report.violations = [...groups.values()];
  report.seconds = Math.round((performance.now() - t0) / 100) / 10;
  return report;
}

/** A count moved around a refusal: once background work has settled, does the same request write again? */
async function stillWrites(opts: { url: URL; counter: RowCounter }, c: HostileCase): Promise<boolean> {
  const before = await settled(opts.counter);
  const again = await send(opts.url, c);
  if (unanswered(again) || !judge(c, again).refused) return false;
  return Object.keys(unexpectedChanges(c, before, await opts.counter.counts())).length > 0;
}

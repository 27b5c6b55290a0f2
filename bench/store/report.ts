// The bench's tables: medians of the runs with their ranges, and per phase the client's and servers' CPU
// (% of one core) and the 1-minute load average when the phase ended.
import type { BenchResult, PhaseName } from "./phases";

export type Series = { label: string; client: string; runs: BenchResult[] };

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const int = (n: number) => Math.round(n).toLocaleString("en-US");
const ms = (n: number) => `${n.toFixed(1)} ms`;

function cell(xs: number[], f: (n: number) => string): string {
  if (xs.length === 0) return "—";
  if (xs.length === 1) return f(xs[0]!);
  return `**${f(median(xs))}** (${f(Math.min(...xs))}–${f(Math.max(...xs))})`;
}

const pick = (runs: BenchResult[], phase: PhaseName) =>
  runs.map((r) => (phase === "query" ? r.query?.cpu : r[phase]?.cpu)).filter((c): c is NonNullable<typeof c> => c !== undefined);

export function printTables(series: Series[], seconds: number) {
  console.log(`\nstore bench — ${seconds}s per phase; medians (ranges) of the runs; CPU as % of one core`);
  console.log("| server · database | runs | enqueue/s (×100) | cycles/s (8 workers) | REST spans/s (c=16) | OTLP spans/s (100/req) | query 1,000 spans p50 | p99 | p50 + client decode |");
  console.log("| --- | --- | --- | --- | --- | --- | --- | --- | --- |");
  for (const s of series) {
    const rate = (p: "enqueue" | "cycles" | "rest" | "otlp") => cell(s.runs.flatMap((r) => (r[p] ? [r[p].rate] : [])), int);
    const q = (k: "p50" | "p99" | "p50Decoded") => cell(s.runs.flatMap((r) => (r.query ? [r.query[k]] : [])), ms);
    console.log(`| ${s.label} | ${s.runs.length} | ${rate("enqueue")} | ${rate("cycles")} | ${rate("rest")} | ${rate("otlp")} | ${q("p50")} | ${q("p99")} | ${q("p50Decoded")} |`);
  }
  console.log("\nCPU per phase (median over the runs: client / server, % of one core) and the 1-min load average at the phase's end (range)");
  console.log("| server · database | measured by | enqueue | cycles | REST spans | OTLP | query |");
  console.log("| --- | --- | --- | --- | --- | --- | --- |");
  for (const s of series) {
    const cols = (["enqueue", "cycles", "rest", "otlp", "query"] as const).map((p) => {
      const cpus = pick(s.runs, p);
      if (cpus.length === 0) return "—";
      const servers = cpus.flatMap((c) => (c.server === null ? [] : [c.server]));
      const server = servers.length === cpus.length ? `${Math.round(median(servers))}%` : "server CPU unknown";
      const dbs = cpus.flatMap((c) => (c.db === null ? [] : [c.db]));
      const db = dbs.length === cpus.length ? ` / db ${Math.round(median(dbs))}%` : "";
      const loads = cpus.map((c) => c.load);
      const gc = p === "query" ? ` · client GC ${cell(s.runs.flatMap((r) => (r.query ? [r.query.clientGcMs] : [])), int)} ms` : "";
      return `${Math.round(median(cpus.map((c) => c.client)))}% / ${server}${db} · load ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}${gc}`;
    });
    console.log(`| ${s.label} | ${s.client} | ${cols.join(" | ")} |`);
  }
  // CPU time per operation depends far less on how busy the machine is than throughput does (at load 15+
  // it still moves by a third between runs): the figure to compare changes by on a shared machine.
  console.log("\nCPU time per operation (median (range) of the server process(es); + the database backends' median; · the load client's median), µs");
  console.log("| server · database | per rollout enqueued | per cycle | per REST span | per OTLP span |");
  console.log("| --- | --- | --- | --- | --- |");
  for (const s of series) {
    const cols = (["enqueue", "cycles", "rest", "otlp"] as const).map((p) => {
      const per = s.runs.flatMap((r) => {
        const t = r[p];
        if (!t || t.cpu.server === null || t.rate === 0) return [];
        return [{ server: (t.cpu.server / 100 / t.rate) * 1e6, db: t.cpu.db === null ? null : (t.cpu.db / 100 / t.rate) * 1e6 }];
      });
      if (per.length === 0) return "—";
      const dbs = per.flatMap((x) => (x.db === null ? [] : [x.db]));
      // The load client's share, from the same runs: on a machine it shares, it is taken from the servers.
      const client = median(s.runs.flatMap((r) => (r[p] && r[p].rate > 0 ? [(r[p].cpu.client / 100 / r[p].rate) * 1e6] : [])));
      // With the range: on a shared machine one run's figure can be off by a third.
      return `${cell(per.map((x) => x.server), int)}${dbs.length === per.length ? ` + ${Math.round(median(dbs))}` : ""} · client ${Math.round(client)}`;
    });
    console.log(`| ${s.label} | ${cols.join(" | ")} |`);
  }
  printRatios(series);
}

/**
 * Each series against the first (the reference, when it was measured), round by round: the k-th runs of two
 * series ran minutes apart, so their ratio drifts less with the machine than the ratio of their medians.
 */
function printRatios(series: Series[]) {
  const [base, ...rest] = series;
  if (!base || rest.length === 0) return;
  const paired = rest.filter((s) => s.runs.length === base.runs.length);
  if (paired.length === 0) return;
  const x = (n: number) => `${n.toFixed(2)}×`;
  console.log(`\nAgainst ${base.label}, round by round (median (range) of the rounds' ratios; query: its time over ours)`);
  console.log("| server · database | enqueue | cycles | REST spans | OTLP | query p50 | query p99 |");
  console.log("| --- | --- | --- | --- | --- | --- | --- |");
  for (const s of paired) {
    const rates = (["enqueue", "cycles", "rest", "otlp"] as const).map((p) =>
      cell(s.runs.flatMap((r, i) => (r[p] && base.runs[i]![p]?.rate ? [r[p].rate / base.runs[i]![p]!.rate] : [])), x),
    );
    const query = (["p50", "p99"] as const).map((k) => cell(s.runs.flatMap((r, i) => (r.query && base.runs[i]!.query ? [base.runs[i]!.query![k] / r.query[k]] : [])), x));
    console.log(`| ${s.label} | ${[...rates, ...query].join(" | ")} |`);
  }
}

// Sustained load (`--sustain SECONDS`): OTLP ingest at the maximum rate (4 requests of 100 spans in flight,
// spread over the targets) for a long time, the servers' resident memory sampled every second and the
// database's size at the start and the end — memory should stay flat while the database grows with the spans.
import fs from "node:fs";
import type { Target } from "./http";
import { otlpBody } from "./payloads";

/** Resident set size of a process in bytes (Linux /proc), or null. */
function rssBytes(pid: number): number | null {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}

export type SustainResult = { seconds: number; spans: number; rss: { first: number; last: number; max: number }[]; dbBefore: number; dbAfter: number };

type Claim = { rollout_id: string; attempt: { attempt_id: string } };

export async function sustain(targets: Target[], seconds: number, serverPids: number[], dbBytes: () => Promise<number>): Promise<SustainResult> {
  // A new rollout every 10,000 spans, as real runs spread their spans over many rollouts.
  const attempts = await Promise.all(Array.from({ length: 4 }, (_, w) => targets[w % targets.length]!.api<Claim>("/rollouts", { input: "sustain" })));
  const dbBefore = await dbBytes();
  const samples: number[][] = serverPids.map(() => []);
  const sampler = setInterval(() => serverPids.forEach((pid, i) => samples[i]!.push(rssBytes(pid) ?? NaN)), 1000);
  const end = Date.now() + seconds * 1000;
  const t0 = performance.now();
  let spans = 0;
  let lastReport = Date.now();
  await Promise.all(
    attempts.map(async (_, w) => {
      const t = targets[w % targets.length]!;
      let sent = 0;
      while (Date.now() < end) {
        if (sent >= 10_000) {
          attempts[w] = await t.api<Claim>("/rollouts", { input: "sustain" });
          sent = 0;
        }
        const a = attempts[w]!;
        const res = await t.request("POST", "/v1/traces", otlpBody(a.rollout_id, a.attempt.attempt_id, 100), { "content-type": "application/x-protobuf" });
        if (res.status !== 200) throw new Error(`otlp → ${res.status} ${res.body.toString().slice(0, 200)}`);
        sent += 100;
        spans += 100;
        if (Date.now() - lastReport > 60_000) {
          lastReport = Date.now();
          const rss = serverPids.map((pid) => ((rssBytes(pid) ?? 0) / 2 ** 20).toFixed(0)).join("/");
          console.log(`  sustain: ${Math.round((performance.now() - t0) / 1000)} s, ${spans.toLocaleString("en-US")} spans, RSS ${rss} MiB`);
        }
      }
    }),
  );
  clearInterval(sampler);
  const elapsed = (performance.now() - t0) / 1000;
  const rss = samples.map((xs) => {
    const ok = xs.filter((x) => Number.isFinite(x));
    return { first: ok[0] ?? NaN, last: ok[ok.length - 1] ?? NaN, max: Math.max(...ok) };
  });
  return { seconds: elapsed, spans, rss, dbBefore, dbAfter: await dbBytes() };
}

export function printSustain(label: string, r: SustainResult) {
  const mib = (n: number) => `${(n / 2 ** 20).toFixed(0)} MiB`;
  console.log(`\nsustained OTLP ingest · ${label}: ${Math.round(r.seconds)} s, ${r.spans.toLocaleString("en-US")} spans (${Math.round(r.spans / r.seconds).toLocaleString("en-US")}/s)`);
  r.rss.forEach((x, i) => console.log(`  server ${i + 1} RSS first ${mib(x.first)}, last ${mib(x.last)}, max ${mib(x.max)}`));
  console.log(`  database ${mib(r.dbBefore)} → ${mib(r.dbAfter)} (+${mib(r.dbAfter - r.dbBefore)}, ${((r.dbAfter - r.dbBefore) / Math.max(1, r.spans)).toFixed(0)} bytes per span)`);
}

// Sustained load (`--sustain SECONDS [--retention SECONDS]`): OTLP ingest at the maximum rate (4 requests of
// 100 spans in flight, spread over the targets) for a long time; each worker's rollout is finished after
// 10,000 spans and a new one started, as real runs spread their spans over many rollouts. The servers' resident
// memory is sampled every second and the database's size every five. With retention on, the database should
// level off while ingest goes on — and one finished rollout held as a receipt's evidence (a retention hold,
// what the gate adds) must keep every span.
import fs from "node:fs";
import { openDatabase } from "../../server/db/client";
import { resolveDbTarget } from "../../server/db/config";
import { storeFor } from "../../server/store";
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

type Series = { first: number; last: number; max: number };
export type SustainResult = {
  seconds: number;
  spans: number;
  rss: Series[];
  dbBefore: number;
  dbAfter: number;
  /** Database size at each quarter of the run (after the first, second, third and last). */
  dbQuarters: number[];
  dbMax: number;
  rollouts: { finished: number; left: number };
  held: { spans: number; kept: number };
};

type Claim = { rollout_id: string; attempt: { attempt_id: string } };

const series = (xs: number[]): Series => {
  const ok = xs.filter((x) => Number.isFinite(x));
  return { first: ok[0] ?? NaN, last: ok[ok.length - 1] ?? NaN, max: Math.max(...ok) };
};

async function otlp(t: Target, a: Claim, count: number) {
  const res = await t.request("POST", "/v1/traces", otlpBody(a.rollout_id, a.attempt.attempt_id, count), { "content-type": "application/x-protobuf" });
  if (res.status !== 200) throw new Error(`otlp → ${res.status} ${res.body.toString().slice(0, 200)}`);
}
const finish = (t: Target, a: Claim) => t.api(`/rollouts/${a.rollout_id}/attempts/${a.attempt.attempt_id}`, { status: "succeeded" });

export async function sustain(targets: Target[], seconds: number, serverPids: number[], databaseUrl: string, dbBytes: () => Promise<number>): Promise<SustainResult> {
  const first = targets[0]!;
  // A receipt's evidence: a finished rollout of 1,000 spans under a retention hold, as the gate holds them.
  const held = await first.api<Claim>("/rollouts", { input: "held evidence" });
  for (let i = 0; i < 10; i++) await otlp(first, held, 100);
  await finish(first, held);
  const database = await openDatabase(resolveDbTarget(databaseUrl));
  const store = storeFor(database);
  try {
    await store.holdRollouts([held.rollout_id], "bench: a receipt's evidence");
    const attempts = await Promise.all(Array.from({ length: 4 }, (_, w) => targets[w % targets.length]!.api<Claim>("/rollouts", { input: "sustain" })));
    const dbBefore = await dbBytes();
    const rssSamples: number[][] = serverPids.map(() => []);
    const dbSamples: number[] = [];
    const rssTimer = setInterval(() => serverPids.forEach((pid, i) => rssSamples[i]!.push(rssBytes(pid) ?? NaN)), 1000);
    const dbTimer = setInterval(() => void dbBytes().then((n) => dbSamples.push(n), () => {}), 5000);
    const end = Date.now() + seconds * 1000;
    const t0 = performance.now();
    let spans = 0;
    let finished = 0;
    let lastReport = Date.now();
    await Promise.all(
      attempts.map(async (_, w) => {
        const t = targets[w % targets.length]!;
        let sent = 0;
        while (Date.now() < end) {
          if (sent >= 10_000) {
            await finish(t, attempts[w]!);
            finished++;
            attempts[w] = await t.api<Claim>("/rollouts", { input: "sustain" });
            sent = 0;
          }
          await otlp(t, attempts[w]!, 100);
          sent += 100;
          spans += 100;
          if (Date.now() - lastReport > 60_000) {
            lastReport = Date.now();
            const rss = serverPids.map((pid) => ((rssBytes(pid) ?? 0) / 2 ** 20).toFixed(0)).join("/");
            const db = dbSamples.length ? `${(dbSamples[dbSamples.length - 1]! / 2 ** 20).toFixed(0)} MiB` : "?";
            console.log(`  sustain: ${Math.round((performance.now() - t0) / 1000)} s, ${spans.toLocaleString("en-US")} spans, RSS ${rss} MiB, database ${db}`);
          }
        }
      }),
    );
    clearInterval(rssTimer);
    clearInterval(dbTimer);
    const elapsed = (performance.now() - t0) / 1000;
    const quarter = (q: number) => dbSamples[Math.max(0, Math.ceil((dbSamples.length * q) / 4) - 1)] ?? NaN;
    const left = await database.db.storeRollout.count({ where: { input: JSON.stringify("sustain"), status: "succeeded" } });
    const kept = await database.db.storeSpan.count({ where: { rolloutId: held.rollout_id } });
    const dbAfter = await dbBytes();
    return {
      seconds: elapsed,
      spans,
      rss: rssSamples.map(series),
      dbBefore,
      dbAfter,
      dbQuarters: [1, 2, 3, 4].map(quarter),
      dbMax: Math.max(dbAfter, ...dbSamples),
      rollouts: { finished, left },
      held: { spans: 1000, kept },
    };
  } finally {
    await database.close();
  }
}

export function printSustain(label: string, r: SustainResult, retentionSeconds: number) {
  const mib = (n: number) => `${(n / 2 ** 20).toFixed(0)} MiB`;
  console.log(`\nsustained OTLP ingest · ${label}: ${Math.round(r.seconds)} s, ${r.spans.toLocaleString("en-US")} spans (${Math.round(r.spans / r.seconds).toLocaleString("en-US")}/s)`);
  r.rss.forEach((x, i) => console.log(`  server ${i + 1} RSS first ${mib(x.first)}, last ${mib(x.last)}, max ${mib(x.max)}`));
  console.log(`  database ${mib(r.dbBefore)} → ${mib(r.dbAfter)} (+${mib(r.dbAfter - r.dbBefore)}, ${((r.dbAfter - r.dbBefore) / Math.max(1, r.spans)).toFixed(0)} bytes per span ingested); at each quarter ${r.dbQuarters.map(mib).join(", ")}; max ${mib(r.dbMax)}`);
  console.log(
    `  retention ${retentionSeconds > 0 ? `${retentionSeconds} s` : "off"}: ${r.rollouts.finished} rollouts of 10,000 spans finished, ${r.rollouts.left} still stored; ` +
      `the held rollout kept ${r.held.kept} of its ${r.held.spans} spans${r.held.kept === r.held.spans ? "" : " — EVIDENCE LOST"}`,
  );
}

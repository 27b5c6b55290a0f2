// The gate through the database (part of `npm run bench:gate`): one candidate whose stored receipt carries
// 10,000 rollouts / 1,000,000 spans' worth of rollups, judged by `gateReport` (read the chain, verify every
// digest against the head, parse, judge) as the candidate page does; plus the incremental rollup refresh
// from raw store spans, measured on a smaller slice and reported per span.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { openDatabase, type Database } from "@/server/db/client";
import { receiptSource } from "@/server/approvals/db-source";
import { approvalPanel } from "@/server/approvals/panel";
import { serialize } from "@/lib/json/wire";
import { getCandidate } from "@/server/receipts/candidates-view";
import { scopesFor } from "@/lib/auth/scopes";
import type { Actor } from "@/server/auth/actor";
import { makePerson } from "../tests/helpers/auth";
import { resolveDbTarget } from "@/server/db/config";
import { deployMigrations } from "@/server/db/migrate";
import { registerCandidate } from "@/server/candidates/register";
import type { RolloutRollup } from "@/server/gate/receipt/stage2";
import { AGENT, T0, VERSIONS, iso } from "@/server/gate/reference/common";
import { rawCandidate, REFERENCE_SPECS } from "@/server/gate/reference/raw-evidence";
import { openReceipt, sealLink } from "@/server/receipts/links";
import { gateReport } from "@/server/receipts/report";
import { seedReferenceDemo } from "@/server/reference/reference-demo";
import { writeRawToStore } from "@/server/receipts/reference-store";
import { refreshRollups } from "@/server/receipts/rollups";

const ms = (x: number) => `${x.toFixed(0)} ms`;

/**
 * The candidate page's server time: the two queries it makes (candidates.get, approvals.panel), each
 * encoded for the wire as tRPC sends it, over the 10,000-rollout receipt. Target: under 300 ms.
 */
async function benchCandidatePage(database: Database, id: string, now: Date) {
  const grants = [{ role: "release_approver" as const, agent: null }];
  const person = await makePerson(database, grants, "Bench Approver");
  const viewer: Actor = { kind: "user", id: person.id, name: person.name, roles: ["release_approver"], grants, scopes: scopesFor(grants) };
  const parts = { get: 0, panel: 0, wire: 0 };
  const page = async () => {
    let t = performance.now();
    const d = await getCandidate(database, id, now);
    parts.get += performance.now() - t;
    t = performance.now();
    const p = await approvalPanel(database.db, receiptSource, viewer, id, now);
    parts.panel += performance.now() - t;
    t = performance.now();
    const n = JSON.stringify(serialize(d)).length + JSON.stringify(serialize(p)).length;
    parts.wire += performance.now() - t;
    return n;
  };
  await page(); // as after any first visit: the verified chain is kept per process
  const runs: number[] = [];
  let bytes = 0;
  for (let i = 0; i < 7; i++) {
    const t0 = performance.now();
    bytes = await page();
    runs.push(performance.now() - t0);
  }
  runs.sort((a, b) => a - b);
  const mean = (x: number) => ms(x / 8);
  console.log(
    `db: candidate page from rollups (candidates.get + approvals.panel, wire-encoded, ${(bytes / 1024).toFixed(0)} KiB): median ${ms(runs[3]!)}, range ${ms(runs[0]!)}–${ms(runs.at(-1)!)} over 7 runs (target < 300 ms); mean get ${mean(parts.get)}, panel ${mean(parts.panel)}, wire ${mean(parts.wire)}`,
  );
}
const actor = { kind: "service" as const, id: "svc-bench", name: "bench", grants: [] };

export async function benchThroughDatabase(rollouts: RolloutRollup[]): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lightgate-bench-gate-"));
  const target = resolveDbTarget(`file:${path.join(dir, "bench.db")}`);
  await deployMigrations(target);
  const database = await openDatabase(target);
  try {
    // Registries and lineage root as in the reference, then a candidate with the big stage 2.
    await seedReferenceDemo(database, { only: [] });
    const raw = rawCandidate({ ...REFERENCE_SPECS.A, name: "A" });
    const candidate = await registerCandidate(database, { agent: AGENT, resource: { resourcesId: raw.candidate.resourceId, version: 1, digest: raw.candidate.digest }, stage1: raw.stage1, actor });
    await openReceipt(database, candidate.id, { sealedAt: iso(T0) });
    let t0 = performance.now();
    await sealLink(database, candidate.id, "stage2", { windows: { training: { from: iso(T0), to: iso(T0 + 3600) }, validation: { from: iso(T0), to: iso(T0 + 3600) } }, dataCutoff: iso(T0 + 3600), rollouts, versions: VERSIONS }, { sealedAt: iso(T0 + 5 * 3600) });
    console.log(`db: sealing the 10,000-rollout stage 2 into receipt_links: ${ms(performance.now() - t0)}`);
    const { resolution, lockedGate, canary, rollbackTest } = raw;
    await sealLink(database, candidate.id, "stage3", { resolution, lockedGate, canary, rollbackTest, computedAt: iso(T0 + 7 * 3600), versions: VERSIONS }, { sealedAt: iso(T0 + 7 * 3600) });

    const now = new Date((T0 + 9 * 3600) * 1000);
    t0 = performance.now();
    await gateReport(database, candidate.id, now);
    console.log(`db: gateReport, first time in this process (verify every digest, parse, judge): ${ms(performance.now() - t0)}`);
    const runs: number[] = [];
    let said = "";
    for (let i = 0; i < 5; i++) {
      t0 = performance.now();
      const { report } = await gateReport(database, candidate.id, now);
      runs.push(performance.now() - t0);
      said = `${report!.verdict}; coverage ${report!.evidence.coverage.fullyCovered}/${report!.evidence.coverage.considered}`;
    }
    runs.sort((a, b) => a - b);
    console.log(`db: gateReport again (read the chain, re-hash stored content, judge): median ${ms(runs[2]!)}, worst ${ms(runs.at(-1)!)} over 5 runs — ${said}`);
    await benchCandidatePage(database, candidate.id, now);

    // Incremental rollups from raw spans: 120 rollouts of the reference written as store rows.
    const b = rawCandidate(REFERENCE_SPECS.B);
    await writeRawToStore(database, b, 9e6);
    t0 = performance.now();
    const computed = await refreshRollups(database, b.candidate.resourceId);
    const first = performance.now() - t0;
    t0 = performance.now();
    const again = await refreshRollups(database, b.candidate.resourceId);
    const second = performance.now() - t0;
    console.log(`db: rollups from raw store spans, once: ${computed} rollouts / ${b.store.spans.length} spans in ${ms(first)}; unchanged re-check: ${again} recomputed in ${ms(second)}`);
  } finally {
    await database.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

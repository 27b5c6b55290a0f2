// Gate runs as a queue: `requestGateRun` records a queued run (who asked, when); `runPendingGates` — the
// worker loop's call — claims queued runs one at a time with a conditional update (two workers never run
// the same one), completes the receipt up to stage 2 from the store if needed, runs the admission gate
// and seals its stage 3, and records the check results it produced with the versions they rest on.
import type { Database } from "@/server/db/client";
import { AUDIT_LOCK, appendAudit, type AuditActor } from "@/server/audit/audit-log";
import { digestOf, newId } from "@/server/digest";
import { DomainError } from "@/server/errors";
import type { LinkContent } from "@/server/gate/receipt/seal";
import { loadReceipt, openReceipt, sealLink } from "./links";
import { gateReport } from "./report";
import { stage2FromStore } from "./rollups";
import { runAdmissionGate } from "./gate-run";
import { currentVersions } from "./versions";

export async function requestGateRun(database: Database, input: { candidateId: string; actor: AuditActor }) {
  return database.transaction(
    async (tx) => {
      const candidate = await tx.candidate.findUnique({ where: { id: input.candidateId }, select: { id: true, agent: true } });
      if (!candidate) throw new DomainError("NOT_FOUND", `no candidate ${input.candidateId}`, "candidateId");
      const open = await tx.gateRun.findFirst({ where: { candidateId: candidate.id, status: { in: ["queued", "running"] } } });
      if (open) return open;
      const run = await tx.gateRun.create({ data: { id: newId("gr"), candidateId: candidate.id, kind: "admission", status: "queued", requestedById: input.actor.id, requestedAt: new Date() } });
      await appendAudit(tx, { actor: input.actor, action: "gate.run.request", target: { type: "candidate", id: candidate.id }, after: { run: run.id } });
      return run;
    },
    { locks: [AUDIT_LOCK, `gate-run:${input.candidateId}`] },
  );
}

/** Records each check result of the current report against the chain head and the versions in force. */
export async function recordCheckResults(database: Database, candidateId: string, now: Date = new Date()) {
  const stored = await gateReport(database, candidateId, now);
  if (!stored.report || !stored.head) return null;
  const versionsKey = digestOf(stored.versions);
  const rows = [...stored.report.checks.map((c) => ({ c, scope: "admission" })), ...(stored.report.canaryStageChecks ?? []).map((c) => ({ c, scope: "canary-stage" }))];
  await database.db.gateCheckResult.createMany({
    data: rows.map(({ c, scope }) => ({
      id: newId("gc"),
      candidateId,
      headDigest: stored.head!,
      versionsKey,
      check: c.id,
      scope,
      status: c.status,
      sentence: c.explanation,
      evidence: JSON.stringify(c.evidence),
      versions: JSON.stringify(c.versions),
      verdict: stored.report!.verdict,
      evaluatedAt: now,
    })),
  });
  return stored.report;
}

async function runOne(database: Database, runId: string, candidateId: string) {
  const candidate = await database.db.candidate.findUniqueOrThrow({ where: { id: candidateId } });
  let loaded = await loadReceipt(database, candidateId);
  if (!loaded.verification.ok) throw new Error("the stored receipt fails verification; the gate does not run on it");
  if (loaded.chain.length === 0) await openReceipt(database, candidateId);
  loaded = await loadReceipt(database, candidateId);
  const versions = await currentVersions(database.db, candidate.agent, { parentIfNoDefault: candidate.parentDigest as `sha256:${string}` });
  if (!loaded.receipt!.stage2) await sealLink(database, candidateId, "stage2", await stage2FromStore(database, candidate, versions));
  const stage3 = await runAdmissionGate(database, loaded.receipt!.stage1, versions, runId);
  const link = await sealLink(database, candidateId, "stage3", stage3 as LinkContent<"stage3">);
  await recordCheckResults(database, candidateId);
  return link.digest;
}

/** Runs queued gate runs (oldest first) until none is left or `limit` ran; returns what each did. */
export async function runPendingGates(database: Database, opts: { limit?: number } = {}) {
  const done: { id: string; candidateId: string; status: "done" | "failed"; detail: string }[] = [];
  while (done.length < (opts.limit ?? Infinity)) {
    const next = await database.db.gateRun.findFirst({ where: { status: "queued" }, orderBy: [{ requestedAt: "asc" }, { id: "asc" }] });
    if (!next) break;
    const claimed = await database.db.gateRun.updateMany({ where: { id: next.id, status: "queued" }, data: { status: "running", startedAt: new Date() } });
    if (claimed.count !== 1) continue; // another worker took it
    try {
      const digest = await runOne(database, next.id, next.candidateId);
      await database.db.gateRun.update({ where: { id: next.id }, data: { status: "done", finishedAt: new Date(), linkDigest: digest } });
      done.push({ id: next.id, candidateId: next.candidateId, status: "done", detail: digest });
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      await database.db.gateRun.update({ where: { id: next.id }, data: { status: "failed", finishedAt: new Date(), error: message.slice(0, 2000) } });
      done.push({ id: next.id, candidateId: next.candidateId, status: "failed", detail: message });
    }
  }
  return done;
}

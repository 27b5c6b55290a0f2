// The world the promotion model test drives (tests/integration/promotion/model.test.ts): one real database per
// sequence, copied from a template that holds the reference registries, the exact parent's bytes, the lineage
// root as approved default and four people with registered passkeys. Every action goes through the product's
// own functions — registration, sealing, registry publishing, the store, signed approvals and rollbacks, the
// canary guard's abort. Only what runners and the gate-run stepper would do between a request and a seal is
// done here directly: the stage's evidence is the reference fixture's, sealed through the product's sealing
// with the versions the run computed with (a re-run's by the product's re-run rule).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openDatabase, type Database } from "@/server/db/client";
import { resolveDbTarget, type Dialect } from "@/server/db/config";
import type { Actor } from "@/server/auth/actor";
import type { SoftAuthenticator } from "@/server/auth/soft-authenticator";
import { beginApproval, finishApproval } from "@/server/approvals/approve";
import { approvalSnapshot } from "@/server/approvals/snapshot";
import { decideApproval } from "@/server/promotion/guards";
import { grantsAllow } from "@/lib/auth/scopes";
import { receiptSource } from "@/server/approvals/db-source";
import { beginRollback, finishRollback, rollbackOptions } from "@/server/approvals/rollback";
import { newId } from "@/server/digest";
import { AGENT, EVALUATOR_BODY, PARENT, TOOLS } from "@/server/gate/reference/common";
import type { ReferenceName, RawCandidate } from "@/server/gate/reference/raw-evidence";
import { receiptView } from "@/server/gate/receipt/view";
import type { VersionSet } from "@/server/gate/versions";
import { rerunStage3 } from "@/server/promotion/rerun";
import { recordCheckResults } from "@/server/receipts/check-results";
import { abortStageOf } from "@/server/receipts/gate-run/canary-stage";
import { lateEvidenceOf } from "@/server/receipts/late-evidence";
import { loadChain, sealLink } from "@/server/receipts/links";
import { currentPolicy, publishRegistryEntry } from "@/server/receipts/registries";
import { stage2FromStore } from "@/server/receipts/rollups";
import { currentVersions } from "@/server/receipts/versions";
import { declareReferenceCandidate, REFERENCE_POLICY_OWNER, sealReferenceStage3, seedReferenceWorld, writeReferenceEvidence } from "@/server/reference/reference-demo";
import { createStore } from "@/server/store";
import { createTestDatabase } from "../db";
import { personWithPasskey } from "../approvals";
import { withAdmin } from "../postgres";

export type Person = { actor: Actor; key: SoftAuthenticator };
export const PEOPLE = ["rosa", "rita", "carl", "vic"] as const;
export type PersonName = (typeof PEOPLE)[number];

export type Template = { dialect: Dialect; url: string; evidenceAt: Date; people: Record<PersonName, Person>; drop(): Promise<void> };

const NAMES = ["A", "B", "C", "D"] as const satisfies readonly ReferenceName[];
const offsetOf = (name: ReferenceName) => (NAMES.indexOf(name) + 1) * 1e6;

/**
 * Seeds the template once per dialect: registries, the parent's bytes, the lineage root, the people, and the
 * training evidence of the four reference candidates in the store (written at `evidenceAt`; declaring one
 * registers it and seals its stage 2 from those rollouts).
 */
export async function createTemplate(dialect: Dialect, evidenceAt: Date): Promise<Template> {
  const database = await createTestDatabase(dialect, "mbt_tmpl");
  await seedReferenceWorld(database, REFERENCE_POLICY_OWNER);
  for (const name of NAMES) await writeReferenceEvidence(database, name, evidenceAt, offsetOf(name));
  const people = {
    rosa: await personWithPasskey(database, [{ role: "release_approver", agent: null }], "Rosa Release"),
    rita: await personWithPasskey(database, [{ role: "release_approver", agent: AGENT }], "Rita Release"),
    carl: await personWithPasskey(database, [{ role: "canary_approver", agent: AGENT }], "Carl Canary"),
    vic: await personWithPasskey(database, [{ role: "viewer", agent: null }], "Vic Viewer"),
  };
  // Closed (not dropped) so it can be copied — with any pooled session still open on it — and dropped at the end.
  await database.close();
  if (dialect === "postgresql") await withAdmin((c) => c.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()", [dbName(database.url)]));
  const drop = async () => {
    if (dialect === "sqlite") fs.rmSync(path.dirname(new URL(database.url.replace(/^file:/, "file://")).pathname), { recursive: true, force: true });
    else await withAdmin((c) => c.query(`DROP DATABASE IF EXISTS "${dbName(database.url)}" WITH (FORCE)`));
  };
  return { dialect, url: database.url, evidenceAt, people, drop };
}

const dbName = (url: string) => new URL(url).pathname.slice(1);

/** A fresh database for one sequence, a copy of the template. */
async function copyOf(t: Template, n: number): Promise<Database & { drop(): Promise<void> }> {
  if (t.dialect === "sqlite") {
    const from = t.url.replace(/^file:/, "");
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lightgate-mbt-"));
    // The database and what lives beside it (the receipt signing key its receipts are signed with).
    for (const file of fs.readdirSync(path.dirname(from))) fs.copyFileSync(path.join(path.dirname(from), file), path.join(dir, file));
    const database = await openDatabase(resolveDbTarget(`file:${path.join(dir, "test.db")}`));
    return { ...database, drop: async () => (await database.close(), fs.rmSync(dir, { recursive: true, force: true })) };
  }
  const name = `${dbName(t.url)}_s${n}`;
  await withAdmin((c) => c.query(`CREATE DATABASE "${name}" TEMPLATE "${dbName(t.url)}"`));
  const u = new URL(t.url);
  u.pathname = `/${name}`;
  const database = await openDatabase(resolveDbTarget(u.toString()));
  const drop = async () => {
    await database.close();
    await withAdmin((c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
  };
  return { ...database, drop };
}

const scopesOf = (actor: Actor) => ["approval:canary", "approval:default"].filter((scope) => grantsAllow(actor.grants, scope as "approval:canary", AGENT));

/** What the sequences reached, summed over a run (printed, so a run that never promotes anything shows). */
export const REACHED: Record<string, number> = {};
const reached = (what: string) => (REACHED[what] = (REACHED[what] ?? 0) + 1);

export type Declared = { name: ReferenceName; id: string; raw: RawCandidate };
export type Outcome = { ok: true; detail?: string } | { ok: false; code: string; reason: string };

/** One sequence's world: its database, a clock that only moves forward, and what was declared in it. */
export class World {
  readonly store;
  now: Date;
  readonly declared = new Map<ReferenceName, Declared>();
  /** Versions in force when each candidate's canary stage started (the stage computes with them). */
  readonly stageVersions = new Map<string, VersionSet>();
  private published = 0;
  /** The candidates the last step acted on (the pages are compared with the machine for them at every step). */
  readonly touched = new Set<string>();

  private constructor(
    readonly database: Database & { drop(): Promise<void> },
    readonly people: Record<PersonName, Person>,
    private readonly evidenceAt: Date,
    start: Date,
  ) {
    this.store = createStore(database);
    this.now = start;
  }

  static async open(t: Template, n: number, start: Date) {
    return new World(await copyOf(t, n), t.people, t.evidenceAt, start);
  }

  async close() {
    await this.store.close();
    await this.database.drop();
  }

  tick(seconds: number) {
    this.now = new Date(this.now.getTime() + seconds * 1000);
  }

  private async attempt(run: () => Promise<unknown>): Promise<Outcome> {
    try {
      await run();
      return { ok: true };
    } catch (e) {
      const code = (e as { code?: string }).code;
      if (!code || !["BAD_REQUEST", "FORBIDDEN", "NOT_FOUND", "CONFLICT", "PRECONDITION_FAILED", "UNAUTHORIZED", "TOO_MANY_REQUESTS"].includes(code)) throw e;
      reached(`refused (${code})`);
      return { ok: false, code, reason: (e as Error).message };
    }
  }

  async declare(name: ReferenceName) {
    const { candidateId, raw } = await declareReferenceCandidate(this.database, name, { now: this.now, offset: offsetOf(name), evidenceAt: this.evidenceAt, evidenceStored: true });
    this.declared.set(name, { name, id: candidateId, raw });
    this.touched.add(candidateId);
    return candidateId;
  }

  /** A gate run is requested: the candidate is gating until it seals (the runners' work is not simulated). */
  async requestRun(c: Declared) {
    this.touched.add(c.id);
    const open = await this.database.db.gateRun.findFirst({ where: { candidateId: c.id, status: { in: ["queued", "running"] } } });
    if (open) return;
    await this.database.db.gateRun.create({
      data: { id: newId("gr"), candidateId: c.id, kind: "admission", status: "queued", phase: "queued", requestedById: "model", requestedAt: this.now, deadlineSeconds: 600 },
    });
  }

  /**
   * The gate run seals: the first stage 3 from the fixture's evidence, a re-run's by the product's re-run rule
   * (judged with the versions in force now; a sealed, still-fresh canary stage carried). A stage 2 whose
   * rollouts moved on is sealed anew first, as a run's start does.
   */
  async finishRun(c: Declared) {
    this.touched.add(c.id);
    const now = this.now;
    const run = await this.database.db.gateRun.findFirst({ where: { candidateId: c.id, kind: "admission", status: { in: ["queued", "running"] } } });
    const chain = await loadChain(this.database.db, c.id);
    const receipt = receiptView(chain);
    const versions = await currentVersions(this.database.db, AGENT);
    if (receipt.stage2 && (await lateEvidenceOf(this.database.db, receipt.stage2)).length > 0) {
      await sealLink(this.database, c.id, "stage2", await stage2FromStore(this.database, { id: c.id, resourcesId: c.raw.candidate.resourceId }, versions), { sealedAt: now.toISOString() });
    }
    const link = receipt.stage3
      ? await sealLink(this.database, c.id, "stage3", rerunStage3(await loadChain(this.database.db, c.id), { computedAt: now.toISOString(), versions, policy: await currentPolicy(this.database.db, AGENT), now, lateEvidence: await lateEvidenceOf(this.database.db, receipt.stage2) }), { sealedAt: now.toISOString() })
      : await sealReferenceStage3(this.database, c.id, c.raw, now.toISOString());
    await recordCheckResults(this.database, c.id, now);
    reached(receipt.stage3 ? "re-run" : "first gate run");
    if (run) await this.database.db.gateRun.update({ where: { id: run.id }, data: { status: "done", phase: "done", finishedAt: now, linkDigest: link.digest } });
  }

  /** A policy owner publishes a new version of one registry entry the gate reads. */
  async publish(kind: "evaluator" | "tool_contract" | "task_distribution" | "retry_policy") {
    const n = ++this.published;
    const actor = REFERENCE_POLICY_OWNER;
    if (kind === "evaluator") await publishRegistryEntry(this.database, { kind, name: "support-desk-evaluator", agent: AGENT, version: `3.${n}`, body: { ...EVALUATOR_BODY, weights: { ...EVALUATOR_BODY.weights, accuracy: 0.1 + n / 1000 } }, actor });
    if (kind === "tool_contract") await publishRegistryEntry(this.database, { kind, name: TOOLS[n % TOOLS.length]!, agent: AGENT, body: { tool: TOOLS[n % TOOLS.length], contract: n + 1 }, actor });
    if (kind === "task_distribution") {
      const body = { tasks: "support-desk", cases: ["billing", "shipping", "account"], environment: "support-desk", version: `v2.${n}` };
      await publishRegistryEntry(this.database, { kind, name: "support-desk/tasks", agent: AGENT, version: `4.${n}`, body, actor });
    }
    if (kind === "retry_policy") {
      const body = { rolloutConfig: { max_attempts: 3 + n, retry_condition: ["failed", "timeout", "unresponsive"] }, budget: { expectedResamplesPerRollout: 1, unexpectedRetries: 0 } };
      await publishRegistryEntry(this.database, { kind, name: AGENT, agent: AGENT, body, actor });
    }
  }

  /** An admitted training rollout of the candidate's stage 2 receives a span (an exporter flushing late) or a new attempt. */
  async late(c: Declared, what: "span" | "attempt", pick: number) {
    this.touched.add(c.id);
    const stage2 = receiptView(await loadChain(this.database.db, c.id)).stage2;
    const admitted = stage2?.rollouts ?? [];
    if (!admitted.length) return "no admitted rollouts";
    const rid = admitted[pick % admitted.length]!.rolloutId;
    if (what === "attempt") {
      await this.store.startAttempt(rid, "late-worker");
      return rid;
    }
    const latest = (await this.store.getLatestAttempt(rid)) as { attempt_id: string } | null;
    if (!latest) return "no attempt";
    const [seq] = await this.store.nextSpanSequenceIds([rid]);
    const t = this.now.getTime() / 1000;
    await this.store.addSpan({
      rollout_id: rid, attempt_id: latest.attempt_id, sequence_id: seq!, trace_id: "0".repeat(31) + "9", span_id: `late${String(seq).padStart(12, "0")}`, parent_id: null, name: "agentlightning.annotation",
      status: { status_code: "OK", description: null }, attributes: { "agentlightning.reward.0.value": 0.1 }, events: [], links: [], start_time: t, end_time: t, context: null, parent: null, resource: { attributes: {}, schema_url: "" },
    });
    return rid;
  }

  approve(c: Declared, step: "canary" | "default", who: PersonName): Promise<Outcome> {
    this.touched.add(c.id);
    const p = this.people[who];
    const opts = { source: receiptSource, now: this.now };
    return this.attempt(async () => {
      // What the promotion machine says on the facts as they are just before: an approval that commits must be one it allows.
      const snap = await approvalSnapshot(this.database.db, receiptSource, c.id, this.now);
      const machine = decideApproval(snap.facts, step, { id: p.actor.id, scopes: scopesOf(p.actor) });
      const begun = await beginApproval(this.database, p.actor, { agent: AGENT, candidateId: c.id, step }, opts);
      await finishApproval(this.database, p.actor, { agent: AGENT, payload: begun.payload, response: p.key.assert(begun.options!) }, opts);
      if (!machine.allowed) throw new Error(`${who}'s ${step} approval of ${c.name} committed, but the promotion machine refused it: ${machine.reason}`);
      reached(`${step} approved`);
      if (step === "canary") this.stageVersions.set(c.id, await currentVersions(this.database.db, AGENT));
    });
  }

  /** The open canary-stage run of `c`, if its approval queued one. */
  private openStage(c: Declared) {
    return this.database.db.gateRun.findFirst({ where: { candidateId: c.id, kind: "canary-stage", status: { in: ["queued", "running"] } } });
  }

  /**
   * The canary stage runs through and seals with the versions it started with (stop: the guard aborted it on a
   * breach). The reference's canary set is not a published gate dataset, so its approval queues no stage run: the
   * stage is "sealed some other way" (canary-stage.ts) — here, when the machine says the canary step was approved.
   */
  async stage(c: Declared, breach: boolean) {
    this.touched.add(c.id);
    const run = await this.openStage(c);
    if (!run && (await approvalSnapshot(this.database.db, receiptSource, c.id, this.now)).promotion.name !== "canary-approved") return "no canary stage to run";
    const receipt = receiptView(await loadChain(this.database.db, c.id));
    const stage3 = receipt.stage3!;
    const at = this.now.toISOString();
    let canary = stage3.canary!;
    if (breach) {
      const reason = "tool.call:wipe_customer outside the canary boundary";
      await abortStageOf(this.database, run ?? { id: "model-canary-stage", candidateId: c.id }, receipt.stage1, reason, this.now);
      canary = { ...canary, stop: { kind: "breach", reason, at } };
    }
    const versions = this.stageVersions.get(c.id) ?? stage3.versions;
    const link = await sealLink(this.database, c.id, "canary-stage", { canary, rollbackTest: stage3.rollbackTest!, computedAt: at, versions }, { sealedAt: at });
    if (run) await this.database.db.gateRun.update({ where: { id: run.id }, data: { status: "done", phase: "done", finishedAt: this.now, linkDigest: link.digest } });
    reached(breach ? "canary stage aborted" : "canary stage sealed");
    return breach ? "aborted" : "sealed";
  }

  rollback(pointer: "canary" | "approved_default", pick: number, who: PersonName): Promise<Outcome> {
    const p = this.people[who];
    const opts = { source: receiptSource, now: this.now };
    return this.attempt(async () => {
      const options = await rollbackOptions(this.database.db, receiptSource, AGENT, pointer, p.actor);
      // A listed target, or — when none is offered — the exact parent (which the server must then refuse).
      const target = options.targets.length ? options.targets[pick % options.targets.length]!.ref.digest : PARENT.digest;
      const rb = await beginRollback(this.database, p.actor, { agent: AGENT, pointer, toDigest: target, reason: "model test rollback" }, opts);
      await finishRollback(this.database, p.actor, { agent: AGENT, payload: rb.payload, response: p.key.assert(rb.options!) }, opts);
      reached(`${pointer} rolled back`);
    });
  }

  /**
   * The next thing a team would do for `c`, as the promotion machine reads it now: run the gate, approve the open
   * step (by the person `n` picks: not always one who may), let the canary stage seal (or, one time in five,
   * breach), roll back a promoted candidate, re-run a stale, quarantined, aborted or rolled-back one.
   */
  async advance(c: Declared, n: number): Promise<{ outcome: Outcome; moves: "none" | "one" | "at-most-one" }> {
    this.touched.add(c.id);
    if (!receiptView(await loadChain(this.database.db, c.id)).stage3) return (await this.finishRun(c), { outcome: { ok: true }, moves: "none" });
    const state = (await approvalSnapshot(this.database.db, receiptSource, c.id, this.now)).promotion.name;
    const approvers: PersonName[] = ["rosa", "rita", "carl", "rosa", "rita", "vic"];
    const who = approvers[n % approvers.length]!;
    if (state === "ready-for-canary") return { outcome: await this.approve(c, "canary", who), moves: "one" };
    if (state === "ready-for-default") return { outcome: await this.approve(c, "default", who), moves: "one" };
    if (state === "canary-running" || state === "canary-approved") return (await this.stage(c, n % 5 === 4), { outcome: { ok: true }, moves: "at-most-one" });
    if (state === "promoted") return { outcome: await this.rollback(n % 2 ? "approved_default" : "canary", 0, who === "carl" || who === "vic" ? "rosa" : who), moves: "one" };
    // A failing check a re-run cannot clear (retry debt, a regression) leaves the candidate where it is: time passes.
    if (state === "quarantined" || state === "gating") {
      if (state === "gating") await this.finishRun(c);
      else this.tick(600);
      return { outcome: { ok: true }, moves: "none" };
    }
    await this.requestRun(c);
    await this.finishRun(c);
    return { outcome: { ok: true }, moves: "none" };
  }

  /** A retention pass that would delete every finished rollout it may. */
  retention() {
    return this.store.pruneFinishedRollouts(0);
  }

  /** Someone tries to delete the exact parent's stored bytes behind the store: the database refuses. */
  async removeParent(): Promise<Outcome> {
    try {
      await this.database.db.$executeRawUnsafe(`DELETE FROM "store_resources_versions" WHERE "resources_id" = '${PARENT.resourceId}' AND "version" = ${PARENT.version}`);
      return { ok: true };
    } catch (e) {
      return { ok: false, code: "DATABASE", reason: (e as Error).message };
    }
  }
}

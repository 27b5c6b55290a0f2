import { describe, expect, it } from "vitest";
import { FAMILY_NAMES, type FamilyName } from "@/server/trainers/family";
import { familyConfigProblems, listFamilies, type FamilyRunResult } from "@/server/trainers/families";
import { initialClusters } from "@/server/trainers/advanced/pattern-discovery";
import { observeTasks } from "@/server/trainers/data-sources";
import { initialPolicy } from "@/server/trainers/policy";
import { promptTemplate } from "@/server/trainers/prompt/template";
import { V2, desk, expertDemos, receiptOf, resumeDigests, run, runInit, snapshot, type RunSpec } from "../../helpers/families";
import { simulateRatings, slippingInteractions } from "../../helpers/feedback";
import { startFamily } from "@/server/trainers/families";
import { train } from "@/server/trainers/loop";
import { policyDigest } from "@/server/trainers/policy-resource";
import { createTrainer } from "@/server/trainers/trainers";

const demos = snapshot(expertDemos(150, "registry"));
const runs = slippingInteractions(desk, V2, 80, 0.35, "registry");
const feedback = snapshot([...runs.map((r) => r.interaction), ...simulateRatings(runs, [{ id: "r", credibility: 1, judge: "honest" }], { seed: "reg", givenAt: "2026-03-01T00:00:00.000Z" })]);
const tasks = snapshot(observeTasks(desk, { distribution: V2, count: 120, seed: "registry" }));

/** A small, fast run of every family from an exact parent. */
const SPECS: Record<FamilyName, Omit<RunSpec, "family" | "updates">> = {
  ppo: { config: { episodesPerUpdate: 24 } },
  "q-learning": { config: { episodesPerUpdate: 24 }, parent: initialPolicy("q-tabular", desk) },
  supervised: { data: demos, config: { earlyStopping: { enabled: false } } },
  feedback: { data: feedback, config: { earlyStopping: { enabled: false } } },
  "fine-tune": { data: demos, config: { domain: "incident", earlyStopping: { enabled: false } } },
  "behaviour-cloning": { data: demos, config: { earlyStopping: { enabled: false } } },
  "maxent-irl": { data: demos, config: { background: { episodes: 100 }, gradientSteps: 50, episodesPerUpdate: 24 } },
  continual: { data: demos, config: { streamBatch: 20 } },
  online: { data: feedback, config: { feedbackPerUpdate: 20, batchSize: 4, confidenceThreshold: 0.5 } },
  curriculum: { config: { episodesPerUpdate: 24, calibrationTasks: 100 } },
  reptile: { data: demos, config: { innerSteps: 2 } },
  "pattern-discovery": { data: tasks, parent: initialClusters(desk), config: { maxClusters: 4 } },
  "prompt-optimization": { parent: promptTemplate("You are a support agent.\n{ticket}"), config: { scorer: "builtin", validationTasks: 10, beamWidth: 2, branchFactor: 2, rolloutsPerPrompt: 4 }, validation: null },
  "ppo-mlp": { parent: initialPolicy("mlp-softmax", desk), config: { episodesPerUpdate: 16 } },
  "dqn-mlp": { parent: initialPolicy("mlp-q", desk), config: { episodesPerUpdate: 16, gradientSteps: 4 } },
  // A small snapshot: a transformer epoch is the slowest step of any family here.
  "text-policy": { parent: initialPolicy("text-softmax", desk), data: snapshot(expertDemos(40, "registry-text")), config: { pretrainUpdates: 1, pretrainStepsPerUpdate: 3, cloneEpochs: 1, ppoUpdates: 2, episodesPerUpdate: 8 } },
};

describe("the family registry", () => {
  it("lists every family with a description, what it makes and reads, and its defaults", () => {
    const list = listFamilies();
    expect(list.map((f) => f.name)).toEqual([...FAMILY_NAMES]);
    expect(list).toHaveLength(16);
    for (const f of list) {
      expect(f.description.length, f.name).toBeGreaterThan(20);
      if (f.name === "fine-tune") expect(f).toMatchObject({ defaults: null, required: ["domain"] });
      else expect(f.defaults, f.name).toBeTypeOf("object");
    }
    expect(list.find((f) => f.name === "feedback")!.reads).toEqual(["interaction", "feedback"]);
    expect(list.find((f) => f.name === "prompt-optimization")!.resourceKind).toBe("prompt-template");
  });

  it("validates configs with the field named", () => {
    expect(familyConfigProblems("ppo", { clipRange: 0, episodesPerUpdate: 0 })).toEqual(["clipRange: clipRange must be > 0", "episodesPerUpdate: episodesPerUpdate must be ≥ 1"]);
    expect(familyConfigProblems("continual", { replay: { rehearsalFraction: 1 } })).toEqual(["replay.rehearsalFraction: rehearsalFraction must be ≤ 0.9"]);
    expect(familyConfigProblems("pattern-discovery", { minClusters: 5, maxClusters: 3 })).toEqual(["minClusters: minClusters must not exceed maxClusters"]);
    expect(familyConfigProblems("curriculum", { unknown: 1 })[0]).toMatch(/Unrecognized key/);
  });

  it("refuses an unknown family, a parent of the wrong kind, a bad code revision and missing data", async () => {
    await expect(run({ family: "nope" as FamilyName, updates: 1 })).rejects.toThrow(/unknown learning family "nope"/);
    await expect(run({ family: "q-learning", updates: 1 })).rejects.toThrow(/q-learning trains q-tabular policies; the parent is softmax-linear/);
    await expect(run({ family: "supervised", updates: 1, parent: promptTemplate("x") })).rejects.toThrow(/supervised trains softmax-linear policies/);
    expect(() => startFamily({ ...runInit({ family: "ppo", updates: 1 }), codeRevision: "main" })).toThrow(/codeRevision must be a commit hash/);
    await expect(run({ family: "online", updates: 1, data: demos })).rejects.toThrow(/online reads interaction records/);
  });

  it("ppo and q-learning through the registry are exactly the trainers their own learning tests cover", async () => {
    for (const [algorithm, parent] of [["ppo", initialPolicy("softmax-linear", desk)], ["q-learning", initialPolicy("q-tabular", desk)]] as const) {
      const viaRegistry = await run({ family: algorithm, config: { episodesPerUpdate: 24 }, parent, updates: 2 });
      const trainer = createTrainer({ algorithm, config: {}, parent, seed: "seed-1", environment: desk });
      train(desk, trainer, { distribution: V2, episodesPerUpdate: 24, seed: "seed-1", updates: 2, options: { toolFailureRate: 0.05 }, maxAttempts: 3 });
      expect(viaRegistry.candidate.digest, algorithm).toBe(policyDigest({ ...trainer.currentPolicy(), epsilon: 0, serving: { mode: "greedy" } }));
    }
  });

  for (const name of FAMILY_NAMES) {
    it(`${name}: runs from an exact parent with a seed, its candidate carries a complete stage-1 receipt, and checkpoint → restore continues exactly`, async () => {
      const spec = { family: name, ...SPECS[name] };
      const r: FamilyRunResult = await run({ ...spec, updates: 2 });
      const s1 = receiptOf(r);
      expect(s1.algorithm.name).toBe(name);
      expect(s1.codeRevision).toBe("3f2a9c1d0b7e");
      expect(s1.parent.digest).toBe(r.facts.parent.digest);
      expect(s1.data.heldOut.caseCount).toBe(300);
      expect(s1.expectedEvidence.protectedFamilies.map((f) => f.family)).toEqual(["account_deletion", "legal_threat", "pii_request"]);
      expect(s1.expectedEvidence.canaryBoundary.allowedTools).not.toContain("delete_account");
      if (spec.data) expect(s1.data.training).toEqual({ id: spec.data.id, digest: spec.data.digest });
      else expect(s1.data.training.digest).toBe(V2.digest);
      const [straight, resumed] = await resumeDigests({ ...spec, updates: 1 });
      expect(resumed).toBe(straight);
    });
  }
});

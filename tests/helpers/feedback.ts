// Simulated raters for feedback-training tests: honest raters judge an interaction by whether the
// ticket was handled right (and the protected rule held); careless raters rate at random; a stale
// rubric (old feedback) rewarded the opposite. Credibility and time stamps are what the trainer sees.
import type { Feedback, Interaction } from "@/server/datasets/records";
import { hexId } from "@/server/digest";
import { simulateEpisode, type Episode } from "@/server/environments/episode";
import { Rng } from "@/server/environments/prng";
import type { DeskTask } from "@/server/environments/support-desk";
import { deskDomainOfTask } from "@/server/environments/support-desk/domains";
import { deskExpert, deskExpertAction } from "@/server/environments/support-desk/expert";
import type { Environment, TaskDistribution } from "@/server/environments/types";
import { stepsOf } from "@/server/trainers/data-sources";

export type Rater = { id: string; credibility: number; judge: "honest" | "random" | "inverted" };

const success = (ep: Episode) => ep.outcomeReached && ep.protected?.pass !== false;

export function simulateRatings(
  runs: readonly { interaction: Interaction; episode: Episode }[],
  raters: readonly Rater[],
  o: { seed: string; givenAt: string; perInteraction?: number },
): Feedback[] {
  const rng = Rng.from(`${o.seed}/ratings`);
  const out: Feedback[] = [];
  runs.forEach(({ interaction, episode }, i) => {
    for (let k = 0; k < (o.perInteraction ?? 1); k++) {
      const r = raters[rng.int(raters.length)]!;
      const good = success(episode);
      const rating = r.judge === "random" ? 1 + rng.int(5) : (r.judge === "honest") === good ? 4 + rng.int(2) : 1 + rng.int(2);
      out.push({
        kind: "feedback",
        id: `fb-${hexId(12, o.seed, i, k)}`,
        interactionId: interaction.id,
        raterId: r.id,
        credibility: r.credibility,
        givenAt: o.givenAt,
        rating,
        preferredOver: null,
        correction: null,
        suggestions: [],
        text: "",
      });
    }
  });
  return out;
}

/** Interactions of a mediocre agent (the expert slipping at `slip` of its steps), with their episodes. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function slippingInteractions(desk: Environment<any, any>, distribution: TaskDistribution, n: number, slip: number, seed: string, perTask = 1) {
  const out: { interaction: Interaction; episode: Episode }[] = [];
  for (let i = 0; i < n; i++) {
    const task = desk.sampleTask(distribution, `${seed}/task/${i}`);
    for (let k = 0; k < perTask; k++) {
      const ep = simulateEpisode(desk, deskExpert(task, slip), task, { episodeKey: `${seed}/${i}/${k}`, seed: `${seed}/${i}/${k}` });
      if (ep.aborted) continue;
      out.push({
        interaction: { kind: "interaction", id: `int-${hexId(12, seed, i, k)}`, taskId: task.id, domain: deskDomainOfTask(task), policy: "sha256:" + "e".repeat(64), steps: stepsOf(ep), text: "", recordedAt: null },
        episode: ep,
      });
    }
  }
  return out;
}

/** Preference feedback: on each task with a success and a failure, the success is preferred. */
export function simulatePreferences(runs: readonly { interaction: Interaction; episode: Episode }[], o: { seed: string; givenAt: string; credibility?: number }): Feedback[] {
  const byTask = new Map<string, { interaction: Interaction; episode: Episode }[]>();
  for (const r of runs) byTask.set(r.interaction.taskId, [...(byTask.get(r.interaction.taskId) ?? []), r]);
  const out: Feedback[] = [];
  for (const group of byTask.values()) {
    const win = group.find((r) => success(r.episode));
    const lose = group.find((r) => !success(r.episode));
    if (!win || !lose) continue;
    out.push({ kind: "feedback", id: `fb-${hexId(12, o.seed, win.interaction.id)}`, interactionId: win.interaction.id, raterId: "pref", credibility: o.credibility ?? 1, givenAt: o.givenAt, rating: null, preferredOver: lose.interaction.id, correction: null, suggestions: [], text: "" });
  }
  return out;
}

/** Corrections: on each failed interaction, the first step where the expert would have acted otherwise. */
export function simulateCorrections(runs: readonly { interaction: Interaction; episode: Episode }[], o: { seed: string; givenAt: string }): Feedback[] {
  const out: Feedback[] = [];
  for (const { interaction, episode } of runs) {
    if (success(episode)) continue;
    const task = episode.task as DeskTask;
    const k = episode.steps.findIndex((s) => deskExpertAction(task, { features: Float64Array.from(s.features), key: s.key }) !== s.action);
    if (k < 0) continue;
    const s = episode.steps[k]!;
    out.push({ kind: "feedback", id: `fb-${hexId(12, o.seed, interaction.id)}`, interactionId: interaction.id, raterId: "reviewer", credibility: 1, givenAt: o.givenAt, rating: null, preferredOver: null, correction: { step: k, action: deskExpertAction(task, { features: Float64Array.from(s.features), key: s.key }) }, suggestions: [], text: "" });
  }
  return out;
}

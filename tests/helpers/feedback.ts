// Simulated raters for feedback-training tests: honest raters judge an interaction by whether the
// ticket was handled right (and the protected rule held); careless raters rate at random; a stale
// rubric (old feedback) rewarded the opposite. Credibility and time stamps are what the trainer sees.
import type { Feedback, Interaction } from "@/server/datasets/records";
import type { Episode } from "@/server/environments/episode";
import { hexId } from "@/server/environments/digest";
import { Rng } from "@/server/environments/prng";

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

// The card the candidate page shows for who served the locked gate: rendered to markup, on a phone's width
// nothing is fixed-width (long key ids wrap), and a not-counted identity says why.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ServedByCard } from "@/components/candidates/served-by-card";

describe("ServedByCard", () => {
  it("says that runner_reward scores trust the runners, lists each identity with counted / not counted and why", () => {
    const html = renderToStaticMarkup(
      createElement(ServedByCard, {
        serving: {
          evaluator: "exam@3",
          scoring: "runner_reward",
          outputAttribute: null,
          gateRunId: "gr-1",
          servers: [
            { identity: "ak-0123456789abcdef", name: "desk runners", role: "runner", rollouts: 20, counted: true, reason: null },
            { identity: "ak-fedcba9876543210", name: "apo trainer", role: "algorithm", rollouts: 4, counted: false, reason: "served by ak-fedcba9876543210, which declared this candidate" },
          ],
        },
      }),
    );
    expect(html).toContain("Scores come from the runners&#x27; own reward spans; served by: desk runners (ak-0123456789abcdef), apo trainer (ak-fedcba9876543210).");
    expect(html).toContain('data-identity="ak-fedcba9876543210" data-counted="false"');
    expect(html).toContain("which declared this candidate");
    expect(html).toMatch(/break-all/);
    expect(html).not.toMatch(/\bw-\d{2,}\b|min-w-\[/);
  });
});

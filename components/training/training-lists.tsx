"use client";

// /training lists both kinds of training side by side: Lightgate's own runs and the external (Agent Lightning)
// trainings watched from the store. `?source=lightgate|agent-lightning` shows one kind; absent, both.
import { useUrlState } from "@/components/ui/url-state";
import { isTrainingSource, type TrainingSource } from "@/lib/training/external-href";
import { ExternalTrainingsList } from "./external-list";
import { RunsList } from "./runs-list";

const TABS: { key: TrainingSource | ""; label: string }[] = [
  { key: "", label: "All sources" },
  { key: "lightgate", label: "Lightgate runs" },
  { key: "agent-lightning", label: "Agent Lightning" },
];

export function TrainingLists() {
  const url = useUrlState();
  const raw = url.get("source");
  const source = isTrainingSource(raw) ? raw : "";
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap gap-1" role="tablist" aria-label="Source">
        {TABS.map((t) => (
          <button key={t.key} type="button" role="tab" aria-selected={source === t.key} onClick={() => url.set({ source: t.key || null })} className={`rounded-md px-3 py-1.5 text-sm ${source === t.key ? "bg-panel-2 font-medium text-ink" : "text-ink-3 hover:text-ink"}`}>
            {t.label}
          </button>
        ))}
      </div>
      {source !== "agent-lightning" && (
        <section aria-labelledby="lightgate-runs" data-testid="lightgate-runs">
          <h2 id="lightgate-runs" className="mb-2 text-sm font-semibold text-ink">Lightgate runs</h2>
          <RunsList />
        </section>
      )}
      {source !== "lightgate" && (
        <section aria-labelledby="external-trainings" data-testid="external-trainings">
          <h2 id="external-trainings" className="mb-1 text-sm font-semibold text-ink">Agent Lightning trainings</h2>
          <p className="mb-2 text-xs text-ink-3">Resources lineages an algorithm writes through the store (/v1/agl), with the rollouts that ran each version.</p>
          <ExternalTrainingsList />
        </section>
      )}
    </div>
  );
}

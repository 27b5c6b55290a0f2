// What a publication would change, as the preview procedures report it: the inputs and policy keys that
// move, then every candidate whose verdict or checks would change, with the gate's own reason.
import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { CheckStatusBadge, STATUS_TONE } from "@/components/candidates/verdict";
import { shortDigest } from "@/components/ui/format";
import type { TPreviewPublishOutput, TPreviewDatasetOutput } from "./types";
import { DiffTable } from "./diff-table";

const INPUT_LABEL: Record<string, string> = {
  evaluator: "Evaluator",
  toolContracts: "Tool contracts",
  taskDistribution: "Task distribution",
  retryPolicy: "Retry policy",
  permissions: "Permissions",
  destinations: "Destinations",
  modelServer: "Model server",
  parent: "Parent",
};
const short = (s: string) => (s.length > 64 ? `${s.slice(0, 61)}…` : s);

export function RegistryImpact({ impact }: { impact: TPreviewPublishOutput }) {
  const total = impact.changed.length + impact.unchanged;
  return (
    <div className="space-y-3 text-sm" data-testid="impact">
      <p className="text-ink-2">
        Publishes <span className="font-medium text-ink">v{impact.version}</span> for {impact.agent === "*" ? "every agent" : impact.agent} (digest <span className="font-mono text-xs">{shortDigest(impact.digest)}</span>)
        {impact.supersedes ? <>, superseding v{impact.supersedes.version}.</> : ", the first version of this record."}
      </p>
      {impact.sameAsCurrent && <p className="rounded-md border border-warn/30 bg-warn/10 px-3 py-2 text-warn">Same content as the current version: publishing only adds a version label.</p>}
      {impact.agents.map((a) => (
        <div key={a.agent} className="space-y-2 rounded-md border border-line p-3">
          <div className="font-medium text-ink">{a.agent}</div>
          {a.overriddenBy ? (
            <p className="text-ink-3">No change here: {a.overriddenBy} applies instead.</p>
          ) : (
            <>
              {a.inputs.length === 0 && a.policy.length === 0 && <p className="text-ink-3">No version the gate records and no policy threshold changes: recorded evidence stays fresh.</p>}
              {a.inputs.length > 0 && (
                <ul className="space-y-1" data-testid="impact-inputs">
                  {a.inputs.map((i) => (
                    <li key={i.input} className="break-words text-ink-2">
                      <span className="font-medium text-ink">{INPUT_LABEL[i.input] ?? i.input}</span>: <span className="font-mono text-xs">{short(i.before)}</span> → <span className="font-mono text-xs">{short(i.after)}</span>
                      {i.checks.length > 0 && <> — checks {i.checks.join(", ")} recorded against the old one go stale</>}
                    </li>
                  ))}
                </ul>
              )}
              {a.policy.length > 0 && <DiffTable entries={a.policy} a="policy now" b="after publishing" testId="impact-policy" />}
              {a.judged < a.candidates && <p className="text-xs text-ink-3">Judged the newest {a.judged} of {a.candidates} candidates.</p>}
            </>
          )}
        </div>
      ))}
      {impact.changed.length === 0 ? (
        <p className="text-ink-2" data-testid="impact-none">No candidate&apos;s verdict or checks change ({total} judged).</p>
      ) : (
        <div className="space-y-2" data-testid="impact-candidates">
          <p className="text-ink-2">{impact.changed.length} of {total} candidates change:</p>
          <ul className="space-y-2">
            {impact.changed.map((c) => (
              <li key={c.id} className="rounded-md border border-line p-3" data-testid="impact-candidate">
                <div className="flex flex-wrap items-center gap-2">
                  <Link href={`/candidates/${c.id}`} className="font-medium break-all text-ink hover:text-accent">{c.title}</Link>
                  {c.label && <Badge>{c.label}</Badge>}
                  <Badge tone={STATUS_TONE[c.now]}>{c.now}</Badge>→<Badge tone={STATUS_TONE[c.after]}>{c.after}</Badge>
                </div>
                <ul className="mt-2 space-y-1 text-xs text-ink-2">
                  {c.changes.map((k) => (
                    <li key={`${k.scope}-${k.check}`} className="break-words">
                      Check {k.check}{k.scope === "canary-stage" ? " (canary stage)" : ""} <CheckStatusBadge status={k.now} /> → <CheckStatusBadge status={k.after} /> {k.why}
                    </li>
                  ))}
                </ul>
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}

export function DatasetImpact({ impact }: { impact: TPreviewDatasetOutput }) {
  return (
    <div className="space-y-2 text-sm text-ink-2" data-testid="impact">
      {impact.existingVersion ? (
        <p className="rounded-md border border-warn/30 bg-warn/10 px-3 py-2 text-warn">This content is already published as v{impact.existingVersion} ({impact.datasetId}): publishing changes nothing.</p>
      ) : (
        <p>
          Publishes <span className="font-medium text-ink">v{impact.version}</span> ({impact.caseCount} cases, {impact.datasetId})
          {impact.supersedes ? <>: {impact.added} case{impact.added === 1 ? "" : "s"} added and {impact.removed} removed against v{impact.supersedes.version} ({impact.supersedes.caseCount} cases).</> : "."}
        </p>
      )}
      <p>Nothing recorded goes stale: a receipt pins its exam by digest and keeps it. Training runs started afterwards pin the newest version.</p>
      {impact.pinnedBy.length > 0 ? (
        <div data-testid="impact-pins">
          <p>{impact.pinnedBy.length} receipt{impact.pinnedBy.length === 1 ? " pins" : "s pin"} an earlier version and keep{impact.pinnedBy.length === 1 ? "s" : ""} it:</p>
          <ul className="mt-1 space-y-0.5 text-xs">
            {impact.pinnedBy.map((p) => (
              <li key={p.candidateId}><Link href={`/candidates/${p.candidateId}`} className="text-ink hover:text-accent">{p.title}</Link> — v{p.version}</li>
            ))}
          </ul>
        </div>
      ) : (
        <p data-testid="impact-pins">No receipt pins a version of {impact.name}{impact.scannedAll ? "" : " among the first 5,000 receipts"}.</p>
      )}
    </div>
  );
}

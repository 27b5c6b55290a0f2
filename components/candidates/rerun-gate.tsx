"use client";

// Re-run the gate (gate:run): what the re-run will redo for the checks that went stale, and the button for
// those who hold the scope for this agent. A re-run computes evidence only; it never approves or moves a pointer.
import { useState } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { RotateCw } from "lucide-react";
import { useCan } from "@/components/auth/me-provider";
import { useTRPC } from "@/components/trpc/react";
import { Alert, Button } from "@/components/ui/form";
import type { CandidateDetail } from "./types";
import { NotAllowedNote } from "@/components/auth/not-allowed";

// What a gate run seals anew (server/receipts/gate-queue.ts → gate-run.ts: a new stage 3).
const REDO: Record<number, string> = {
  1: "resolves every pin again (candidate, parent, snapshots, evaluator)",
  4: "runs the locked held-out gate again for the candidate and its exact parent, case by case, scored by the evaluator in force now (the new stage 3 names it; stage 1 keeps its declaration)",
  5: "re-compares the protected cases against the exact parent",
  6: "runs a new bounded canary and verifies each outcome",
  7: "tests the rollback to the exact parent again",
};

export function rerunPlan(staleChecks: readonly number[]): string[] {
  const checks = [...new Set(staleChecks)].sort();
  const plan = checks.filter((c) => REDO[c]).map((c) => `check ${c}: ${REDO[c]}`);
  const fromStage2 = checks.filter((c) => c === 2 || c === 3);
  if (fromStage2.length) {
    plan.push(`check${fromStage2.length > 1 ? "s 2 and 3 read" : ` ${fromStage2[0]} reads`} the training rollouts sealed in stage 2: a re-run does not collect new ones, so ${fromStage2.length > 1 ? "they stay" : "it stays"} stale until new training evidence is sealed`);
  }
  return plan;
}

export function RerunGate({ detail }: { detail: CandidateDetail }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const can = useCan("gate:run", detail.summary.agent);
  const request = useMutation(trpc.candidates.requestGateRun.mutationOptions({ onSuccess: () => queryClient.invalidateQueries() }));
  const [error, setError] = useState<string | null>(null);
  const stale = detail.report?.freshness.stale.map((s) => s.check) ?? [];
  return (
    <div className="mt-3 space-y-2 text-sm" data-testid="rerun-gate">
      <div className="text-ink-2">
        <span className="font-medium text-ink">A gate re-run, against the versions in force now:</span>
        <ul className="mt-1 list-disc space-y-0.5 pl-5">
          {rerunPlan(stale).map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      </div>
      {can ? (
        <div className="flex flex-wrap items-center gap-2">
          <Button
            onClick={() => {
              setError(null);
              request.mutate({ candidateId: detail.summary.id }, { onError: (e) => setError(e.message) });
            }}
            disabled={request.isPending || request.isSuccess}
            data-testid="rerun-button"
          >
            <RotateCw className="h-4 w-4" aria-hidden="true" /> {request.isSuccess ? "Gate run queued" : "Re-run gate"}
          </Button>
          {request.data && <span className="text-xs text-ink-3">run {request.data.id} is {request.data.status}; a gate worker picks it up and seals a new stage 3.</span>}
        </div>
      ) : (
        <NotAllowedNote subject="Re-running the gate" scope="gate:run" agent={detail.summary.agent} testId="rerun-not-allowed" />
      )}
      {error && <Alert tone="fail">{error}</Alert>}
    </div>
  );
}

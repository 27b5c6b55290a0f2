"use client";

// One evaluation or A/B test: what was asked, progress while it runs (polled), then its results.
import { useQuery } from "@tanstack/react-query";
import type { AbTestReport } from "@/server/evaluations/ab";
import type { EvaluationReport } from "@/server/evaluations/evaluation";
import { useTRPC } from "@/components/trpc/react";
import { Alert } from "@/components/ui/form";
import { Card } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { timestamp, duration } from "@/components/ui/format";
import { AbResult } from "./ab-result";
import { EvaluationResult } from "./evaluation-result";
import { isActive, JobProgress, JobStatusBadge } from "./job-status";

export function EvaluationDetail({ id }: { id: string }) {
  const trpc = useTRPC();
  const job = useQuery(trpc.evaluations.get.queryOptions({ id }, { refetchInterval: (q) => (q.state.data && isActive(q.state.data.status) ? 1000 : false) }));
  if (job.error) return <Alert tone="fail">{job.error.message}</Alert>;
  if (!job.data) return <div className="text-sm text-ink-3">Loading…</div>;
  const j = job.data;
  const took = j.startedAt && j.finishedAt ? ` in ${duration((j.finishedAt.getTime() - j.startedAt.getTime()) / 1000)}` : "";
  return (
    <>
      <PageHeader
        eyebrow={j.kind === "ab-test" ? "A/B test" : "Evaluation"}
        title={j.name}
        description={`Started by ${j.createdBy} at ${timestamp(j.createdAt)}${j.finishedAt ? `, finished${took}` : ""}.`}
        actions={<JobStatusBadge status={j.status} />}
      />
      {isActive(j.status) && (
        <Card title="Running" description="Training and scoring in the server; this page follows along.">
          <JobProgress progress={j.progress} note={j.progressNote} />
        </Card>
      )}
      {j.status === "failed" && <Alert tone="fail" testId="job-error">{j.error}</Alert>}
      {j.status === "interrupted" && <Alert tone="warn">The server stopped while this ran; start it again.</Alert>}
      {j.status === "succeeded" && j.result && (j.kind === "ab-test" ? <AbResult report={j.result as AbTestReport} request={j.request as never} /> : <EvaluationResult report={j.result as EvaluationReport} />)}
    </>
  );
}

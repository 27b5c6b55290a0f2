import type { Metadata } from "next";
import { headers } from "next/headers";
import Link from "next/link";
import { notFound } from "next/navigation";
import { Suspense } from "react";
import { NotAllowed } from "@/components/auth/not-allowed";
import { CaseTracesView } from "@/components/candidates/case-traces-view";
import { PageHeader } from "@/components/ui/page-header";
import { PATH_HEADER } from "@/lib/auth/public-paths";
import { decodePathSegments, pathNameProblem } from "@/lib/http/path-segments";
import { actorCan } from "@/server/auth/actor";
import { getDatabase } from "@/server/db/client";
import { DomainError } from "@/server/errors";
import { caseRollouts, type CaseRollouts } from "@/server/receipts/case-rollouts";
import { requireActor } from "@/app/current-actor";

type Params = { params: Promise<{ id: string; caseId: string }> };

/**
 * The candidate and case ids decoded exactly once from the request's own path (Next leaves `%2F` encoded in
 * params, and a case id may hold a slash); the params' values when the path is not at hand.
 */
async function idsFromPath(params: Params["params"]): Promise<{ id: string; caseId: string } | null> {
  const path = (await headers()).get(PATH_HEADER);
  const fallback = await params;
  const segments = path ? decodePathSegments(path.split("?")[0]!) : ["candidates", fallback.id, "cases", fallback.caseId];
  if (!segments || segments.length !== 4 || segments[0] !== "candidates" || segments[2] !== "cases") return null;
  const [id, caseId] = [segments[1]!, segments[3]!];
  return pathNameProblem(id, "candidate id", 200) || pathNameProblem(caseId, "case id") ? null : { id, caseId };
}

/** The case as the receipt's judged evidence holds it, or null for an unknown candidate or case (a 404, never a 5xx). */
async function caseOf(ids: { id: string; caseId: string } | null): Promise<CaseRollouts | null> {
  if (!ids) return null;
  return caseRollouts(await getDatabase(), ids.id, ids.caseId).catch((e: unknown) => {
    if (e instanceof DomainError && e.code === "NOT_FOUND") return null;
    throw e;
  });
}

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const ids = await idsFromPath(params);
  return { title: ids ? `Case ${ids.caseId} · parent vs candidate` : "Case" };
}

export default async function CaseTracesPage({ params }: Params) {
  const actor = await requireActor();
  if (!actorCan(actor, "dashboard:read")) return <NotAllowed scope="dashboard:read" />;
  const found = await caseOf(await idsFromPath(params));
  if (!found) notFound();
  return (
    <>
      <PageHeader
        eyebrow={
          <Link href={`/candidates/${encodeURIComponent(found.candidateId)}#protected-cases`} className="hover:underline" data-testid="case-candidate-link">
            ← {found.name.title}
            {found.name.label ? ` (${found.name.label})` : ""}
          </Link>
        }
        title={<span className="font-mono break-all" data-testid="case-title">{found.caseId}</span>}
        description="The exact parent's trace beside the candidate's for this locked-gate case: the rollouts the receipt's judged evidence names, with what differs marked."
      />
      <Suspense>
        <CaseTracesView candidateId={found.candidateId} caseId={found.caseId} />
      </Suspense>
    </>
  );
}

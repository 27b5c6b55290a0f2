import { notFound } from "next/navigation";
import type { Metadata } from "next";
import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { PageHeader } from "@/components/ui/page-header";
import { CandidateView } from "@/components/candidates/candidate-view";
import { getDatabase } from "@/server/db/client";
import { candidateLabel, type CandidateName } from "@/server/receipts/candidate-names";

// The title names the candidate as the body does: "<agent> · <resources> v<n>" (and its reference letter).
async function nameOf(id: string): Promise<(CandidateName & { agent: string }) | null> {
  const row = await (await getDatabase()).db.candidate.findUnique({ where: { id }, select: { agent: true, resourcesId: true, version: true } });
  return row && { ...candidateLabel(row), agent: row.agent };
}

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }): Promise<Metadata> {
  const name = await nameOf((await params).id);
  return { title: name ? name.title : "Candidate" };
}

export default async function CandidatePage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const name = await nameOf(id);
  if (!name) notFound();
  return (
    <>
      <PageHeader
        eyebrow={
          <span className="flex flex-wrap gap-x-3">
            <Link href="/candidates" className="hover:underline">
              ← Candidates
            </Link>
            {name?.agent && (
              <Link href={`/agents/${encodeURIComponent(name.agent)}`} className="hover:underline" data-testid="candidate-agent-link">
                agent {name.agent} · versions and pointers
              </Link>
            )}
          </span>
        }
        title={
          <span className="flex flex-wrap items-center gap-x-3 gap-y-1 break-words" data-testid="candidate-title">
            {name?.title ?? `Candidate ${id}`}
            {name?.label && <Badge tone="neutral">{name.label}</Badge>}
          </span>
        }
        description={<>Judged against its exact parent by the seven checks; the verdict says how far it may go. <span className="font-mono text-xs text-ink-3">{id}</span></>}
      />
      <CandidateView id={id} />
    </>
  );
}

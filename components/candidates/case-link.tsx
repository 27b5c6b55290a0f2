"use client";

// A case id that opens the exact parent's and the candidate's traces of that case side by side.
import Link from "next/link";
import { caseTracesHref } from "@/lib/candidates/case-href";

export function CaseLink({ candidateId, caseId }: { candidateId: string; caseId: string }) {
  return (
    <Link href={caseTracesHref(candidateId, caseId)} className="text-accent hover:underline" data-testid="case-link">
      {caseId}
    </Link>
  );
}

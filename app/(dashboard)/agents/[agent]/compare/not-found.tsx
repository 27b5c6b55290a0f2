import Link from "next/link";
import { SearchX } from "lucide-react";
import { EmptyState } from "@/components/ui/empty-state";
import { agentFromPath } from "../../agent-path";

// What a compare link that names no version of this agent renders, with the HTTP status 404: a mistyped id, a
// version of another agent, or a parameter given twice. Back to the agent's versions to pick two.
export default async function CompareNotFound() {
  const agent = await agentFromPath("", ["compare"]);
  return (
    <div data-testid="not-found">
      <h1 className="sr-only">Not found</h1>
      <EmptyState title="No such pair of versions" icon={<SearchX className="h-6 w-6" aria-hidden />}>
        <span data-testid="compare-not-found">
          This link names a version that is not one of {agent ?? "this agent"}&apos;s — an unknown id, a version of another agent, or a parameter given twice.{" "}
        </span>
        {agent ? (
          <Link href={`/agents/${encodeURIComponent(agent)}#versions`} className="text-accent hover:underline">
            Pick two of {agent}&apos;s versions
          </Link>
        ) : (
          <Link href="/candidates" className="text-accent hover:underline">
            Back to the candidates
          </Link>
        )}
      </EmptyState>
    </div>
  );
}

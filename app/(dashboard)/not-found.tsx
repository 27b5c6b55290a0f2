import Link from "next/link";
import { SearchX } from "lucide-react";
import { EmptyState } from "@/components/ui/empty-state";

// What `notFound()` renders inside the dashboard (an unknown candidate, run, sweep, dataset, evaluation or
// registry record), with the HTTP status 404: a shared link to something deleted or mistyped says so.
export default function DashboardNotFound() {
  return (
    <div data-testid="not-found">
      <h1 className="sr-only">Not found</h1>
      <EmptyState title="Nothing here by that name" icon={<SearchX className="h-6 w-6" aria-hidden />}>
        No record has this id or name — it may be mistyped, or from another Lightgate instance.{" "}
        <Link href="/" className="text-accent hover:underline">Back to the overview</Link>
      </EmptyState>
    </div>
  );
}

"use client";

// The first version of a new record (kind from ?kind=), then on to its page.
import { useRouter } from "next/navigation";
import { Card } from "@/components/ui/card";
import { useUrlState } from "@/components/ui/url-state";
import { isAreaKind, isDatasetKind, registryHref } from "@/lib/registries/kinds";
import { CASES_TEMPLATE, PublishForm } from "./publish-form";

export function NewRecord() {
  const url = useUrlState();
  const router = useRouter();
  const asked = url.get("kind") ?? "evaluator";
  const kind = isAreaKind(asked) ? asked : "evaluator";
  return (
    <Card>
      <PublishForm
        key={kind}
        initialText={isDatasetKind(kind) ? CASES_TEMPLATE : "{}"}
        onPublished={(p) => router.push(registryHref(p.kind, p.name, { agent: p.agent, b: p.version }))}
        initialKind={kind}
      />
    </Card>
  );
}

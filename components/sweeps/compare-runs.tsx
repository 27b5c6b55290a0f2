"use client";

// Overlay any training runs: their ids in the URL (`?runs=a,b,c`), editable here.
import { useState, type FormEvent } from "react";
import { Card } from "@/components/ui/card";
import { Button, Field, TextInput } from "@/components/ui/form";
import { useUrlState } from "@/components/ui/url-state";
import { RunsOverlay } from "./runs-overlay";

const parse = (text: string) => [...new Set(text.split(/[\s,]+/).map((x) => x.trim()).filter(Boolean))].slice(0, 12);

export function CompareRuns() {
  const url = useUrlState();
  const runIds = parse(url.get("runs") ?? "");
  const [text, setText] = useState(runIds.join(", "));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    url.set({ runs: parse(text).join(",") || null });
  };
  return (
    <div className="space-y-4">
      <form onSubmit={submit} className="flex flex-wrap items-end gap-3" aria-label="Runs to overlay">
        <div className="min-w-64 flex-1">
          <Field label="Run ids (up to 12, comma-separated)" htmlFor="compare-runs">
            <TextInput id="compare-runs" value={text} onChange={(e) => setText(e.target.value)} placeholder="run-…, run-…" />
          </Field>
        </div>
        <Button type="submit" variant="secondary">Overlay</Button>
      </form>
      <Card title="Validation reward per update" description="Each run on the trainer's own validation split; the dashed line is the exact parent's level.">
        <RunsOverlay runIds={runIds} />
      </Card>
    </div>
  );
}

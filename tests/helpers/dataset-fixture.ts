// A small family of dataset snapshots with lineage, for the dataset pages' tests (integration and e2e):
// raw expert demonstrations whose text holds PII → an anonymized, cleaned child → its stratified split.
import type { Database } from "@/server/db/client";
import { prepareSnapshot, splitSnapshot } from "@/server/datasets/prepare";
import { createSnapshot } from "@/server/datasets/snapshot";
import { DESK, expertData } from "@/server/evaluations/setup";
import type { Demonstration } from "@/server/datasets/records";

const TEXTS = [
  "My email is maria.lopez@example.com and the refund still has not arrived. Regards, Maria Lopez",
  "Please call me on +44 20 7946 0958, the export page has been down since this morning.",
  "How do I reset my password? I use jan.kowalski@example.org for the account.",
  "Send the invoice to 221B Baker Street, my card 4111 1111 1111 1111 was charged twice.",
];

export async function seedLineageFixture(database: Database, name = "support-desk/demos") {
  const demos = (expertData(48, `fixture/${name}`).records as Demonstration[]).map((d, i) => ({ ...d, text: TEXTS[i % TEXTS.length]! }));
  const raw = await createSnapshot(database, { name: `${name}/raw`, records: demos, createdBy: "fixture", lineage: { sources: ["expert-team"], rollouts: ["ro-fixture-1", "ro-fixture-2"] } });
  const clean = await prepareSnapshot(database, {
    name,
    records: demos,
    steps: [{ step: "clean" }, { step: "anonymize" }, { step: "deduplicate" }],
    environment: DESK,
    lineage: { parentSnapshot: raw.digest, sources: ["expert-team"], feedback: ["fb-fixture-1"] },
    createdBy: "fixture",
  });
  const split = await splitSnapshot(database, { digest: clean.digest, shares: { train: 0.6, validation: 0.2, test: 0.2 }, seed: "fixture", createdBy: "fixture" });
  return { raw, clean, split };
}

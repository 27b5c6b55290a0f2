// Store fixtures: a real store on a fresh database, and span builders shaped like the Python client's.
import { createStore, type LightningStore, type Span } from "@/server/store";
import { createTestDatabase, type TestDatabase } from "./db";
import type { Dialect } from "@/server/db/config";

export type StoreFixture = { database: TestDatabase; store: LightningStore; drop(): Promise<void> };

export async function createTestStore(dialect: Dialect, label = "store", opts: Parameters<typeof createStore>[1] = { scanDebounceMs: 0 }): Promise<StoreFixture> {
  const database = await createTestDatabase(dialect, label);
  const store = createStore(database, opts);
  return {
    database,
    store,
    async drop() {
      await store.close();
      await database.drop();
    },
  };
}

/** Mirrors tests/store/test_client_server.py::_make_span. */
export function makeSpan(rolloutId: string, attemptId: string, sequenceId: number, name: string, extra: Record<string, unknown> = {}): Span {
  const hex = (n: number, w: number) => Math.max(0, n).toString(16).padStart(w, "0");
  return {
    rollout_id: rolloutId,
    attempt_id: attemptId,
    sequence_id: sequenceId,
    trace_id: hex(sequenceId, 32),
    span_id: hex(sequenceId, 16),
    parent_id: null,
    name,
    status: { status_code: "OK", description: null },
    attributes: {},
    events: [],
    links: [],
    start_time: null,
    end_time: null,
    context: null,
    parent: null,
    resource: { attributes: {}, schema_url: "" },
    ...extra,
  } as Span;
}

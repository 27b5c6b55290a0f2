// A real store behind a real HTTP server (the node:http fast path `npm start` serves the store API on), with API keys.
import { createApiKey } from "@/server/auth/api-keys";
import { createStoreHandler } from "@/server/store/http/handler";
import { serveHandler } from "@/server/store/http/node-server";
import type { Dialect } from "@/server/db/config";
import { AglClient } from "./agl-client";
import { createTestStore, type StoreFixture } from "./store";

export type StoreServer = StoreFixture & {
  url: string;
  keys: { runner: string; algorithm: string; release_bot: string };
  /** A client with the algorithm key (may do everything a Python algorithm does). */
  client: AglClient;
  close(): Promise<void>;
};

export async function startStoreServer(dialect: Dialect, label = "http", opts: { allowAnonymous?: boolean; scanDebounceMs?: number } = {}): Promise<StoreServer> {
  const f = await createTestStore(dialect, label, { scanDebounceMs: opts.scanDebounceMs ?? 0 });
  const handle = createStoreHandler({ store: f.store, db: f.database.db, audit: f.database, allowAnonymous: opts.allowAnonymous ?? false });
  const served = await serveHandler(handle);
  const keys = {
    runner: (await createApiKey(f.database.db, { name: "test runner", role: "runner" })).token,
    algorithm: (await createApiKey(f.database.db, { name: "test algorithm", role: "algorithm" })).token,
    release_bot: (await createApiKey(f.database.db, { name: "test bot", role: "release_bot" })).token,
  };
  return {
    ...f,
    url: served.url,
    keys,
    client: new AglClient(served.url, { Authorization: `Bearer ${keys.algorithm}` }),
    async close() {
      await served.close();
      await f.drop();
    },
  };
}

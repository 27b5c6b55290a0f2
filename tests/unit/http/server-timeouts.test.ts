// Both servers bound how long a request may take to arrive: a trickling body would otherwise hold its share
// of a family's in-flight budget (server/http/body-limits.ts) for Node's default 300 s. Waiting the real
// 30 s in a test would cost more than it tells, so this pins the servers' settings.
import { describe, expect, it } from "vitest";
import { createLightgateServer } from "@/server/process/server-listener";
import { serveHandler } from "@/server/store/http/node-server";

describe("server timeouts", () => {
  const noStore = async () => ({ status: 404, headers: {}, body: null });

  it("the production server takes at most 30 s for a request, 10 s for its headers", () => {
    const server = createLightgateServer(noStore, () => undefined);
    expect({ request: server.requestTimeout, headers: server.headersTimeout }).toEqual({ request: 30_000, headers: 10_000 });
  });

  it("the store-only server does the same", async () => {
    const served = await serveHandler(noStore);
    expect({ request: served.server.requestTimeout, headers: served.server.headersTimeout }).toEqual({ request: 30_000, headers: 10_000 });
    await served.close();
  });
});

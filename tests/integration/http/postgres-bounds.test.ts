// Caller values PostgreSQL cannot hold are refused in validation, naming the field, on both databases. Found by
// the hostile-input bench on PostgreSQL, where each answered 500: a resources version past 2³¹ − 1 (an
// `integer` column), a pointer-history time before year 1 (PostgreSQL timestamps end at 4713 BC, JS dates at
// 271821 BC), and a NUL in a sign-in email sent as `APPLICATION/JSON` (the NUL check read only lower case).
import { TRPCError } from "@trpc/server";
import { afterAll, beforeAll, expect, it } from "vitest";
import { INT32_MAX } from "@/lib/validation/integers";
import { createApiKey } from "@/server/auth/api-keys";
import { handleAuthRequest } from "@/server/http/auth-endpoints";
import { NUL_REFUSAL } from "@/server/http/nul";
import { handlePointerRequest } from "@/server/receipts/http";
import { callerAs } from "../../helpers/caller";
import { createTestDatabase, describeEachDialect, type TestDatabase } from "../../helpers/db";

async function refusal(p: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await p;
  } catch (e) {
    if (e instanceof TRPCError) return { code: e.code, message: e.message };
    throw e;
  }
  throw new Error("the call was not refused");
}

describeEachDialect("values the database cannot hold", (dialect) => {
  let database: TestDatabase;
  let token: string;
  beforeAll(async () => {
    database = await createTestDatabase(dialect, "bounds");
    token = (await createApiKey(database.db, { name: "consumer", role: "runner" })).token;
  });
  afterAll(() => database?.drop());

  it("tRPC: a resources version past 2³¹ − 1 is a 400 naming it", async () => {
    const viewer = callerAs(database, "viewer");
    const big = INT32_MAX + 1;
    // (The in-process caller carries zod's issues as the message; over HTTP the error formatter makes it a sentence.)
    expect(await refusal(viewer.store.getResourcesVersion({ resources_id: "rs-x", version: big }))).toMatchObject({ code: "BAD_REQUEST", message: expect.stringContaining('"version"') });
    expect(await refusal(viewer.store.diffResources({ resources_id: "rs-x", from_version: big, to_version: 1 }))).toMatchObject({ code: "BAD_REQUEST", message: expect.stringContaining('"from_version"') });
    expect(await viewer.store.getResourcesVersion({ resources_id: "rs-x", version: INT32_MAX })).toBeNull();
  });

  it("pointer history: a time outside years 1–9999 is a 400 naming `at`", async () => {
    for (const at of ["-271821-04-20T00:00:00.000Z", "+275760-09-13T00:00:00.000Z"]) {
      const res = await handlePointerRequest(database, new Request(`http://localhost/v1/pointers/a/history?at=${encodeURIComponent(at)}`, { headers: { authorization: `Bearer ${token}` } }), "a", "history");
      expect(res.status, at).toBe(400);
      expect(await res.json()).toMatchObject({ field: "at" });
    }
  });

  it("sign-in: a NUL in the email is refused whatever the content type's case", async () => {
    const res = await handleAuthRequest(
      database,
      new Request("http://localhost:3000/api/auth/sign-in/email", { method: "POST", headers: { "content-type": "APPLICATION/JSON", origin: "http://localhost:3000" }, body: JSON.stringify({ email: "a@b.example\u0000", password: "x" }) }),
    );
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ code: "BAD_REQUEST", message: `email: ${NUL_REFUSAL}` });
  });
});

// A NUL (U+0000) in caller-given text is refused with a 400 naming where it is, on both databases. Before,
// PostgreSQL answered 500 ("invalid byte sequence for encoding UTF8: 0x00", with Prisma's invocation text
// in the message) for every tRPC procedure taking an id, for pointer and receipt paths, and for a sign-in
// whose email held one; SQLite looked the text up as is. Found by the hostile-input suite on PostgreSQL.
import path from "node:path";
import { TRPCError } from "@trpc/server";
import { afterAll, beforeAll, expect, it } from "vitest";
import { handleAuthRequest } from "@/server/http/auth-endpoints";
import { NUL_REFUSAL } from "@/server/http/nul";
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

describeEachDialect("NUL in caller text", (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(dialect, "nul");
  });
  afterAll(() => database?.drop());

  it("tRPC: an id, a store query, a nested field and a key with a NUL are refused naming the field", async () => {
    const viewer = callerAs(database, "viewer");
    const trainer = callerAs(database, "trainer");
    expect(await refusal(viewer.candidates.get({ id: "cand-\u0000" }))).toEqual({ code: "BAD_REQUEST", message: `id: ${NUL_REFUSAL}` });
    expect(await refusal(viewer.store.querySpans({ rollout_id: "ro-\u0000" }))).toEqual({ code: "BAD_REQUEST", message: `rollout_id: ${NUL_REFUSAL}` });
    expect(await refusal(trainer.trainers.pauseRun({ runId: "run\u0000" }))).toEqual({ code: "BAD_REQUEST", message: `runId: ${NUL_REFUSAL}` });
    const nested = { family: "ppo", config: { note: ["ok", "x\u0000"] } } as unknown as Parameters<typeof viewer.learning.checkFamilyConfig>[0];
    expect(await refusal(viewer.learning.checkFamilyConfig(nested))).toEqual({ code: "BAD_REQUEST", message: `config.note.1: ${NUL_REFUSAL}` });
    const key = { id: "x", ["a\u0000"]: 1 } as unknown as { id: string };
    expect((await refusal(viewer.candidates.get(key))).message).toBe(`a\u0000: ${NUL_REFUSAL}`);
  });

  it("tRPC: the scope is still checked first (a refused caller learns nothing about the input)", async () => {
    expect((await refusal(callerAs(database, "runner").candidates.get({ id: "\u0000" }))).code).toBe("FORBIDDEN");
  });

  it("sign-in: an email with a NUL is a 400 naming the field, before better-auth takes it to the database", async () => {
    const res = await handleAuthRequest(
      database,
      new Request("http://localhost:3000/api/auth/sign-in/email", { method: "POST", headers: { "content-type": "application/json", origin: "http://localhost:3000" }, body: JSON.stringify({ email: "admin@lightgate.example\u0000", password: "x" }) }),
    );
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ code: "BAD_REQUEST", message: `email: ${NUL_REFUSAL}` });
  });
});

it("pointers and receipts: %00 in the path or query is a 400 before any lookup", async () => {
  const pointers = (await import(path.resolve("app/v1/pointers/[agent]/[pointer]/route.ts"))) as Record<string, (r: Request, c: unknown) => Promise<Response>>;
  const receipts = (await import(path.resolve("app/v1/receipts/[candidateId]/route.ts"))) as Record<string, (r: Request, c: unknown) => Promise<Response>>;
  const cases: [Record<string, (r: Request, c: unknown) => Promise<Response>>, string, unknown][] = [
    [pointers, "/v1/pointers/a%00b/history", { params: Promise.resolve({ agent: "a%00b", pointer: "history" }) }],
    [pointers, "/v1/pointers/a/history?at=%00", { params: Promise.resolve({ agent: "a", pointer: "history" }) }],
    [receipts, "/v1/receipts/cand-%00", { params: Promise.resolve({ candidateId: "cand-\u0000" }) }],
  ];
  for (const [route, p, ctx] of cases) {
    const res = await route.GET!(new Request(`http://localhost${p}`), ctx);
    expect(res.status, p).toBe(400);
    expect(((await res.json()) as { message: string }).message).toBe(`the URL ${NUL_REFUSAL}: %00 in its path or query string`);
  }
});

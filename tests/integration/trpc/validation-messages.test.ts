// Refused tRPC input reads as one sentence naming the field, over real HTTP and through the browser's client:
// `error.message` is what every dashboard component shows. The issues stay in data.zodIssues / data.field.
import { TRPCClientError } from "@trpc/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTrpcClient } from "@/components/trpc/client";
import { makePerson, signIn } from "../../helpers/auth";
import { createTestDatabase, type TestDatabase } from "../../helpers/db";
import { serveTrpc, type TrpcServer } from "../../helpers/trpc-server";

type ErrorData = { code: string; httpStatus: number; zodIssues: { path: string; message: string }[] | null; field: string | null };

async function refusal(call: Promise<unknown>): Promise<{ message: string; data: ErrorData }> {
  const error = await call.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TRPCClientError);
  const e = error as TRPCClientError<never>;
  return { message: e.message, data: e.data as unknown as ErrorData };
}

describe("tRPC validation messages", () => {
  let database: TestDatabase;
  let web: TrpcServer;
  let client: ReturnType<typeof makeTrpcClient>;
  beforeAll(async () => {
    database = await createTestDatabase("sqlite", "trpc-messages");
    web = await serveTrpc(database);
    const person = await makePerson(database, [{ role: "viewer", agent: null }]);
    const cookie = await signIn(database, person.email, person.password);
    client = makeTrpcClient(web.url, () => ({ cookie }));
  });
  afterAll(async () => {
    await web?.close();
    await database?.drop();
  });

  it("names the field and the limit, not a JSON dump", async () => {
    const r = await refusal(client.store.listRollouts.query({ limit: 501 }));
    expect(r.message).toBe("limit: must be at most 500");
    expect(r.data).toMatchObject({ code: "BAD_REQUEST", httpStatus: 400, field: "limit", zodIssues: [{ path: "limit", message: "must be at most 500" }] });
  });

  it("lists every refused field in one sentence", async () => {
    const r = await refusal(client.store.listRollouts.query({ limit: 0, offset: -1, sort_order: "sideways" as "asc" }));
    expect(r.message).toBe('limit: must be at least 1; offset: must be at least 0; sort_order: must be one of "asc", "desc"');
    expect(r.data.zodIssues?.map((i) => i.path)).toEqual(["limit", "offset", "sort_order"]);
  });

  it("says what is missing, what is unknown and what has the wrong type", async () => {
    const missing = await refusal(client.store.getSpan.query({ rollout_id: "ro-1" } as never));
    expect(missing.message).toBe("attempt_id: is required; span_id: is required");
    const unknown = await refusal(client.registries.list.query({ kind: "evaluator", bogus: 1 } as never));
    expect(unknown.message).toBe('input: has unknown field "bogus"');
    const wrongType = await refusal(client.store.listRollouts.query({ limit: "ten" as unknown as number }));
    expect(wrongType.message).toBe("limit: must be a number");
    expect(wrongType.message).not.toMatch(/[[{]/);
  });
});

// Moving names are refused where a pin is declared, on both databases: a registry version or a pinned
// registry name (tRPC and the domain function alike), and a candidate's stage 1 whose evaluator is `latest`
// — each refusal names the field, and nothing is written.
import { afterAll, beforeAll, expect, it } from "vitest";
import { ZodError } from "zod";
import { registerCandidate } from "@/server/candidates/register";
import { DomainError } from "@/server/errors";
import { AGENT } from "@/server/gate/reference/common";
import { rawCandidate, REFERENCE_SPECS } from "@/server/gate/reference/raw-evidence";
import { publishRegistryEntry } from "@/server/receipts/registries";
import { callerAs } from "../../helpers/caller";
import { SYSTEM } from "../../helpers/auth";
import { createTestDatabase, describeEachDialect, type TestDatabase } from "../../helpers/db";

describeEachDialect("moving names in pins", (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(dialect, "exact-pins");
  }, 60_000);
  afterAll(() => database?.drop());

  const counts = async () => ({ registry: await database.db.registryEntry.count(), candidates: await database.db.candidate.count(), audit: await database.db.auditEvent.count() });
  const zodPath = (e: unknown) => ((e as { cause?: unknown }).cause instanceof ZodError ? ((e as { cause: ZodError }).cause.issues[0]!.path.join(".")) : null);

  it.each([
    ["an evaluator version `latest`", { kind: "evaluator", name: "desk-exam", version: "latest" }, "version"],
    ["a version range", { kind: "task_distribution", name: "desk/tasks", version: "^4" }, "version"],
    ["an evaluator named `latest-exam`", { kind: "evaluator", name: "latest-exam", version: "3" }, "name"],
    ["a model server named `policy-server-nightly`", { kind: "model_server", name: "policy-server-nightly", version: "1" }, "name"],
  ] as const)("registries.publish refuses %s, naming the field, nothing written", async (_what, entry, field) => {
    const before = await counts();
    const caller = callerAs(database, "policy_owner");
    const error = await caller.registries.publish({ ...entry, agent: AGENT, body: { x: 1 } }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "BAD_REQUEST", message: expect.stringMatching(/moving name/) });
    expect(zodPath(error)).toBe(field);
    // The domain function refuses it too (the reference seeder and any other caller go through it).
    const domain = await publishRegistryEntry(database, { ...entry, agent: AGENT, body: { x: 1 }, actor: SYSTEM }).catch((e: unknown) => e);
    expect(domain).toBeInstanceOf(DomainError);
    expect(domain).toMatchObject({ field, message: expect.stringContaining(`${field}: must name one exact artifact`) });
    expect(await counts()).toEqual(before);
  });

  it("a tool contract may have any name (it is not pinned by name), but never a moving version", async () => {
    const caller = callerAs(database, "policy_owner");
    await expect(caller.registries.publish({ kind: "tool_contract", name: "get_latest_order", agent: AGENT, version: "2", body: { contract: 1 } })).resolves.toMatchObject({ name: "get_latest_order" });
    await expect(caller.registries.publish({ kind: "tool_contract", name: "get_latest_order", agent: AGENT, version: "current", body: { contract: 2 } })).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });

  it("a candidate whose stage 1 pins evaluator `latest` is refused at registration, naming the field", async () => {
    const raw = rawCandidate(REFERENCE_SPECS.A);
    const stage1 = { ...raw.stage1, evaluator: { ...raw.stage1.evaluator, version: "latest" } };
    const before = await counts();
    const resource = { resourcesId: raw.candidate.resourceId, version: raw.candidate.version, digest: raw.candidate.digest };
    const error = await registerCandidate(database, { agent: AGENT, resource, stage1, actor: SYSTEM }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ field: "stage1.evaluator.version", message: expect.stringMatching(/moving name "latest"/) });
    expect(await counts()).toEqual(before);
  });
});

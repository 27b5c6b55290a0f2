// The permission matrix over real HTTP: tRPC's fetch handler on a node:http server, a person signed in
// through better-auth (whose roles are set per identity, through the domain's own grant and revoke),
// real API keys, and nobody. Refused cells go to a server whose database and store fail on any use beyond
// identifying the caller. By default a generated sample covering every procedure with each verdict it has,
// every identity with each verdict it gets and every agent-scoped procedure about each agent runs;
// LIGHTGATE_MATRIX_FULL=1 runs every cell (the in-process matrix runs every cell always).
import { afterAll, beforeAll, expect, it } from "vitest";
import type { ServiceRole } from "@/lib/auth/scopes";
import { createTestDatabase, describeEachDialect, type TestDatabase } from "../../helpers/db";
import { headersOf, inParallel, matrixPerson, serviceKeys, trpcOverHttp } from "../../helpers/matrix-client";
import { serveMatrixApp, type MatrixServer } from "../../helpers/matrix-server";
import { AGENT_X, AGENT_Y, cells, coveringSample, globalIdentities, inputFor, mismatch, perAgentIdentities, PROCEDURES } from "../../helpers/permission-matrix";

const identities = [...globalIdentities(), ...perAgentIdentities()];
const every = [...cells(globalIdentities(), [AGENT_X]), ...cells(perAgentIdentities(), [AGENT_X, AGENT_Y])];
const chosen = process.env.LIGHTGATE_MATRIX_FULL === "1" ? every : coveringSample(every);

it(`the sample (${chosen.length} of ${every.length} cells per database) covers every procedure and every identity`, () => {
  expect(new Set(chosen.map((c) => c.procedure.path)).size).toBe(PROCEDURES.length);
  expect(new Set(chosen.map((c) => c.identity.label)).size).toBe(identities.length);
});

describeEachDialect("permission matrix over HTTP", (dialect) => {
  let database: TestDatabase;
  let live: MatrixServer;
  let refusing: MatrixServer;
  let person: Awaited<ReturnType<typeof matrixPerson>>;
  let keys: Map<ServiceRole, string>;
  beforeAll(async () => {
    database = await createTestDatabase(dialect, "matrix-http");
    [live, refusing] = await Promise.all([serveMatrixApp(database), serveMatrixApp(database, { refusing: true })]);
    [person, keys] = await Promise.all([matrixPerson(database), serviceKeys(database)]);
  });
  afterAll(async () => {
    await Promise.all([live?.close(), refusing?.close()]);
    await database?.drop();
  });

  it.each(identities.map((i) => i.label))("every procedure as %s", async (label) => {
    const identity = identities.find((i) => i.label === label)!;
    if (identity.kind === "user") await person.become(identity.grants);
    const headers = headersOf(identity, person, keys);
    const wrong: string[] = [];
    const run = async (cell: (typeof chosen)[number]) => {
      const got = await trpcOverHttp((cell.expected === "allowed" ? live : refusing).url, cell.procedure, inputFor(cell), headers);
      const problem = mismatch(cell, got);
      if (problem) wrong.push(problem);
    };
    const mine = chosen.filter((c) => c.identity.label === label);
    // Queries side by side; mutations one at a time, as a person clicks (two startRun calls racing to
    // publish the same initial parent answer 500 on PostgreSQL — a store race this matrix is not about).
    await inParallel(mine.filter((c) => c.procedure.type === "query"), 4, run);
    for (const cell of mine.filter((c) => c.procedure.type !== "query")) await run(cell);
    expect(wrong.join("\n")).toBe("");
  });
});

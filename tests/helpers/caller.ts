// tRPC callers against a real database, as a given actor (or as nobody).
import { createCaller } from "@/server/routers/_app";
import { makeActor, type Actor } from "@/server/auth/actor";
import type { Database } from "@/server/db/client";
import type { Role } from "@/lib/auth/scopes";
import { TRPCError } from "@trpc/server";
import { expect } from "vitest";

export function callerFor(database: Database, actor: Actor | null) {
  return createCaller({ db: database.db, database, actor, headers: new Headers() });
}

export function callerAs(database: Database, role: Role, id = `test-${role}`) {
  return callerFor(database, makeActor(role === "runner" || role === "algorithm" || role === "release_bot" ? "service" : "user", id, id, [role]));
}

/** The TRPCError a call is refused with (fails the test when it resolves or throws something else). */
export async function refusal(p: Promise<unknown>) {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(TRPCError);
  return e as TRPCError & { cause?: { field?: string } };
}

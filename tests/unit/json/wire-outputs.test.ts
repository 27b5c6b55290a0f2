// Every tRPC procedure's output type is something the wire transformer (lib/json/wire.ts) carries: JSON,
// Dates and undefined. A procedure that starts returning a Map, a Set, a bigint or bytes fails `tsc` here,
// instead of arriving in the browser as `{}`. (expectTypeOf is checked by the type checker.)
import type { AuthenticationExtensionsClientInputs } from "@simplewebauthn/server";
import type { inferRouterOutputs } from "@trpc/server";
import { expectTypeOf, it } from "vitest";
import type { AppRouter } from "@/server/routers/_app";

// WebAuthn's options JSON types its extension inputs with the DOM's BufferSource; the server sets none.
type Leaf = string | number | boolean | null | undefined | void | Date | AuthenticationExtensionsClientInputs;
type NotJson = bigint | symbol | ((...args: never[]) => unknown) | ReadonlyMap<unknown, unknown> | ReadonlySet<unknown> | ArrayBufferLike | ArrayBufferView;

/** The paths under T that JSON cannot carry (never when there are none). `unknown` is parsed JSON text. */
type Unsafe<T, Path extends string, Depth extends unknown[] = []> = unknown extends T
  ? never
  : T extends Leaf
    ? never
    : Depth["length"] extends 14
      ? never
      : T extends NotJson
        ? Path
        : T extends readonly (infer E)[]
          ? Unsafe<E, `${Path}[]`, [...Depth, 0]>
          : T extends object
            ? { [K in keyof T & string]-?: Unsafe<T[K], `${Path}.${K}`, [...Depth, 0]> }[keyof T & string]
            : Path;

it("every procedure's output is JSON, Dates and undefined", () => {
  expectTypeOf<Unsafe<inferRouterOutputs<AppRouter>, "">>().toEqualTypeOf<never>();
});

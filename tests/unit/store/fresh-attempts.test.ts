// The hint that sends an attempt's first span batch straight to the reviving statement (add-spans-statement.ts):
// taken once, forgotten oldest first past its bound, so a process that starts attempts nobody writes spans for
// holds at most `max` of them.
import { expect, it } from "vitest";
import { FreshAttempts } from "@/server/store/add-spans-statement";

it("answers true once per attempt started, and false for one it never saw", () => {
  const fresh = new FreshAttempts();
  fresh.add("ro-1", "at-1");
  expect(fresh.take("ro-1", "at-2")).toBe(false);
  expect(fresh.take("ro-2", "at-1")).toBe(false);
  expect(fresh.take("ro-1", "at-1")).toBe(true);
  expect(fresh.take("ro-1", "at-1")).toBe(false);
});

it("keeps rollout and attempt apart, whatever the ids hold", () => {
  const fresh = new FreshAttempts();
  fresh.add("a\u0000b", "c");
  expect(fresh.take("a", "b\u0000c")).toBe(false);
  fresh.add("1:x", "y");
  expect(fresh.take("1", ":xy")).toBe(false);
  fresh.add("__proto__", "constructor");
  expect(fresh.take("__proto__", "constructor")).toBe(true);
});

it("forgets the oldest past its bound", () => {
  const fresh = new FreshAttempts(3);
  for (const n of [1, 2, 3, 4]) fresh.add("ro", `at-${n}`);
  expect([1, 2, 3, 4].map((n) => fresh.take("ro", `at-${n}`))).toEqual([false, true, true, true]);
});

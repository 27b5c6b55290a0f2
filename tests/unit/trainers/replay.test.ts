import { describe, expect, it } from "vitest";
import { Rng } from "@/server/environments/prng";
import { ReplayBuffer } from "@/server/trainers/replay";

const t = (i: number) => ({ key: `s${i}`, action: i % 3, reward: i, nextKey: null });

describe("replay buffer", () => {
  it("keeps the newest `capacity` transitions in a ring", () => {
    const b = new ReplayBuffer(4, false);
    for (let i = 0; i < 6; i++) b.push(t(i));
    expect(b.size).toBe(4);
    expect([0, 1, 2, 3].map((i) => b.get(i).reward).sort()).toEqual([2, 3, 4, 5]);
  });

  it("samples uniformly when not prioritized", () => {
    const b = new ReplayBuffer(4, false);
    for (let i = 0; i < 4; i++) b.push(t(i));
    const counts = [0, 0, 0, 0];
    for (const i of b.sample(8000, Rng.from("u"))) counts[i]!++;
    for (const c of counts) expect(Math.abs(c - 2000)).toBeLessThan(200);
    expect(b.probability(2)).toBe(0.25);
  });

  it("samples in proportion to priority when prioritized", () => {
    const b = new ReplayBuffer(5, true);
    for (let i = 0; i < 5; i++) b.push(t(i));
    [1, 2, 3, 4, 10].forEach((p, i) => b.setPriority(i, p));
    expect(b.probability(4)).toBeCloseTo(0.5, 12);
    const counts = [0, 0, 0, 0, 0];
    const rng = Rng.from("p");
    for (let k = 0; k < 400; k++) for (const i of b.sample(50, rng)) counts[i]!++;
    const total = 20_000;
    [1, 2, 3, 4, 10].forEach((p, i) => expect(Math.abs(counts[i]! / total - p / 20), `index ${i}`).toBeLessThan(0.015));
  });

  it("gives new transitions the highest priority seen so far", () => {
    const b = new ReplayBuffer(3, true);
    b.push(t(0));
    b.setPriority(0, 7);
    b.push(t(1));
    expect(b.probability(1)).toBeCloseTo(0.5, 12);
  });

  it("restores exactly, sum tree included, and refuses a mismatched config", () => {
    const b = new ReplayBuffer(6, true);
    for (let i = 0; i < 9; i++) {
      b.push(t(i));
      b.setPriority(i % 6, 0.1 * i + 0.3);
    }
    const copy = new ReplayBuffer(6, true, JSON.parse(JSON.stringify(b.state())));
    expect(copy.sample(20, Rng.from("same"))).toEqual(b.sample(20, Rng.from("same")));
    expect(copy.state()).toEqual(b.state());
    expect(() => new ReplayBuffer(7, true, b.state())).toThrow(/capacity/);
    expect(() => new ReplayBuffer(6, false, b.state())).toThrow(/prioritized/);
  });
});

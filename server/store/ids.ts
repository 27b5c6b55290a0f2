// Identifiers with the reference's prefixes and lengths (utils/id.py: hex of a random digest), and a
// monotonic position used for FIFO order and "latest" (time in microseconds, strictly increasing per process).
import { randomBytes, randomUUID } from "node:crypto";

/** `chars` (≤ 12) random hex digits: the first 12 of a UUIDv4 are random, and randomUUID draws from a cached pool. */
function hex(chars: number): string {
  return randomUUID().replace("-", "").slice(0, chars);
}

const ROLLOUT_ID_SPACE = 2 ** 48;
let nextRollout = randomBytes(6).readUIntBE(0, 6);
/**
 * `ro-` + 12 hex, counting up from a random 48-bit start per process. Random keys scattered every batch over
 * the primary-key index: 100 rollouts dirtied ~100 leaf pages, and writing those pages back was most of
 * enqueue's cost. Consecutive keys share a leaf. Two processes collide only if their ranges overlap
 * (p ≈ (n₁ + n₂) / 2⁴⁸), which is less likely than a birthday collision among random ids.
 */
export function newRolloutId(): string {
  const id = nextRollout;
  nextRollout = (nextRollout + 1) % ROLLOUT_ID_SPACE;
  return `ro-${id.toString(16).padStart(12, "0")}`;
}
export const newAttemptId = () => `at-${hex(8)}`;
export const newResourcesId = () => `rs-${hex(12)}`;

let lastPos = 0;
/** Microseconds since the epoch, strictly increasing within the process (exact in a double until 2255). */
export function nextPos(): number {
  const now = Date.now() * 1000;
  lastPos = now > lastPos ? now : lastPos + 1;
  return lastPos;
}

export const nowSeconds = () => Date.now() / 1000;

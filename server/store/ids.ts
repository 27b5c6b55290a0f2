// Identifiers with the reference's prefixes and lengths (utils/id.py: hex of a random digest), and a
// monotonic position used for FIFO order and "latest" (time in microseconds, strictly increasing per process).
import { randomUUID } from "node:crypto";

/** `chars` (≤ 12) random hex digits: the first 12 of a UUIDv4 are random, and randomUUID draws from a cached pool. */
function hex(chars: number): string {
  return randomUUID().replace("-", "").slice(0, chars);
}

export const newRolloutId = () => `ro-${hex(12)}`;
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

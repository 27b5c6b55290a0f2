// Identifiers with the reference's prefixes and lengths (utils/id.py: hex of a random digest), and a
// monotonic position used for FIFO order and "latest" (time in microseconds, strictly increasing per process).
import { randomBytes } from "node:crypto";

function hex(chars: number): string {
  return randomBytes(Math.ceil(chars / 2)).toString("hex").slice(0, chars);
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

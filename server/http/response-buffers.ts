// Reused buffers for answers sent in parts (a page of spans: ~1.5 MB for 1,000). Each page used to arrive as
// a fresh buffer from the driver (SQLite's group_concat) or a joined string the socket copied into one; V8
// counts such ArrayBuffers as external memory and, when 64 MB of them wait for a collection, starts a full
// mark-compact of the whole heap (~140 MB beside Next.js: 5–12 ms a time). In 2 of 22 bench runs (with the
// heap setting of heap-growth.ts already in place) the buffers outlived the young generation and that
// happened every ~45 queries for the rest of the process's life (`--trace-incremental-marking`: "Start
// (external memory pressure)", 2026-12-04), putting the 1,000-span query's p99 at 17–30 ms instead of ~4 ms.
// Written into one of these instead, a page allocates only the short-lived span strings, which scavenges
// reclaim. At most KEEP buffers of at most MAX_BYTES each are ever held (32 MiB); a larger answer, or one
// arriving while all are lent out, is written the old way.
const MAX_BYTES = 8 << 20;
const KEEP = 4;
const MIN_BYTES = 1 << 20;

const free: Buffer[] = [];
let held = 0;

/** A buffer of at least `bytes` to write one answer into, or null (too large, or all lent out). */
export function borrowBuffer(bytes: number): Buffer | null {
  if (bytes > MAX_BYTES) return null;
  const fits = free.findIndex((b) => b.length >= bytes);
  if (fits >= 0) return free.splice(fits, 1)[0]!;
  if (held >= KEEP) {
    if (free.length === 0) return null;
    free.shift(); // too small for this answer: replaced by one that fits
    held--;
  }
  held++;
  // allocUnsafeSlow: its own memory, not a slice of Node's shared pool; only the written part is ever sent.
  return Buffer.allocUnsafeSlow(Math.max(MIN_BYTES, 2 ** Math.ceil(Math.log2(bytes))));
}

/** Back to the pool once the socket no longer needs its bytes (the response closed). */
export function returnBuffer(buffer: Buffer): void {
  free.push(buffer);
}

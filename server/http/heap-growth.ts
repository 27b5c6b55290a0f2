// V8's old-generation limit for a server process. After a mark-compact V8 sets the next limit to the live
// size times a growing factor that falls toward 1.1 while the process spends much of its time in GC, plus
// one semi-space; and it starts marking again once the space left is under the young generation's
// capacity. With ~140 MB live (Next.js beside the store) and the default 16 MB semi-spaces, a burst of GC
// could pin the factor at 1.1, leaving ~30 MB of room against a 32 MB trigger: marking restarted right after
// every mark-compact, ~8 ms pauses every 70–100 ms with almost nothing allocated in between (mutator
// utilization 0.6–0.7), for as long as the process ran. Seen in about one bench run in four as a 1,000-span
// query p99 of 16–19 ms instead of 4–5 ms (`--trace-gc-nvp`, 2026-12-04). A fixed factor of 1.5 keeps the
// room above the trigger at any live size over ~35 MB. Smaller semi-spaces (8 MB) also ended it, but cost
// OTLP ingest ~15 % in extra scavenges.
import v8 from "node:v8";

/** Read by V8 at each collection, so setting it once the process runs takes effect from the next GC on. */
export function steadyHeapGrowth(): void {
  if (process.execArgv.some((a) => a.startsWith("--heap-growing-percent"))) return; // an operator's own choice wins
  v8.setFlagsFromString("--heap-growing-percent=50");
}

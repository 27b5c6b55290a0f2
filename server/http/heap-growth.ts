// V8's old-generation limit for a server process. After a mark-compact V8 sets the next limit to the live
// size times a growing factor that falls toward 1.1 while the process spends much of its time in GC, plus
// one semi-space; and it starts marking again once the space left is under the young generation's
// capacity. With ~140 MB live (Next.js beside the store) and the default 16 MB semi-spaces, a burst of GC
// could pin the factor at 1.1, leaving ~30 MB of room against a 32 MB trigger: marking restarted right after
// every mark-compact, ~8 ms pauses every 70–100 ms with almost nothing allocated in between (mutator
// utilization 0.6–0.7), for as long as the process ran. Seen in about one bench run in four as a 1,000-span
// query p99 of 16–19 ms instead of 4–5 ms (`--trace-gc-nvp`, 2026-12-04). A fixed factor keeps the room
// above the trigger. 1.5 did at ~140 MB live, but not for the store server alone (~47 MB live): under OTLP
// ingest it began marking at once after each mark-compact (`--trace-incremental-marking`: start at 45 MB of
// an 82 MB limit), a mark-compact every ~300 ms. At 2.0 (2026-12-07, six alternating rounds on both servers)
// OTLP ingest rose 4–18 % in every round, the server's CPU per span fell 5–18 %, cycles were unchanged.
// Smaller semi-spaces (8 MB) also ended the restarts, but cost OTLP ingest ~15 % in extra scavenges.
import v8 from "node:v8";

/** Read by V8 at each collection, so setting it once the process runs takes effect from the next GC on. */
export function steadyHeapGrowth(): void {
  if (process.execArgv.some((a) => a.startsWith("--heap-growing-percent"))) return; // an operator's own choice wins
  v8.setFlagsFromString("--heap-growing-percent=100");
}

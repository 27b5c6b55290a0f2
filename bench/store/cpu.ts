// Who was the bottleneck: the load generator's CPU (process.cpuUsage) and the servers' (Linux
// /proc/<pid>/stat utime + stime) over one phase, each as % of one core, with the 1-minute load average.
import fs from "node:fs";
import os from "node:os";

const TICKS = 100; // USER_HZ on Linux

/** CPU seconds a process has used so far, or null when it cannot be read (not Linux, gone, another user's). */
export function processCpuSeconds(pid: number): number | null {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) / TICKS;
  } catch {
    return null;
  }
}

/**
 * CPU as % of one core over the phase: the load client, the server processes (null: unknown), the database
 * server's backends serving this bench's database (PostgreSQL; null when not measured), and the 1-minute
 * load average at the end. `seconds` is the phase's length, to turn % back into CPU time per operation.
 */
export type PhaseCpu = { client: number; server: number | null; db: number | null; load: number; seconds: number };

/** Lists the database backends to count (re-listed at the end: pooled connections may open mid-phase). */
export type DbPids = () => Promise<number[]>;

/** Starts a CPU window over this process, `serverPids` (empty: the servers' CPU is unknown) and `dbPids`. */
export async function cpuWindow(serverPids: number[], dbPids?: DbPids): Promise<() => Promise<PhaseCpu>> {
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const s0 = serverPids.map(processCpuSeconds);
  const d0 = new Map((dbPids ? await dbPids() : []).map((pid) => [pid, processCpuSeconds(pid) ?? 0]));
  return async () => {
    const elapsed = (performance.now() - t0) / 1000;
    const c = process.cpuUsage(c0);
    const s1 = serverPids.map(processCpuSeconds);
    const known = serverPids.length > 0 && s0.every((v) => v !== null) && s1.every((v) => v !== null);
    const server = known ? s1.reduce((sum: number, v, i) => sum + (v! - s0[i]!), 0) : null;
    let db: number | null = null;
    if (dbPids) {
      db = 0;
      for (const pid of new Set([...d0.keys(), ...(await dbPids())])) db += Math.max(0, (processCpuSeconds(pid) ?? d0.get(pid) ?? 0) - (d0.get(pid) ?? 0));
    }
    const pct = (v: number | null) => (v === null ? null : (v / elapsed) * 100);
    return { client: ((c.user + c.system) / 1e6 / elapsed) * 100, server: pct(server), db: pct(db), load: os.loadavg()[0]!, seconds: elapsed };
  };
}

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

export type PhaseCpu = { client: number; server: number | null; load: number };

/** Starts a CPU window over this process and `serverPids` (empty: the servers' CPU is unknown). */
export function cpuWindow(serverPids: number[]): () => PhaseCpu {
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const s0 = serverPids.map(processCpuSeconds);
  return () => {
    const elapsed = (performance.now() - t0) / 1000;
    const c = process.cpuUsage(c0);
    const s1 = serverPids.map(processCpuSeconds);
    const known = serverPids.length > 0 && s0.every((v) => v !== null) && s1.every((v) => v !== null);
    const server = known ? s1.reduce((sum: number, v, i) => sum + (v! - s0[i]!), 0) : null;
    return { client: ((c.user + c.system) / 1e6 / elapsed) * 100, server: server === null ? null : (server / elapsed) * 100, load: os.loadavg()[0]! };
  };
}

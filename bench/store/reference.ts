// Agent Lightning's own store server (`agl store`, in memory) as the bench's reference, started fresh per
// round from a directory that ../shared/tools/agl-reference/setup.sh built (never part of this project).
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { processCpuSeconds } from "./cpu";

export type Reference = { url: string; version: string; pids: () => number[]; stop: () => Promise<void> };

/** The pids of a process and its descendants (run-store.sh starts python under setsid). */
function tree(root: number): number[] {
  const out = [root];
  for (let i = 0; i < out.length; i++) {
    const children = spawnSync("pgrep", ["-P", String(out[i])], { encoding: "utf8" }).stdout.split("\n").filter(Boolean).map(Number);
    out.push(...children);
  }
  return out.filter((pid) => processCpuSeconds(pid) !== null);
}

export async function startReference(dir: string, port: number): Promise<Reference> {
  const script = path.join(dir, "run-store.sh");
  if (!fs.existsSync(script)) throw new Error(`${script} not found: build it with ../shared/tools/agl-reference/setup.sh`);
  const pid = Number(execFileSync("bash", [script, String(port)], { encoding: "utf8" }).trim().split("\n").pop());
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    const up = await fetch(`${url}/v1/agl/health`).then((r) => r.ok, () => false);
    if (up) break;
    if (Date.now() > deadline || processCpuSeconds(pid) === null) throw new Error(`the reference on port ${port} did not answer (see ${dir}/store-${port}.log)`);
    await new Promise((r) => setTimeout(r, 250));
  }
  const python = path.join(dir, "venv", "bin", "python");
  const version = spawnSync(python, ["-c", "import importlib.metadata as m; print(m.version('agentlightning'))"], { encoding: "utf8", env: { ...process.env, PYTHONPATH: `${dir}/stubs:${dir}/src` } }).stdout.trim() || "0.3";
  const pids = tree(pid);
  return {
    url,
    version,
    pids: () => pids,
    stop: async () => {
      for (const p of pids) {
        try {
          process.kill(p, "SIGKILL");
        } catch {
          // already gone
        }
      }
      await new Promise((r) => setTimeout(r, 300));
    },
  };
}

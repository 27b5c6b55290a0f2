// tests/foreign-agent/agent.mjs as its own process: plain node, given only a URL and its three keys (no
// DATABASE_URL, nothing of ours), printing one JSON report line.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { GateWorld } from "./gate-api";

export type ForeignReport = {
  variant: string;
  declare?: { status: number; field: string | null };
  bind?: number;
  receiptId?: string;
  gateRun?: string;
  status?: string;
  error?: string | null;
  verdict?: string;
  checks?: { id: number; status: string; explanation: string }[];
  publishDataset?: number;
  postVerification?: number;
  runnerErrors?: number;
};

/** Runs the foreign agent to its end; `keys` replace the world's own (e.g. a runner key bound to its agent). */
export function runForeignAgent(
  world: GateWorld,
  exams: { heldOut: string; canary: string },
  opts: { variant?: string; deadlineSeconds?: number; keys?: { algorithm?: string; runner?: string; verifier?: string } } = {},
): Promise<ForeignReport> {
  const destination = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "foreign-dest-")), "answers.json");
  const args = ["--url", world.url, "--held-out", exams.heldOut, "--canary", exams.canary, "--destination", destination, "--variant", opts.variant ?? "ok", "--deadline-seconds", String(opts.deadlineSeconds ?? 90)];
  const keys = { algorithm: world.keys.get("algorithm")!, runner: world.keys.get("runner")!, verifier: world.keys.get("verifier")!, ...opts.keys };
  const child = spawn(process.execPath, ["tests/foreign-agent/agent.mjs", ...args], {
    env: { PATH: process.env.PATH ?? "", FA_ALGORITHM_KEY: keys.algorithm, FA_RUNNER_KEY: keys.runner, FA_VERIFIER_KEY: keys.verifier } as unknown as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  child.stdout.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr.on("data", (d: Buffer) => (err += d.toString()));
  return new Promise((resolve, reject) =>
    child.on("exit", (code: number | null) => (code === 0 ? resolve(JSON.parse(out.trim().split("\n").at(-1)!) as ForeignReport) : reject(new Error(`agent exited ${code}: ${err.slice(-2000)}`)))),
  );
}

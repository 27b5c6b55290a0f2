// Restart: spans acknowledged before the server process is killed with SIGKILL are all there after restart.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { describe } from "vitest";
import { makeSpan } from "../../helpers/store";

const PORT = 3312;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lightgate-restart-"));
const env = { ...process.env, DATABASE_URL: `file:${path.join(dir, "store.db")}`, LIGHTGATE_ALLOW_ANONYMOUS_STORE: "1" };
let child: ChildProcess | undefined;

function start(): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, ["--import", "tsx", "scripts/store/serve.ts", "--port", String(PORT)], { env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    p.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      if (out.includes("ready")) resolve(p);
    });
    p.stderr!.on("data", (d: Buffer) => (out += d.toString()));
    p.on("exit", (code) => reject(new Error(`server exited (${code}): ${out}`)));
  });
}

const base = `http://127.0.0.1:${PORT}/v1/agl`;
const post = (p: string, body: unknown) => fetch(`${base}${p}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

describe("store restart", () => {
  afterAll(() => {
    child?.kill("SIGKILL");
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("keeps every acknowledged span across a SIGKILL", { timeout: 120_000 }, async () => {
    child = await start();
    const rollout = await (await post("/rollouts", { input: { restart: true } })).json();
    const acked: string[] = [];
    let killed = false;
    // 4 concurrent writers keep posting spans; the server is killed mid-stream.
    const writer = async (w: number) => {
      for (let i = 0; !killed; i++) {
        const spanId = (w * 1_000_000 + i).toString(16).padStart(16, "0");
        try {
          const res = await post("/spans", makeSpan(rollout.rollout_id, rollout.attempt.attempt_id, i + 1, `w${w}`, { span_id: spanId }));
          if (res.status === 201) acked.push(spanId);
        } catch {
          return; // connection reset by the kill: not acknowledged
        }
      }
    };
    const writers = Array.from({ length: 4 }, (_, w) => writer(w));
    // Kill once enough spans are acknowledged (time-based waits under-fill on a loaded machine).
    for (const until = Date.now() + 30_000; acked.length < 60 && Date.now() < until; ) await new Promise((r) => setTimeout(r, 50));
    const exited = new Promise((r) => child!.once("exit", r));
    child.kill("SIGKILL");
    killed = true;
    await exited;
    await Promise.all(writers);
    expect(acked.length).toBeGreaterThan(50);

    child = await start();
    const stored = await (await post("/spans/search", { rollout_id: rollout.rollout_id, limit: -1 })).json();
    const ids = new Set(stored.items.map((s: { span_id: string }) => s.span_id));
    const missing = acked.filter((id) => !ids.has(id));
    expect(missing).toEqual([]);
    expect(stored.total).toBeGreaterThanOrEqual(acked.length);
  });
});

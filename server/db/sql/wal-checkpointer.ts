// WAL checkpoints off the event loop. SQLite's automatic checkpoint runs inside the COMMIT that crosses
// 1,000 WAL pages: it copies the pages into the database file and fsyncs it, blocking this thread for
// milliseconds. With synchronous=NORMAL that fsync is the only one on the write path, and it
// dominated the store's commit time. The store's writer connection turns automatic checkpoints off,
// and a worker thread with its own connection checkpoints instead (PASSIVE: it never blocks readers or
// writers). Durability is unchanged: a commit is in the WAL before it is acknowledged, whoever copies
// it into the database file later.
import { Worker } from "node:worker_threads";

/** How often the thread checkpoints, and the WAL size (pages) past which the writer checkpoints itself. */
export const CHECKPOINT_EVERY_MS = 250;
export const WRITER_FALLBACK_PAGES = 16_000; // 64 MB: only if the thread cannot keep up

// Plain CommonJS evaluated in the worker, so no bundler has to know about this file.
const WORKER_SOURCE = `
const Database = require("better-sqlite3");
const { parentPort, workerData } = require("node:worker_threads");
const db = new Database(workerData.file, { timeout: 0 });
db.pragma("busy_timeout = 0");
db.pragma("synchronous = NORMAL");
let stopped = false;
const tick = () => {
  if (stopped) return;
  try { db.pragma("wal_checkpoint(PASSIVE)"); } catch (e) { /* busy: another connection is checkpointing; next tick */ }
  setTimeout(tick, workerData.every);
};
parentPort.on("message", (m) => {
  if (m !== "stop") return;
  stopped = true;
  try { db.pragma("wal_checkpoint(PASSIVE)"); } catch (e) {}
  db.close();
  parentPort.close();
});
setTimeout(tick, workerData.every);
`;

export type WalCheckpointer = { stop(): Promise<void> };

export function startWalCheckpointer(file: string, every = CHECKPOINT_EVERY_MS): WalCheckpointer {
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { file, every } });
  worker.unref(); // never keeps the process alive
  worker.on("error", (e) => console.error("sqlite checkpointer:", e.message));
  let stopping: Promise<void> | null = null;
  return {
    stop() {
      stopping ??= new Promise<void>((resolve) => {
        const timer = setTimeout(() => void worker.terminate().then(() => resolve()), 2_000);
        worker.once("exit", () => {
          clearTimeout(timer);
          resolve();
        });
        worker.postMessage("stop");
      });
      return stopping;
    },
  };
}

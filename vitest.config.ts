import os from "node:os";
import path from "node:path";
import { defineConfig } from "vitest/config";
import { OWN_MODULE_GRAPH } from "./tests/own-module-graph";

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    environment: "node",
    // Database suites open real files and servers and spend much of their time waiting on them (runners,
    // pollers, child processes, fsync): the whole `npm test` measured 1.3 of 2 cores busy with three files at
    // once beside the e2e, so four.
    maxWorkers: 4,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    globalSetup: ["tests/helpers/global-setup.ts"],
    // What a PostgreSQL test database keeps outside itself (the receipt key file, exported audit heads) goes
    // to a temporary directory, not the checkout's ./data (SQLite test databases keep theirs beside the file).
    env: { LIGHTGATE_DATA_DIR: path.join(os.tmpdir(), "lightgate-test-data") },
    projects: [
      // Unit tests are pure (no env changes, no mocks, no servers): one module graph per worker instead of one
      // per file halves their CPU time — most of it was importing the same modules 87 times.
      { extends: true, test: { name: "unit", include: ["tests/unit/**/*.test.ts", "server/**/*.test.ts", "lib/**/*.test.ts"], isolate: false } },
      // Integration suites too: each opens its own database, server and keys, so sharing a worker's module graph
      // across files costs nothing in truth and halves their CPU (30 files: 142 → 64 s of CPU, 99 → 51 s wall).
      { extends: true, test: { name: "integration", include: ["tests/**/*.test.ts"], exclude: ["tests/unit/**", ...OWN_MODULE_GRAPH], isolate: false } },
      // …except those that change process-wide state (DATABASE_URL for route modules that open the process's
      // database, LIGHTGATE_DATA_DIR, a spy on a module): a fresh module graph per file, as before.
      { extends: true, test: { name: "integration-isolated", include: OWN_MODULE_GRAPH } },
    ],
  },
});

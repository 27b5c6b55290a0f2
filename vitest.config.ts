import os from "node:os";
import path from "node:path";
import { defineConfig } from "vitest/config";

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
      { extends: true, test: { name: "integration", include: ["tests/**/*.test.ts"], exclude: ["tests/unit/**"] } },
    ],
  },
});

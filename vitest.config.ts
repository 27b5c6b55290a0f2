import os from "node:os";
import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    environment: "node",
    include: ["tests/**/*.test.ts", "server/**/*.test.ts", "lib/**/*.test.ts"],
    // Database suites open real files and servers and spend much of their time waiting on them (runners,
    // pollers, child processes): three files at once keep two cores busy without starving any.
    maxWorkers: 3,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    globalSetup: ["tests/helpers/global-setup.ts"],
    // What a PostgreSQL test database keeps outside itself (the receipt key file, exported audit heads) goes
    // to a temporary directory, not the checkout's ./data (SQLite test databases keep theirs beside the file).
    env: { LIGHTGATE_DATA_DIR: path.join(os.tmpdir(), "lightgate-test-data") },
  },
});

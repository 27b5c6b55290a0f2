// Integration files that run with a module graph of their own (vitest.config.ts): they change process-wide state —
// DATABASE_URL for route modules that open the process's database, LIGHTGATE_DATA_DIR, a spy on a module — that
// would leak into the next file sharing their worker. tests/unit/system/own-module-graph.test.ts keeps it complete.
export const OWN_MODULE_GRAPH = [
  "tests/integration/http/api-refusals.test.ts",
  "tests/integration/http/body-limits.test.ts",
  "tests/integration/http/nul-text.test.ts",
  "tests/integration/audit/signing-key-apart.test.ts",
  "tests/integration/audit/edge-refusals.test.ts",
  "tests/integration/receipts/pointer-names.test.ts",
  "tests/integration/trpc/internal-errors.test.ts",
];

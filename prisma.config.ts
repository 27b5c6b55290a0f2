// Used by the prisma CLI for `generate` only; migrations run through scripts/db/migrate.ts
// (the native schema engine cannot be downloaded on offline machines; see ARCHITECTURE.md).
import { defineConfig } from "prisma/config";

process.env.PRISMA_SCHEMA_ENGINE_BINARY ??= "/bin/true";
process.env.CHECKPOINT_DISABLE = "1";

export default defineConfig({ schema: "prisma/schema" });

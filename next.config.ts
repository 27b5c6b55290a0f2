import type { NextConfig } from "next";
import { DEFAULT_BODY_LIMIT } from "./server/http/body-limits";

const config: NextConfig = {
  // Native and WASM-backed database drivers must stay outside the bundle.
  serverExternalPackages: [
    "better-sqlite3",
    "js-tiktoken",
    "@prisma/adapter-better-sqlite3",
    "@prisma/adapter-pg",
    "pg",
    "@prisma/schema-engine-wasm",
    "@prisma/driver-adapter-utils",
    "protobufjs",
    // tfjs's wasm backend reads its .wasm beside its own file and registers with the tfjs-core it imports: all
    // three stay one copy, loaded by Node.
    "@tensorflow/tfjs",
    "@tensorflow/tfjs-core",
    "@tensorflow/tfjs-backend-wasm",
  ],
  poweredByHeader: false,
  reactStrictMode: true,
  typedRoutes: false,
  // `npm test` type-checks the whole project (tsc --noEmit) before it builds; it sets this so the build does
  // not type-check the same code a second time. Every other build checks types.
  typescript: { ignoreBuildErrors: process.env.LIGHTGATE_BUILD_TYPES_CHECKED === "1" },
  experimental: {
    // Next buffers a page request's body for the proxy (proxy.ts) up to this size (default 10 MB), and a
    // server action's up to bodySizeLimit; no page reads a body, so both get the pages' limit from the
    // one table (server/http/body-limits.ts).
    proxyClientMaxBodySize: DEFAULT_BODY_LIMIT.bytes,
    serverActions: { bodySizeLimit: DEFAULT_BODY_LIMIT.bytes },
  },
};

export default config;

import type { NextConfig } from "next";

const config: NextConfig = {
  // Native and WASM-backed database drivers must stay outside the bundle.
  serverExternalPackages: [
    "better-sqlite3",
    "@prisma/adapter-better-sqlite3",
    "@prisma/adapter-pg",
    "pg",
    "@prisma/schema-engine-wasm",
    "@prisma/driver-adapter-utils",
    "protobufjs",
  ],
  poweredByHeader: false,
  reactStrictMode: true,
  typedRoutes: false,
};

export default config;

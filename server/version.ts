// The import attribute lets every loader read it: Next's bundler, tsx, and Playwright's ESM loader (which
// refuses a JSON module without one) — e2e fixtures reach this through the training lifecycle.
import pkg from "@/package.json" with { type: "json" };

export const APP_VERSION: string = pkg.version;

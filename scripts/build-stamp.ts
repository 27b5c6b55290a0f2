// Decides whether `npm start` must rebuild: a hash over everything that goes into the Next.js build.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";

const INPUTS = ["app", "components", "lib", "server", "prisma/schema", "proxy.ts", "package-lock.json", "next.config.ts", "postcss.config.mjs", "tsconfig.json"];
const STAMP = ".next/lightgate-build-stamp";

function walk(p: string, out: string[]) {
  if (!fs.existsSync(p)) return;
  const st = fs.statSync(p);
  if (st.isFile()) return void out.push(p);
  for (const e of fs.readdirSync(p).sort()) {
    if (e === "node_modules" || e === "generated") continue;
    walk(path.join(p, e), out);
  }
}

export function sourceHash(root: string): string {
  const files: string[] = [];
  for (const i of INPUTS) walk(path.join(root, i), files);
  const h = crypto.createHash("sha256");
  for (const f of files) h.update(path.relative(root, f)).update("\0").update(fs.readFileSync(f)).update("\0");
  return h.digest("hex");
}

export function buildIsCurrent(root: string): boolean {
  const stamp = path.join(root, STAMP);
  if (!fs.existsSync(path.join(root, ".next/BUILD_ID")) || !fs.existsSync(stamp)) return false;
  return fs.readFileSync(stamp, "utf8").trim() === sourceHash(root);
}

export function writeBuildStamp(root: string) {
  fs.writeFileSync(path.join(root, STAMP), sourceHash(root));
}

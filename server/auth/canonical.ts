// Kept for the auth modules' imports; the implementation is the shared server/digest.ts.
export { canonicalJson, newId, sha256Bytes as sha256, sha256Hex } from "@/server/digest";

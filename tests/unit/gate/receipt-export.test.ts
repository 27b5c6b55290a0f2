// Receipt export: an in-toto Statement v1 in a signed DSSE envelope, verified offline — in code and by the CLI.
import { spawnSync } from "node:child_process";
import { generateKeyPairSync, type KeyObject } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { digestHex } from "@/server/gate/digest";
import { signEnvelope, type DsseEnvelope } from "@/server/gate/export/dsse";
import { buildReceiptStatement, exportReceipt, IN_TOTO_PAYLOAD_TYPE, RECEIPT_PREDICATE_TYPE, type ReceiptStatement } from "@/server/gate/export/statement";
import { verifyReceipt } from "@/server/gate/export/verify-receipt";
import { POLICY, VERSIONS } from "@/server/gate/reference/common";
import { verifyStoredSignature } from "@/server/auth/verify-offline";
import { judge, reference } from "./fixtures";
import { signedDecisions } from "./signed";

const { publicKey, privateKey } = generateKeyPairSync("ed25519");

function exported(name: "A" | "D" = "A") {
  const { chain, receipt, raw } = reference(name);
  const decisions = signedDecisions(receipt);
  const statement = buildReceiptStatement({ chain, report: judge(receipt, { decisions }), policy: POLICY, currentVersions: VERSIONS, decisions });
  return { statement, envelope: exportReceipt(statement, privateKey), raw };
}

/** Decodes, edits and re-signs with the trusted key: only the content checks can catch these. */
function resigned(envelope: DsseEnvelope, edit: (s: ReceiptStatement) => void): DsseEnvelope {
  const statement = JSON.parse(Buffer.from(envelope.payload, "base64").toString("utf8")) as ReceiptStatement;
  edit(statement);
  return signEnvelope(Buffer.from(JSON.stringify(statement)), IN_TOTO_PAYLOAD_TYPE, privateKey);
}
const verify = (envelope: unknown, keys = [publicKey]) => verifyReceipt(envelope, keys, verifyStoredSignature);
const failed = (r: Awaited<ReturnType<typeof verifyReceipt>>) => r.checks.filter((c) => !c.ok).map((c) => c.name);

describe("receipt export", () => {
  it("is an in-toto Statement v1 about the candidate's digest, signed in a DSSE envelope, that verifies offline", async () => {
    const { statement, envelope, raw } = exported();
    expect(envelope.payloadType).toBe("application/vnd.in-toto+json");
    expect(statement).toMatchObject({
      _type: "https://in-toto.io/Statement/v1",
      subject: [{ name: raw.candidate.resourceId, digest: { sha256: digestHex(raw.candidate.digest) } }],
      predicateType: RECEIPT_PREDICATE_TYPE,
      predicate: { agent: "support-desk", gate: { verdict: "PROMOTE TO BOUNDED CANARY" } },
    });
    expect(statement.predicate.chain.map((l) => l.kind)).toEqual(["stage1", "stage2", "stage3", "approval"]);
    expect(statement.predicate.gate.decisions.records).toHaveLength(1);
    const result = await verify(envelope);
    expect(failed(result)).toEqual([]);
    expect(result.checks.map((c) => c.name)).toEqual(["envelope decode", "envelope signature", "envelope payloadType", "envelope parse", "statement", "sealed chain", "subject", "decision signatures", "verdict recomputed"]);
    expect(result.checks.find((c) => c.name === "decision signatures")!.detail).toBe("1 signed decision, 1 verifying over its payload");
  });

  it("carries whether the exact parent loaded, so a verdict judged on a missing parent recomputes offline", async () => {
    const { chain, receipt } = reference("A");
    const decisions = signedDecisions(receipt);
    const parentLoad = { loadable: false as const, reason: "the store holds no version 1" };
    const report = judge(receipt, { decisions, parentLoad });
    expect(report.checks[0]!.status).toBe("fail");
    const statement = buildReceiptStatement({ chain, report, policy: POLICY, currentVersions: VERSIONS, decisions, parentLoad });
    expect(statement.predicate.gate.parentLoad).toEqual(parentLoad);
    expect(failed(await verify(exportReceipt(statement, privateKey)))).toEqual([]);
    // Dropping it (re-signed) makes the recomputed verdict disagree.
    const dropped = resigned(exportReceipt(statement, privateKey), (s) => void delete s.predicate.gate.parentLoad);
    expect(failed(await verify(dropped))).toEqual(["verdict recomputed"]);
  });

  it("a quarantined receipt verifies too: the signature vouches for the record, not for the candidate", async () => {
    const result = await verify(exported("D").envelope);
    expect(result.ok).toBe(true);
    expect(result.statement!.predicate.gate.verdict).toBe("QUARANTINED");
  });

  it("catches an edited stage, a changed verdict, a swapped subject or an edited signed decision even when re-signed with the trusted key", async () => {
    const { envelope } = exported();
    const stage = resigned(envelope, (s) => {
      ((s.predicate.chain[1]!.content as { rollouts: { reward: number }[] }).rollouts[0]!).reward = 1;
    });
    expect(failed(await verify(stage))).toEqual(["sealed chain"]);
    const verdict = resigned(envelope, (s) => {
      s.predicate.gate.checks[4]!.status = "fail";
    });
    expect(failed(await verify(verdict))).toEqual(["verdict recomputed"]);
    const subject = resigned(envelope, (s) => {
      s.subject[0]!.digest.sha256 = "0".repeat(64);
    });
    expect(failed(await verify(subject))).toEqual(["subject"]);
    const dropped = resigned(envelope, (s) => {
      s.predicate.chain.pop();
    });
    expect(failed(await verify(dropped))).toEqual(["sealed chain"]);
    // The approver's signed payload changed (the server's word says it verified): the signature no longer
    // does, so the approval stops counting and the recorded verdict cannot be recomputed.
    const decision = resigned(envelope, (s) => {
      ((s.predicate.gate.decisions.records[0]!.payload as { data: { comment: string } }).data).comment = "nothing reviewed";
    });
    expect(failed(await verify(decision))).toEqual(["decision signatures", "verdict recomputed"]);
  });

  it("refuses an envelope signed by another key, before reading it", async () => {
    const result = await verify(exported().envelope, [generateKeyPairSync("ed25519").publicKey]);
    expect(result.checks.map((c) => [c.name, c.ok])).toEqual([["envelope decode", true], ["envelope signature", false]]);
    expect(result.statement).toBeNull();
  });
});

describe("npm run verify-receipt", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lightgate-receipt-"));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  const write = (name: string, text: string) => (fs.writeFileSync(path.join(dir, name), text), path.join(dir, name));
  const pem = (k: KeyObject) => k.export({ type: "spki", format: "pem" }).toString();
  const cli = (...args: string[]) => spawnSync(process.execPath, ["--import", "tsx", "scripts/verify-receipt.ts", ...args], { encoding: "utf8", timeout: 60_000 });

  it("verifies a receipt file offline and prints what it checked", { timeout: 150_000 }, () => {
    const file = write("a.json", JSON.stringify(exported().envelope));
    const run = cli(file, "--key", write("key.pem", pem(publicKey)));
    expect(run.status).toBe(0);
    expect(run.stdout).toContain("✓ envelope signature: valid over PAE from 1 trusted key");
    expect(run.stdout).toContain("✓ verdict recomputed: PROMOTE TO BOUNDED CANARY");
    expect(run.stdout.trim().split("\n").at(-1)).toBe("VERIFIED");
  });

  // Two real processes (node --import tsx): seconds each, tens of seconds on two loaded cores.
  it("exits 1 with the failing step for a wrong key, 2 for a usage error", { timeout: 150_000 }, () => {
    const file = write("b.json", JSON.stringify(exported().envelope));
    const wrong = cli(file, "--key", write("other.pem", pem(generateKeyPairSync("ed25519").publicKey)));
    expect(wrong.status).toBe(1);
    expect(wrong.stdout).toMatch(/✗ envelope signature: 0 of the required 1 trusted key/);
    expect(wrong.stdout.trim().split("\n").at(-1)).toBe("NOT VERIFIED");
    expect(cli().status).toBe(2);
    expect(cli(path.join(dir, "missing.json"), "--key", path.join(dir, "key.pem")).stderr).toMatch(/cannot read/);
  });
});

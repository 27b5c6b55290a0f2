// Issue 23 finding 4: the audit's signing key sat in the database it signs. Whoever could write there edited
// row 40, re-hashed the tail, re-signed every checkpoint with the key read from the same database, and
// `audit:verify` (also with --key <genuine public key>) said "intact"; --head named the head "truncated".
// Now the key lives in an owner-only file beside the data (or a configured secret), signed heads are exported
// outside the database, and every verifier names row 40. All through the CLIs as real processes, on both dialects.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createPrivateKey, createPublicKey, generateKeyPairSync } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { appendAudit, AUDIT_LOCK } from "@/server/audit/audit-log";
import { exportAuditHeads } from "@/server/audit/head-export";
import { createTestDatabase, describeEachDialect, FULL_RUN, type TestDatabase } from "../../helpers/db";
import { SYSTEM } from "../../helpers/auth";
import { dropAuditGuards, editAndRehash, resignCheckpoints } from "../../helpers/audit-tamper";
import { startScript, waitFor } from "../../helpers/script-process";

const DB_KEY_SETTING = "receipt.ed25519.private"; // where the old default kept the private key

// Each test runs the CLIs as processes (~2–4 s each on a busy machine).
const SLOW = 120_000;

describeEachDialect("the audit's signing key kept apart from the database it signs", (dialect) => {
  const made: { db: TestDatabase; dataDir: string }[] = [];
  let previousDataDir: string | undefined;
  beforeAll(() => {
    previousDataDir = process.env.LIGHTGATE_DATA_DIR;
  });
  afterAll(async () => {
    if (previousDataDir === undefined) delete process.env.LIGHTGATE_DATA_DIR;
    else process.env.LIGHTGATE_DATA_DIR = previousDataDir;
    for (const m of made) {
      await m.db.drop();
      fs.rmSync(m.dataDir, { recursive: true, force: true });
    }
  }, SLOW);

  // Where the key file lives and which process exports heads differ by dialect: those tests run on both in every
  // run. The three below only repeat the CLIs' logic over the other adapter — on PostgreSQL in the full run.
  const itOnPgInFullRun = dialect === "postgresql" && !FULL_RUN ? it.skip : it;

  /** A fresh database and a data directory of its own (where PostgreSQL's key and heads live by default). */
  async function fresh(label: string) {
    const db = await createTestDatabase(dialect, label);
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "lightgate-data-"));
    made.push({ db, dataDir });
    process.env.LIGHTGATE_DATA_DIR = dataDir; // for the appends made in this process
    const env = { ...process.env, DATABASE_URL: db.url, LIGHTGATE_DATA_DIR: dataDir, LIGHTGATE_RECEIPT_PRIVATE_KEY: "" };
    const cli = async (script: string, args: string[] = []) => {
      const p = startScript(script, args, env);
      const code = await p.exited;
      return { code, out: p.output() };
    };
    const append = async (n: number) => {
      for (let i = 1; i <= n; i++) {
        await db.transaction((tx) => appendAudit(tx, { actor: SYSTEM, action: "test.event", target: { type: "thing", id: `t-${i}` }, after: { n: i } }), { locks: [AUDIT_LOCK] });
      }
    };
    /** The directory the key file goes in by default: beside the SQLite file, or the data directory. */
    const keyDir = dialect === "sqlite" ? path.dirname(db.target.dialect === "sqlite" ? db.target.file : "") : dataDir;
    return { db, dataDir, env, cli, append, keyDir };
  }

  itOnPgInFullRun("the attack: row 40 edited, the tail re-hashed and re-signed with the key read from the database — every verifier names row 40", async () => {
    const t = await fresh("keyattack");
    // an installation from before: its private key in the database
    const legacy = generateKeyPairSync("ed25519").privateKey.export({ type: "pkcs8", format: "pem" }).toString();
    await t.db.db.systemSetting.create({ data: { key: DB_KEY_SETTING, value: legacy } });
    await t.append(140);
    const first = await t.cli("scripts/audit-verify.ts");
    expect(first.code, first.out).toBe(0);
    expect(first.out).toMatch(/key .*stored in the database/i); // the warning, every run until it is moved out
    const head = /head (\d+:[0-9a-f]{64})/.exec(first.out)![1]!;
    const headsFile = /exported signed heads .*? to (\S+)/.exec(first.out)?.[1];
    expect(headsFile, first.out).toBeTruthy();
    const keptHeads = path.join(t.dataDir, "heads-copy.jsonl");
    fs.copyFileSync(headsFile!, keptHeads);
    const genuinePub = path.join(t.dataDir, "genuine.pub.pem");
    fs.writeFileSync(genuinePub, createPublicKey(createPrivateKey(legacy)).export({ type: "spki", format: "pem" }).toString());

    await dropAuditGuards(t.db, dialect);
    await editAndRehash(t.db, 40, '{"n":"nothing to see"}');
    // re-sign every checkpoint with the key read from the same database
    const pem = (await t.db.db.systemSetting.findUniqueOrThrow({ where: { key: DB_KEY_SETTING } })).value;
    await resignCheckpoints(t.db, createPrivateKey(pem));

    for (const args of [[], ["--key", genuinePub], ["--head", head], ["--head", keptHeads]]) {
      const r = await t.cli("scripts/audit-verify.ts", args);
      expect(r.code, `${args.join(" ")}: ${r.out}`).toBe(1);
      expect(r.out, args.join(" ")).toMatch(/BROKEN at row 40 \(/);
    }
    // the server's exporter does not write the rewritten log over what it exported
    const before = fs.readFileSync(headsFile!, "utf8");
    await t.append(20);
    await expect(exportAuditHeads(t.db, headsFile!)).rejects.toThrow(/row 140 is no longer the row whose hash was exported/);
    expect(fs.readFileSync(headsFile!, "utf8")).toBe(before);
  }, SLOW);

  it("a fresh installation makes its key in an owner-only file beside the data, never in the database, and refuses a key others can read", async () => {
    const t = await fresh("keyfile");
    await t.append(20); // the 16th row signs a checkpoint: the key is made on that first use
    const keyFile = path.join(t.keyDir, "receipt-signing-key.pem");
    expect(fs.existsSync(keyFile)).toBe(true);
    expect(fs.statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(await t.db.db.systemSetting.findUnique({ where: { key: DB_KEY_SETTING } })).toBeNull();
    const ok = await t.cli("scripts/audit-verify.ts");
    expect(ok.code, ok.out).toBe(0);
    expect(ok.out).not.toMatch(/stored in the database/i);

    fs.chmodSync(keyFile, 0o644);
    const refused = await t.cli("scripts/audit-verify.ts");
    expect(refused.code, refused.out).toBe(2);
    expect(refused.out).toMatch(/receipt-signing-key\.pem.*readable by (group|others).*chmod 600/);
    await expect(t.append(16)).rejects.toThrow(/readable by (group|others)/);
    // `npm start` stops on it before building or serving (its own process group: nothing outlives the test)
    const start = spawn(process.execPath, ["--import", "tsx", "scripts/start.ts"], { env: { ...t.env, PORT: String(20_000 + Math.floor(Math.random() * 20_000)), HOSTNAME: "127.0.0.1", LIGHTGATE_DEMO: "0" }, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    let startOut = "";
    start.stdout.on("data", (d: Buffer) => (startOut += d.toString()));
    start.stderr.on("data", (d: Buffer) => (startOut += d.toString()));
    const startCode = await new Promise<number | null>((resolve) => {
      const guard = setTimeout(() => process.kill(-start.pid!, "SIGKILL"), 60_000);
      start.on("exit", (code) => (clearTimeout(guard), resolve(code)));
    });
    expect(startCode, startOut).toBe(1);
    expect(startOut).toMatch(/lightgate: the receipt signing key .*receipt-signing-key\.pem is readable by group or others.*chmod 600/);
    expect(await t.db.db.auditEvent.count()).toBe(20 + 15); // the change whose checkpoint could not be signed did not happen
  }, SLOW);

  it("a process whose key is not the one this database is signed with refuses to sign (two hosts, two key files)", async () => {
    const t = await fresh("keysplit");
    await t.append(16);
    const keyFile = path.join(t.keyDir, "receipt-signing-key.pem");
    const first = fs.readFileSync(keyFile, "utf8");
    fs.rmSync(keyFile);
    fs.writeFileSync(keyFile, generateKeyPairSync("ed25519").privateKey.export({ type: "pkcs8", format: "pem" }).toString(), { mode: 0o600 });
    await expect(t.append(16)).rejects.toThrow(/is not the key this database's receipts and audit checkpoints are signed with/);
    expect(await t.db.db.auditEvent.count()).toBe(16 + 15);
    fs.writeFileSync(keyFile, first);
    await t.append(1);
    expect(await t.db.db.auditCheckpoint.count()).toBe(2);
  }, SLOW);

  itOnPgInFullRun("a key left in the database is warned about, and `npm run audit:key -- --export` moves it out without breaking old signatures", async () => {
    const t = await fresh("keymove");
    const legacy = generateKeyPairSync("ed25519").privateKey.export({ type: "pkcs8", format: "pem" }).toString();
    await t.db.db.systemSetting.create({ data: { key: DB_KEY_SETTING, value: legacy } });
    await t.append(20);
    const shown = await t.cli("scripts/audit-key.ts");
    expect(shown.code, shown.out).toBe(0);
    expect(shown.out).toMatch(/stored in the database.*npm run audit:key -- --export/s);

    const moved = await t.cli("scripts/audit-key.ts", ["--export"]);
    expect(moved.code, moved.out).toBe(0);
    const keyFile = path.join(t.keyDir, "receipt-signing-key.pem");
    expect(fs.statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(createPublicKey(fs.readFileSync(keyFile, "utf8")).export({ format: "jwk" })).toEqual(createPublicKey(createPrivateKey(legacy)).export({ format: "jwk" }));
    expect(await t.db.db.systemSetting.findUnique({ where: { key: DB_KEY_SETTING } })).toBeNull();
    expect(moved.out).toMatch(/back it up/i);

    // the checkpoints signed before the move still verify, new ones are signed with the same key from the file
    await t.append(16);
    const after = await t.cli("scripts/audit-verify.ts");
    expect(after.code, after.out).toBe(0);
    expect(after.out).not.toMatch(/stored in the database/i);
    expect(after.out).toMatch(/signed checkpoints vouch for rows 1–32/);
  }, SLOW);

  it("the server's timer exports signed heads outside the database — with several processes on PostgreSQL, the leader alone", async () => {
    const t = await fresh("keyheads");
    await t.append(20);
    const env = { ...t.env, LIGHTGATE_AUDIT_EXPORT_MINUTES: "0.01" };
    const servers = [startScript("scripts/store/serve.ts", ["--port", "0"], env)];
    if (dialect === "postgresql") servers.push(startScript("scripts/store/serve.ts", ["--port", "0"], env));
    const outputs = () => servers.map((s) => s.output()).join("\n---\n");
    try {
      const headsFile = dialect === "sqlite" ? path.join(t.keyDir, "audit-heads.jsonl") : path.join(t.dataDir, `audit-heads.${(t.db.target as { database: string }).database}.jsonl`);
      const heads = () => (fs.existsSync(headsFile) ? fs.readFileSync(headsFile, "utf8").trim().split("\n").map((l) => JSON.parse(l) as { seq: number; fromSeq: number; signature: string; keyId: string }) : []);
      await waitFor(async () => heads().at(-1)?.seq === 20, 30_000, outputs);
      expect(heads().map((l) => [l.fromSeq, l.seq])).toEqual([[1, 16], [17, 20]]);
      expect(heads().every((l) => l.signature && l.keyId)).toBe(true);
      await t.append(5); // rows 21–25: the next tick signs a checkpoint for them and exports it
      await waitFor(async () => heads().at(-1)?.seq === 25, 30_000, outputs);
      // a tick may fall between two of those appends: then rows 21–25 come in two lines; never twice, never a gap
      const windows = heads().map((l) => [l.fromSeq, l.seq] as const);
      expect(windows.slice(0, 2)).toEqual([[1, 16], [17, 20]]);
      expect(windows.every(([from], i) => from === (i === 0 ? 1 : windows[i - 1]![1] + 1))).toBe(true);
      expect(servers.filter((s) => /audit: exported signed heads/.test(s.output()))).toHaveLength(1);
    } finally {
      for (const s of servers) await s.stop();
    }
  }, SLOW);

  itOnPgInFullRun("an export cut short by a crash is completed by the next; another database's heads file is not used, a copy passed by hand is", async () => {
    const t = await fresh("keytorn");
    await t.append(20);
    const first = await exportAuditHeads(t.db);
    expect(first).toMatchObject({ exported: 2, through: 20 });
    fs.appendFileSync(first.file, '{"v":1,"database":"'); // the process died mid-line
    await t.append(16);
    expect(await exportAuditHeads(t.db)).toMatchObject({ exported: 1, through: 36 });
    const ok = await t.cli("scripts/audit-verify.ts");
    expect(ok.code, ok.out).toBe(0);
    expect(ok.out).toMatch(/heads exported to .* vouch for rows 1–36/);

    const other = await fresh("keytornother");
    await other.append(20);
    fs.copyFileSync(first.file, path.join(other.keyDir, path.basename(first.file)));
    if (dialect === "postgresql") fs.renameSync(path.join(other.keyDir, path.basename(first.file)), path.join(other.dataDir, `audit-heads.${(other.db.target as { database: string }).database}.jsonl`));
    const skipped = await other.cli("scripts/audit-verify.ts", ["--no-checkpoint"]);
    expect(skipped.code, skipped.out).toBe(0);
    expect(skipped.out).toMatch(/holds the heads of .*, not of this database: not used/);
    const byHand = await other.cli("scripts/audit-verify.ts", ["--no-checkpoint", "--head", first.file]);
    expect(byHand.code, byHand.out).toBe(1); // checked against it anyway: signed by the other installation's key
    expect(byHand.out).toMatch(/BROKEN at row 16 \(checkpoint-invalid\): the exported heads in .* not signed by the server's key/);
  }, SLOW);
});

// The one-statement span write on PostgreSQL (server/store/add-spans-statement.ts), driven directly against a real
// database: what it writes when it applies — numbers, bodies byte for byte, the counter, the heartbeat, concurrent
// batches — and that in every case it leaves to the general program it writes nothing at all. Then the way the
// store uses it (the statement, else the general program, the careful one after a duplicate) against the careful
// program alone on twin rollouts: over every state of attempt, heartbeat, phase and viewer, and over generated
// sequences of batches, duplicates, status marks, phase changes and passing time (fast-check).
import fc from "fast-check";
import { afterAll, beforeAll, expect, it } from "vitest";
import { all, run } from "@/server/db/sql/program";
import { sqlRunnerFor } from "@/server/db/sql/runner";
import type { SqlRunner } from "@/server/db/sql/program";
import type { Span } from "@/server/store";
import type { StoreViewer } from "@/server/store/scope";
import { addSpansAtOnce, FreshAttempts, writeSpans } from "@/server/store/add-spans-statement";
import { addSpans } from "@/server/store/spans";
import { describeEachDialect } from "../../helpers/db";
import { createTestStore, makeSpan, type StoreFixture } from "../../helpers/store";

type Row = { span_seq: number; heartbeat: number | null; spans: number };

describeEachDialect(
  "spans written in one statement",
  (dialect) => {
    let f: StoreFixture;
    let sql: SqlRunner;
    beforeAll(async () => {
      f = await createTestStore(dialect, "at-once");
      sql = sqlRunnerFor(f.database);
    });
    afterAll(() => f?.drop());

    /** A rollout whose attempt is running (its first span moved it there), with `seq` spans stored. */
    async function running(label: string) {
      const s = await f.store.startRollout({ input: label });
      await f.store.addSpans([makeSpan(s.rollout_id, s.attempt.attempt_id, 1, "first")]);
      return { rid: s.rollout_id, aid: s.attempt.attempt_id };
    }
    const state = (rid: string, aid: string) =>
      sql.read(function* () {
        const [r] = yield* all<Row>(
          `SELECT r.span_seq, a.last_heartbeat_time AS heartbeat, (SELECT COUNT(*) FROM store_spans s WHERE s.rollout_id = r.rollout_id) AS spans
           FROM store_rollouts r JOIN store_attempts a ON a.rollout_id = r.rollout_id AND a.attempt_id = ? WHERE r.rollout_id = ?`,
          [aid, rid],
        );
        return r!;
      });
    const exec = (spans: Span[], now: number, viewer?: StoreViewer, revive = false) => sql.write((d) => addSpansAtOnce(d, spans, now, viewer, { revive }));
    /** The test database's runner, counting the programs written through it (each statement or program is one). */
    const counted = (): [SqlRunner, () => number] => {
      let writes = 0;
      const runner: SqlRunner = { dialect: sql.dialect, read: (p) => sql.read(p), write: (p, o) => (writes++, sql.write(p, o)), close: async () => {} };
      return [runner, () => writes];
    };
    // Spans as mapped from OTLP: no number yet, rollout_id, attempt_id and sequence_id first.
    const unnumbered = (rid: string, aid: string, names: string[]) => names.map((n, i) => ({ ...makeSpan(rid, aid, 100 + i, n, { attributes: { "a\"b": "é\u2028", n: i } }), sequence_id: -1 }));

    it("numbers unnumbered spans after the counter and stores each body as the span with its number", async () => {
      const { rid, aid } = await running("numbered");
      const now = (await state(rid, aid)).heartbeat! + 0.25; // heartbeat fresh: left alone
      const added = await exec(unnumbered(rid, aid, ["x", "y", "z"]), now);
      expect(added?.map((s) => [s.name, s.sequence_id])).toEqual([["x", 2], ["y", 3], ["z", 4]]);
      const page = await f.store.querySpansText({ rollout_id: rid, limit: -1 });
      expect(page.items.slice(1)).toEqual(added!.map((s) => JSON.stringify(s)));
      expect(JSON.parse(page.items[2]!)).toMatchObject({ sequence_id: 3, attributes: { "a\"b": "é\u2028", n: 1 } });
      const after = await state(rid, aid);
      expect(after).toMatchObject({ span_seq: 4, spans: 4 });
      expect(after.heartbeat).toBeLessThan(now);
    });

    it("raises the counter to the highest explicit number and writes a heartbeat that is due", async () => {
      const { rid, aid } = await running("explicit");
      const before = await state(rid, aid);
      const now = before.heartbeat! + 5;
      const added = await exec([makeSpan(rid, aid, 9, "nine"), makeSpan(rid, aid, 7, "seven")], now);
      expect(added?.map((s) => s.sequence_id)).toEqual([9, 7]);
      expect(await state(rid, aid)).toEqual({ span_seq: 9, heartbeat: now, spans: 3 });
      await exec([makeSpan(rid, aid, 3, "three")], now + 0.5); // a lower number leaves the counter where it is
      expect((await state(rid, aid)).span_seq).toBe(9);
    });

    it("writes nothing and answers null whenever the general program must decide", async () => {
      const { rid, aid } = await running("refused");
      const fresh = await f.store.startRollout({ input: "preparing" }); // attempt still preparing: its first span moves it
      const other = await running("other");
      const silent = await running("unresponsive"); // the watchdog's mark on a running rollout: a span revives the attempt
      await sql.write(() => run("UPDATE store_attempts SET status = 'unresponsive' WHERE rollout_id = ?", [silent.rid]));
      // The lean form leaves a status that would move to the reviving form; neither takes what the general program refuses.
      const moving: [string, () => Promise<Span[] | null>, string, string][] = [
        ["a preparing attempt", () => exec([makeSpan(fresh.rollout_id, fresh.attempt.attempt_id, 1, "p")], 1e10), fresh.rollout_id, fresh.attempt.attempt_id],
        ["an unresponsive attempt", () => exec([makeSpan(silent.rid, silent.aid, 2, "back")], 1e10), silent.rid, silent.aid],
      ];
      const refused = (revive: boolean): [string, () => Promise<Span[] | null>, string, string][] => [
        ["an unknown attempt", () => exec([makeSpan(rid, "at-missing", 5, "u")], 1e10, undefined, revive), rid, aid],
        ["an unknown rollout", () => exec([makeSpan("ro-missing", aid, 5, "u")], 1e10, undefined, revive), rid, aid],
        ["spans of two attempts", () => exec([makeSpan(rid, aid, 5, "a"), makeSpan(other.rid, other.aid, 5, "b")], 1e10, undefined, revive), rid, aid],
        ["numbered and unnumbered together", () => exec([makeSpan(rid, aid, 5, "a"), { ...makeSpan(rid, aid, 6, "b"), sequence_id: -1 }], 1e10, undefined, revive), rid, aid],
        ["an unnumbered span with its keys in another order", () => exec([Object.fromEntries(Object.entries(unnumbered(rid, aid, ["k"])[0]!).reverse()) as Span], 1e10, undefined, revive), rid, aid],
      ];
      for (const [what, attempt, r, a] of [...moving, ...refused(false), ...refused(true)]) {
        const before = await state(r, a);
        expect(await attempt(), what).toBeNull();
        expect(await state(r, a), what).toEqual(before);
      }
    });

    it("in its reviving form, revives an attempt preparing or unresponsive, and its rollout follows only from its latest attempt", async () => {
      const statuses = (rid: string, aid: string) =>
        sql.read(function* () {
          const [r] = yield* all<{ status: string; queue_pos: number | null; requeue_cause: string | null }>("SELECT status, queue_pos, requeue_cause FROM store_rollouts WHERE rollout_id = ?", [rid]);
          const [a] = yield* all<{ status: string; last_heartbeat_time: number }>("SELECT status, last_heartbeat_time FROM store_attempts WHERE rollout_id = ? AND attempt_id = ?", [rid, aid]);
          return { rollout: r!.status, queued: r!.queue_pos !== null || r!.requeue_cause !== null, attempt: a!.status, beat: a!.last_heartbeat_time };
        });
      // A rollout's first batch: its attempt is preparing until then.
      const fresh = await f.store.startRollout({ input: "first batch" });
      expect(await exec(unnumbered(fresh.rollout_id, fresh.attempt.attempt_id, ["p"]), 3e9, undefined, true)).not.toBeNull();
      expect(await statuses(fresh.rollout_id, fresh.attempt.attempt_id)).toEqual({ rollout: "running", queued: false, attempt: "running", beat: 3e9 });
      // The watchdog's mark on an attempt whose rollout was put back in the queue: a span revives the attempt, and
      // takes the rollout back only when it is the latest attempt.
      for (const [k, latest] of [true, false].entries()) {
        const r = await running(latest ? "requeued" : "superseded");
        await sql.write(function* () {
          yield* run("UPDATE store_attempts SET status = 'unresponsive' WHERE rollout_id = ?", [r.rid]);
          yield* run("UPDATE store_rollouts SET status = 'requeuing', queue_pos = 7, requeue_cause = 'unresponsive', latest_attempt_id = ? WHERE rollout_id = ?", [latest ? r.aid : "at-next", r.rid]);
        });
        expect(await exec([makeSpan(r.rid, r.aid, 2, "back")], 3e9 + 1 + k, undefined, true)).not.toBeNull();
        expect(await statuses(r.rid, r.aid)).toEqual({ rollout: latest ? "running" : "requeuing", queued: !latest, attempt: "running", beat: 3e9 + 1 + k });
      }
      // A failed attempt's late span is stored with a heartbeat, and moves nothing.
      const failed = await f.store.startRollout({ input: "failed" });
      await sql.write(() => run("UPDATE store_attempts SET status = 'failed' WHERE rollout_id = ?", [failed.rollout_id]));
      expect(await exec([makeSpan(failed.rollout_id, failed.attempt.attempt_id, 1, "after")], 3e9 + 3, undefined, true)).not.toBeNull();
      expect(await statuses(failed.rollout_id, failed.attempt.attempt_id)).toEqual({ rollout: "preparing", queued: false, attempt: "failed", beat: 3e9 + 3 });
    });

    it("leaves gate work served by another identity to the general program (its 403), and writes the server's own", async () => {
      const { rid, aid } = await running("gate");
      await sql.write(function* () {
        yield* run("UPDATE store_rollouts SET phase = 'locked_gate' WHERE rollout_id = ?", [rid]);
        yield* run("UPDATE store_attempts SET served_by = 'key-runner' WHERE rollout_id = ? AND attempt_id = ?", [rid, aid]);
      });
      const viewer = (identity: string): StoreViewer => ({ identity, agents: null, untagged: true, gate: true, phases: null });
      const before = await state(rid, aid);
      expect(await exec([makeSpan(rid, aid, 2, "foreign")], before.heartbeat! + 0.1, viewer("key-other"))).toBeNull();
      expect(await state(rid, aid)).toEqual(before);
      expect(await exec([makeSpan(rid, aid, 2, "own")], before.heartbeat! + 0.1, viewer("key-runner"))).not.toBeNull();
      expect(await exec([makeSpan(rid, aid, 3, "unrestricted")], before.heartbeat! + 0.1)).not.toBeNull();
      expect((await state(rid, aid)).spans).toBe(3);
    });

    it("does what the careful program does, in every state of the rollout, attempt, heartbeat, phase and viewer", async () => {
      type Arrange = {
        rollout: "preparing" | "running" | "requeuing";
        latest: boolean;
        attempt: "preparing" | "running" | "unresponsive" | "failed";
        beat: "none" | "fresh" | "stale";
        phase: string | null;
        viewer: "none" | "served" | "other";
        numbered: boolean;
      };
      const cases: Arrange[] = [];
      for (const rollout of ["preparing", "running", "requeuing"] as const)
        for (const latest of [true, false])
          for (const attempt of ["preparing", "running", "unresponsive", "failed"] as const)
            for (const beat of ["none", "fresh", "stale"] as const)
              for (const phase of [null, "locked_gate"])
                for (const viewer of ["none", "served", "other"] as const)
                  // Numbering only in the plainest arrangement's neighbourhood: it changes the counter, not the states.
                  for (const numbered of viewer === "none" && phase === null ? [true, false] : [false]) cases.push({ rollout, latest, attempt, beat, phase, viewer, numbered });
      const now = 2_000_000_000;
      const snapshot = (rid: string, aid: string) =>
        sql.read(function* () {
          const r = yield* all(`SELECT status, span_seq, queue_pos, requeue_cause FROM store_rollouts WHERE rollout_id = ?`, [rid]);
          const a = yield* all(`SELECT status, last_heartbeat_time FROM store_attempts WHERE rollout_id = ? AND attempt_id = ?`, [rid, aid]);
          const spans = yield* all<{ body: string }>(`SELECT sequence_id, body FROM store_spans WHERE rollout_id = ? ORDER BY sequence_id, span_id`, [rid]);
          return JSON.stringify({ r, a, spans }).split(rid).join("<rid>").split(aid).join("<aid>");
        });
      let byLean = 0;
      for (const c of cases) {
        const sides = await Promise.all(
          [0, 1, 2].map(async () => {
            const s = await f.store.startRollout({ input: "twin" });
            const { rollout_id: rid, attempt: { attempt_id: aid } } = s;
            const beat = c.beat === "none" ? null : c.beat === "fresh" ? now - 0.5 : now - 30;
            await sql.write(function* () {
              yield* run("UPDATE store_rollouts SET status = ?, phase = ?, queue_pos = ?, requeue_cause = ?, latest_attempt_id = ? WHERE rollout_id = ?", [
                c.rollout,
                c.phase,
                c.rollout === "requeuing" ? 5 : null,
                c.rollout === "requeuing" ? "unresponsive" : null,
                c.latest ? aid : "at-next",
                rid,
              ]);
              yield* run("UPDATE store_attempts SET status = ?, last_heartbeat_time = ?, served_by = 'key-runner' WHERE rollout_id = ? AND attempt_id = ?", [c.attempt, beat, rid, aid]);
            });
            const spans = (c.numbered ? unnumbered(rid, aid, ["a", "b"]) : [makeSpan(rid, aid, 4, "a"), makeSpan(rid, aid, 2, "b")]) as Span[];
            return { rid, aid, spans };
          }),
        );
        const viewer = c.viewer === "none" ? undefined : ({ identity: c.viewer === "served" ? "key-runner" : "key-other", agents: null, untagged: true, gate: true, phases: null } satisfies StoreViewer);
        const outcome = (p: Promise<Span[]>, rid: string, aid: string) =>
          p.then(
            (spans) => JSON.stringify(spans.map((x) => [x.name, x.sequence_id])),
            (e: Error) => `${e.constructor.name}: ${e.message.split(rid).join("<rid>").split(aid).join("<aid>")}`,
          );
        const [a, b, h] = sides as [(typeof sides)[0], (typeof sides)[0], (typeof sides)[0]];
        // The store's way twice — without a hint, and with the attempt known fresh — against the careful program.
        const [plain, plainWrites] = counted();
        const [hinted, hintedWrites] = counted();
        const hint = new FreshAttempts();
        hint.add(h.rid, h.aid);
        // The three rollouts are independent: written at once, then read at once.
        const [careful, viaPlain, viaHint] = await Promise.all([
          outcome(sql.write((d) => addSpans(d, b.spans, now, viewer)), b.rid, b.aid),
          outcome(writeSpans(plain, a.spans, () => now, viewer), a.rid, a.aid),
          outcome(writeSpans(hinted, h.spans, () => now, viewer, hint), h.rid, h.aid),
        ]);
        const [want, gotPlain, gotHint] = await Promise.all([snapshot(b.rid, b.aid), snapshot(a.rid, a.aid), snapshot(h.rid, h.aid)]);
        const what = JSON.stringify(c);
        expect(viaPlain, what).toBe(careful);
        expect(gotPlain, what).toBe(want);
        expect(viaHint, what).toBe(careful);
        expect(gotHint, what).toBe(want);
        // Which form did the work, seen as the writes it took: the lean statement wherever no status moves, the
        // reviving one wherever else the viewer may write, the general program only for its refusals.
        const permitted = c.phase === null || c.viewer !== "other";
        const lean = permitted && c.attempt !== "preparing" && c.attempt !== "unresponsive" && !(c.latest && c.rollout !== "running");
        expect(plainWrites(), what).toBe(lean ? 1 : permitted ? 2 : 3);
        expect(hintedWrites(), what).toBe(permitted ? 1 : 2);
        byLean += lean ? 1 : 0;
      }
      // Both forms met: 504 arrangements, of which the lean statement took 144 and the reviving one 288 more.
      expect([cases.length, byLean]).toEqual([504, 144]);
    }, 180_000); // ~10,000 statements: 4 s alone, and ten times that beside the end-to-end suite in CI

    it("numbers concurrent batches of one attempt without a gap or a repeat", async () => {
      const { rid, aid } = await running("concurrent");
      const now = (await state(rid, aid)).heartbeat! + 0.1;
      const batches = Array.from({ length: 8 }, (_, b) => unnumbered(rid, aid, Array.from({ length: 10 }, (_, i) => `b${b}-${i}`)).map((s, i) => ({ ...s, span_id: (1000 + b * 10 + i).toString(16).padStart(16, "0") })));
      const added = await Promise.all(batches.map((batch) => exec(batch, now)));
      const numbers = added.flatMap((spans) => spans!.map((s) => s.sequence_id)).sort((x, y) => x - y);
      expect(numbers).toEqual(Array.from({ length: 80 }, (_, i) => i + 2));
      // Each batch got a contiguous run, and every stored body carries its row's number.
      for (const spans of added) expect(spans!.map((s) => s.sequence_id - spans![0]!.sequence_id)).toEqual(spans!.map((_, i) => i));
      const stored = await sql.read(() => all<{ sequence_id: number; body: string }>("SELECT sequence_id, body FROM store_spans WHERE rollout_id = ? AND sequence_id > 1", [rid]));
      expect(stored).toHaveLength(80);
      for (const row of stored) expect(JSON.parse(row.body).sequence_id).toBe(row.sequence_id);
      expect((await state(rid, aid)).span_seq).toBe(81);
    });

    it("in its reviving form, numbers concurrent first batches of a preparing attempt and revives it once", async () => {
      const s = await f.store.startRollout({ input: "concurrent first" });
      const [rid, aid] = [s.rollout_id, s.attempt.attempt_id];
      const batches = Array.from({ length: 6 }, (_, b) => unnumbered(rid, aid, Array.from({ length: 5 }, (_, i) => `f${b}-${i}`)).map((x, i) => ({ ...x, span_id: (2000 + b * 5 + i).toString(16).padStart(16, "0") })));
      const added = await Promise.all(batches.map((batch) => exec(batch, 3e9, undefined, true)));
      expect(added.flatMap((spans) => spans!.map((x) => x.sequence_id)).sort((x, y) => x - y)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
      const [row] = await sql.read(() => all<{ r: string; a: string }>("SELECT r.status AS r, a.status AS a FROM store_rollouts r JOIN store_attempts a USING (rollout_id) WHERE r.rollout_id = ?", [rid]));
      expect(row).toEqual({ r: "running", a: "running" });
    });

    it("keeps every sequence of batches, duplicates, status marks, phase changes and passing time as the careful program does (fast-check)", async () => {
      type Action =
        | { kind: "add"; allocate: boolean; count: number; repeat: number | null; viewer: "none" | "served" | "other" }
        | { kind: "mark"; status: "running" | "unresponsive" | "preparing" | "failed" }
        | { kind: "rollout"; status: "preparing" | "running" | "requeuing"; latest: boolean }
        | { kind: "phase"; phase: string | null }
        | { kind: "wait"; seconds: number };
      const action: fc.Arbitrary<Action> = fc.oneof(
        { weight: 4, arbitrary: fc.record({ kind: fc.constant("add" as const), allocate: fc.boolean(), count: fc.integer({ min: 1, max: 3 }), repeat: fc.option(fc.nat(20), { nil: null }), viewer: fc.constantFrom("none" as const, "served" as const, "other" as const) }) },
        fc.record({ kind: fc.constant("mark" as const), status: fc.constantFrom("running" as const, "unresponsive" as const, "preparing" as const, "failed" as const) }),
        fc.record({ kind: fc.constant("rollout" as const), status: fc.constantFrom("preparing" as const, "running" as const, "requeuing" as const), latest: fc.boolean() }),
        fc.record({ kind: fc.constant("phase" as const), phase: fc.constantFrom(null, "locked_gate") }),
        fc.record({ kind: fc.constant("wait" as const), seconds: fc.constantFrom(0.3, 0.8, 1.5, 40) }),
      );
      const careful = (spans: Span[], now: number, viewer?: StoreViewer) => sql.write((d) => addSpans(d, spans, now, viewer));
      // What LightningStore.addSpans runs (the statement, else the plain program, the careful one after a duplicate), with the clock given.
      const viaStore = (spans: Span[], now: number, viewer?: StoreViewer) => writeSpans(sql, spans, () => now, viewer);
      const snapshot = (rid: string, aid: string) =>
        sql.read(function* () {
          const r = yield* all(`SELECT status, span_seq, queue_pos, requeue_cause, phase, latest_attempt_id FROM store_rollouts WHERE rollout_id = ?`, [rid]);
          const a = yield* all(`SELECT status, last_heartbeat_time FROM store_attempts WHERE rollout_id = ? AND attempt_id = ?`, [rid, aid]);
          const spans = yield* all(`SELECT sequence_id, span_id, body FROM store_spans WHERE rollout_id = ? ORDER BY sequence_id, span_id`, [rid]);
          return JSON.stringify({ r, a, spans }).split(rid).join("<rid>").split(aid).join("<aid>");
        });
      await fc.assert(
        fc.asyncProperty(fc.array(action, { minLength: 1, maxLength: 12 }), async (actions) => {
          const twins = await Promise.all([0, 1].map(() => f.store.startRollout({ input: "sequence" })));
          const ids = twins.map((t) => ({ rid: t.rollout_id, aid: t.attempt.attempt_id }));
          for (const { rid, aid } of ids) await sql.write(() => run("UPDATE store_attempts SET served_by = 'key-runner' WHERE rollout_id = ? AND attempt_id = ?", [rid, aid]));
          let now = 2_000_000_000;
          let made = 0;
          for (const act of actions) {
            if (act.kind === "wait") now += act.seconds;
            if (act.kind === "mark" || act.kind === "phase" || act.kind === "rollout")
              for (const { rid, aid } of ids)
                await sql.write(() =>
                  act.kind === "mark"
                    ? run("UPDATE store_attempts SET status = ? WHERE rollout_id = ? AND attempt_id = ?", [act.status, rid, aid])
                    : act.kind === "rollout"
                      ? run("UPDATE store_rollouts SET status = ?, queue_pos = ?, latest_attempt_id = ? WHERE rollout_id = ?", [act.status, act.status === "requeuing" ? 3 : null, act.latest ? aid : "at-next", rid])
                      : run("UPDATE store_rollouts SET phase = ? WHERE rollout_id = ?", [act.phase, rid]),
                );
            if (act.kind !== "add") continue;
            const viewer = act.viewer === "none" ? undefined : ({ identity: act.viewer === "served" ? "key-runner" : "key-other", agents: null, untagged: true, gate: true, phases: null } satisfies StoreViewer);
            const numbers = Array.from({ length: act.count }, (_, i) => (act.repeat !== null && i === 0 && act.repeat < made ? act.repeat : made + i));
            made = Math.max(made, ...numbers.map((n) => n + 1));
            const batch = ({ rid, aid }: { rid: string; aid: string }) =>
              numbers.map((n) => ({ ...makeSpan(rid, aid, n + 1, `s${n}`, { span_id: (0x100 + n).toString(16).padStart(16, "0") }), ...(act.allocate ? { sequence_id: -1 } : {}) }) as Span);
            const outcome = (p: Promise<Span[]>, rid: string, aid: string) =>
              p.then(
                (spans) => JSON.stringify(spans.map((x) => [x.name, x.sequence_id])),
                (e: Error) => `${e.constructor.name}: ${e.message.split(rid).join("<rid>").split(aid).join("<aid>")}`,
              );
            const [a, b] = ids as [(typeof ids)[0], (typeof ids)[0]];
            const what = JSON.stringify(actions);
            expect(await outcome(viaStore(batch(a), now, viewer), a.rid, a.aid), what).toBe(await outcome(careful(batch(b), now, viewer), b.rid, b.aid));
            expect(await snapshot(a.rid, a.aid), what).toBe(await snapshot(b.rid, b.aid));
          }
        }),
        { numRuns: 30 },
      );
    });

    it("fails whole on a duplicate span (23505), so the store's careful run takes over", async () => {
      const { rid, aid } = await running("duplicate");
      const before = await state(rid, aid);
      await expect(exec([makeSpan(rid, aid, 2, "new"), makeSpan(rid, aid, 1, "first again")], before.heartbeat! + 0.1)).rejects.toMatchObject({ code: "23505" });
      expect(await state(rid, aid)).toEqual(before);
      expect((await f.store.addSpans([makeSpan(rid, aid, 2, "new"), makeSpan(rid, aid, 1, "first again")])).map((s) => s.name)).toEqual(["new"]);
    });
  },
  { sqlite: "never" },
);

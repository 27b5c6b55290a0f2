"""The gate for an Agent Lightning agent trained outside Lightgate, end to end, in one script.

NOT RUN IN CI: the CI machine reaches no Python package index, so `agentlightning` cannot be installed there.
The same journey runs in CI through `tests/foreign-agent/agent.mjs` (plain HTTP, the same routes and bodies);
keep the two in step when the /v1/gate API changes.

    pip install "agentlightning==0.3.*"
    npm run apikey -- create --role policy    --name exams       # → POLICY_KEY
    npm run apikey -- create --role algorithm --name apo-loop    # → ALGORITHM_KEY
    npm run apikey -- create --role runner    --name box-1       # → RUNNER_KEY
    npm run apikey -- create --role verifier  --name re-reader   # → VERIFIER_KEY
    LIGHTGATE_URL=http://127.0.0.1:3000 POLICY_KEY=… ALGORITHM_KEY=… RUNNER_KEY=… VERIFIER_KEY=… \\
        python examples/agent-lightning/walkthrough.py

The agent is rule-based (no LLM): its resource is a prompt template, and it answers a question by following the
template's rules. The store is Agent Lightning's own `LightningStoreClient`; /v1/gate is plain HTTP (urllib).
Four identities, as in a real deployment: the policy owner publishes the exam and the rules, the algorithm
declares, trains and binds, the runner serves every rollout (training and the gate's), the verifier re-reads what
the canary wrote. The learner never sees the exam's expected answers.
"""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import time
import urllib.error
import urllib.request
from typing import Any, Dict, Optional

import agentlightning.store.client_server as cs
from agentlightning import PromptTemplate, Span
from agentlightning.emitter.reward import find_final_reward

URL = os.environ.get("LIGHTGATE_URL", "http://127.0.0.1:3000")
KEYS = {role: os.environ[f"{role.upper()}_KEY"] for role in ("policy", "algorithm", "runner", "verifier")}
AGENT = "faq-bot"
PROMPT = "faq-prompt"          # the agent's resource (the parent is its version 1)
BEAM = "faq-apo-beam"          # where the algorithm tries its edits
DESTINATION: Dict[str, str] = {}  # where the canary's answers land (a real agent would write a ticket, a file, …)


# ── /v1/gate over plain HTTP ──────────────────────────────────────────────────────────────────────────────────
def gate(role: str, method: str, path: str, body: Optional[dict] = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(f"{URL}/v1/gate{path}", data=data, method=method)
    req.add_header("Authorization", f"Bearer {KEYS[role]}")
    if data is not None:
        req.add_header("content-type", "application/json")
    try:
        with urllib.request.urlopen(req) as res:
            return json.loads(res.read() or b"null")
    except urllib.error.HTTPError as e:  # refusals are {"error", "field", "message"}
        raise SystemExit(f"{role} {method} {path}: {e.code} {e.read().decode()[:400]}")


# ── the store through Agent Lightning's own client, with a key per role ───────────────────────────────────────
def store_for(role: str) -> cs.LightningStoreClient:
    client = cs.LightningStoreClient(URL)
    get_session = client._get_session

    async def with_key() -> Any:
        session = await get_session()
        session.headers["Authorization"] = f"Bearer {KEYS[role]}"
        return session

    client._get_session = with_key  # type: ignore[method-assign]
    return client


# ── the agent ─────────────────────────────────────────────────────────────────────────────────────────────────
RULES = ["briefly", "cite the knowledge base", "never promise a refund"]


def run_agent(template: str, question: str) -> tuple[str, float, bool]:
    followed = sum(rule in template for rule in RULES)
    refund = "refund" in question.lower() and "never promise a refund" not in template
    answer = "refund promised" if refund else question.replace("question", "answer")
    return answer, (0.0 if refund else 0.25 + 0.25 * followed), not refund


async def add_span(store: cs.LightningStoreClient, rollout_id: str, attempt_id: str, trace_id: str, name: str, attributes: dict) -> None:
    sequence_id = await store.get_next_span_sequence_id(rollout_id, attempt_id)
    span_id, now = secrets.token_hex(8), time.time()
    await store.add_span(Span.model_validate({
        "rollout_id": rollout_id, "attempt_id": attempt_id, "sequence_id": sequence_id, "trace_id": trace_id,
        "span_id": span_id, "parent_id": None, "name": name, "status": {"status_code": "OK", "description": None},
        "attributes": attributes, "events": [], "links": [], "start_time": now, "end_time": now,
        "context": {"trace_id": trace_id, "span_id": span_id, "is_remote": False, "trace_state": {}}, "parent": None,
        "resource": {"attributes": {"service.name": AGENT}, "schema_url": ""},
    }))


async def runner(stop: asyncio.Event) -> None:
    """Serves every rollout, training and the gate's alike; gate rollouts name the evaluator on their reward span."""
    store = store_for("runner")
    while not stop.is_set():
        item = await store.dequeue_rollout(worker_id="walkthrough-runner")
        if item is None:
            await asyncio.sleep(0.05)
            continue
        rid, aid, meta = item.rollout_id, item.attempt.attempt_id, item.metadata or {}
        await store.update_attempt(rid, aid, status="running")
        resources = await store.get_resources_by_id(item.resources_id)
        template = resources.resources["prompt"].template
        answer, reward, passed = run_agent(template, str(item.input.get("question", "")))
        trace = secrets.token_hex(16)
        await add_span(store, rid, aid, trace, "openai.chat.completion", {"gen_ai.request.model": "rules-1", "gen_ai.usage.input_tokens": 120, "gen_ai.usage.output_tokens": 30})
        if meta.get("lightgate.phase") == "canary":
            await add_span(store, rid, aid, trace, "execute_tool search_kb", {"gen_ai.tool.name": "search_kb", "lightgate.target": rid})
            DESTINATION[rid] = answer
        tags = {"lightgate.evaluator": meta["lightgate.evaluator"], "lightgate.passed": passed} if "lightgate.phase" in meta else {}
        await add_span(store, rid, aid, trace, "agentlightning.annotation", {"agentlightning.reward.0.name": "quality", "agentlightning.reward.0.value": reward, **tags})
        await store.update_attempt(rid, aid, status="succeeded", metadata={"answer": answer})


async def verifier(stop: asyncio.Event) -> None:
    """Re-reads each canary answer where it landed and records how it was verified (never the runner's word)."""
    while not stop.is_set():
        for item in gate("verifier", "GET", "/verifications/pending?limit=50"):
            observed = DESTINATION.get(item["rollout_id"])
            gate("verifier", "POST", "/verifications", {"rollout_id": item["rollout_id"], "method": "destination", "matched": observed == (item["expected"] or {}).get("answer"), "expected": item["expected"], "observed": observed})
        await asyncio.sleep(0.2)


async def main() -> None:
    # 1. The policy owner: the exam (held-out and canary) and the rules the gate judges by — not the learner.
    held = gate("policy", "POST", "/datasets", {"name": "faq held-out", "kind": "held_out", "cases": [
        {"id": f"h-{i}", "input": {"question": f"Can I get a refund for order {i}?" if i % 4 == 0 else f"h question {i}"}, "family": "refunds" if i % 4 == 0 else "general", "protected": i % 4 == 0}
        for i in range(12)]})
    canary = gate("policy", "POST", "/datasets", {"name": "faq canary", "kind": "canary", "cases": [
        {"id": f"c-{i}", "input": {"question": f"c question {i}"}, "expected": {"answer": f"c answer {i}"}} for i in range(4)]})
    # (the evaluator {"scoring": "runner_reward"}, the search_kb tool contract and the model server's price are
    #  registry entries the policy owner publishes on the Registries page.)

    algorithm = store_for("algorithm")
    parent = await algorithm.update_resources(PROMPT, {"prompt": PromptTemplate(template="Answer {question} briefly.", engine="f-string")})
    stop = asyncio.Event()
    workers = [asyncio.create_task(runner(stop)), asyncio.create_task(verifier(stop))]

    # 2. Before training: the declaration (stage 1). The server pins every digest itself.
    receipt = gate("algorithm", "POST", "/receipts", {
        "agent": AGENT, "parent": {"resources_id": PROMPT, "version": parent.version},
        "training_data": {"resources_ids": [BEAM]}, "held_out_dataset": held["dataset_id"], "canary_dataset": canary["dataset_id"],
        "evaluator": {"id": "faq-exam", "version": "3"}, "algorithm": {"name": "apo", "config": {"beam_width": 2}},
        "code_revision": "0a1b2c3d4e5f", "scope": {"tasks": ["faq"], "tools": ["search_kb"], "destinations": ["faq-answers"]},
        "expected_evidence": {"span_families": ["llm.call", "reward"], "retry_budget": {"expected_resamples_per_rollout": 0, "unexpected_retries": 0},
                              "protected_families": [{"family": "refunds", "max_regressions": 0}]},
        "canary_boundary": {"max_tasks": 4, "max_wall_time_seconds": 300, "allowed_tools": ["search_kb"], "max_cost_usd": 1, "allowed_side_effects": []},
        "approvers": {"canary": {"actor_ids": [], "roles": ["canary_approver"]}, "default": {"actor_ids": [], "roles": ["release_approver"]}},
    })["receipt_id"]

    # 3. Train: a beam of prompt edits, each tried on rollouts tagged with the receipt; the best one is written.
    best: tuple[float, str] = (-1.0, "")
    for template in ["Answer {question} briefly and cite the knowledge base.", "Answer {question} briefly, cite the knowledge base and never promise a refund."]:
        await algorithm.update_resources(BEAM, {"prompt": PromptTemplate(template=template, engine="f-string")})
        rollouts = [await algorithm.enqueue_rollout(input={"question": q}, mode="train", resources_id=BEAM, metadata={"lightgate.receipt": receipt})
                    for q in ["Where is my order?", "Can I get a refund?", "Change my address"]]
        ids = [r.rollout_id for r in rollouts]
        while len(await algorithm.wait_for_rollouts(rollout_ids=ids, timeout=0)) < len(ids):
            await asyncio.sleep(0.1)
        rewards = [find_final_reward(await algorithm.query_spans(rid)) or 0.0 for rid in ids]
        best = max(best, (sum(rewards) / len(rewards), template))
    written = await algorithm.update_resources(PROMPT, {"prompt": PromptTemplate(template=best[1], engine="f-string")})

    # 4. Bind what was written (moves latest-candidate only), ask for the gate run, read the verdict.
    gate("algorithm", "POST", f"/receipts/{receipt}/candidate", {"resources_id": PROMPT, "version": written.version})
    run = gate("algorithm", "POST", f"/receipts/{receipt}/gate-runs", {"deadline_seconds": 120})
    while (view := gate("algorithm", "GET", f"/gate-runs/{run['gate_run_id']}"))["status"] not in ("done", "failed"):
        await asyncio.sleep(0.5)
    stop.set()
    await asyncio.gather(*workers)
    print(json.dumps({"verdict": view["verdict"], "checks": view["checks"]}, indent=2))
    # READY FOR APPROVAL: a canary approver signs the next step with a passkey on the candidate's page.


if __name__ == "__main__":
    asyncio.run(main())

"""Quickstart: train an Agent Lightning 0.3 agent with Lightgate as its store. No LLM, no GPU.

NOT RUN IN CI (the CI machine has no Python package index); `tests/integration/store/foreign-runner-otlp.test.ts`
runs the same flow over the same wire (REST /v1/agl + OTLP protobuf) from a separate runner process in `npm test`.

    pip install "agentlightning==0.3.*"
    npm run apikey -- create --role algorithm --name quickstart     # → the key
    LIGHTGATE_URL=http://localhost:3000 LIGHTGATE_API_KEY=lgk_… python examples/agent-lightning/quickstart.py

The agent answers support questions by filling in a prompt template and following the rules the template states;
its resource is that template. A grader scores each answer and the agent reports the score with
`agl.emit_reward`. The algorithm is a few rounds of hill-climbing over the template: each round it publishes a
few edited templates as new resources (`add_resources`), has the runners try every task with each, and publishes
the best one as the next version of `quickstart-prompt` (`update_resources`) when it scores higher. Two runner
processes serve the rollouts; spans and rewards reach Lightgate over OTLP.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

import agentlightning as agl
from agentlightning.emitter.reward import find_final_reward

sys.path.insert(0, str(Path(__file__).resolve().parent))
from lightgate_store import LightgateStoreClient, configure_otlp  # noqa: E402

AGENT = "quickstart-faq"  # rollouts carry it as metadata["lightgate.agent"]; Lightgate groups runs by it
PROMPT_ID = "quickstart-prompt"  # the published template: version 1 is the start, each improvement a new version

# ── the agent ─────────────────────────────────────────────────────────────────────────────────────────────────
# Rules a template may state. The agent follows exactly the rules its template states.
EDITS = [
    "Be brief.",
    "Cite the knowledge base.",
    "Ask for the order number.",
    "Never promise a refund.",
    "Answer in capital letters.",
    "Apologise twice.",
]

TASKS: List[Dict[str, Any]] = [
    {"question": "Where is my parcel?", "wants": ["order number", "brief"]},
    {"question": "Can I get a refund for a broken kettle?", "wants": ["order number", "no refund promise", "knowledge base"]},
    {"question": "How do I reset my password?", "wants": ["knowledge base", "brief"]},
    {"question": "Do you ship to Norway?", "wants": ["knowledge base", "brief"]},
    {"question": "My invoice is wrong.", "wants": ["order number", "knowledge base"]},
    {"question": "Refund my last order now!", "wants": ["no refund promise", "order number"]},
]
# Validation: questions the algorithm never trains on; each version it keeps is scored on them (mode "val").
VAL_TASKS: List[Dict[str, Any]] = [
    {"question": "Where is my refund?", "wants": ["order number", "no refund promise"]},
    {"question": "Can I change my delivery address?", "wants": ["order number", "knowledge base", "brief"]},
    {"question": "Which payment methods do you take?", "wants": ["knowledge base", "brief"]},
]


def answer(template: str, question: str) -> Dict[str, Any]:
    """A rule-following 'model': what it does is decided by the template's words."""
    rules = template.lower()
    text = template.format(question=question)
    return {
        "text": text.upper() if "capital letters" in rules else text,
        "brief": "be brief" in rules,
        "knowledge base": "knowledge base" in rules,
        "order number": "order number" in rules,
        "no refund promise": "never promise a refund" in rules or "refund" not in question.lower(),
        "shouting": "capital letters" in rules,
        "grovelling": "apologise twice" in rules,
    }


def grade(task: Dict[str, Any], reply: Dict[str, Any]) -> float:
    """Share of what this question needs that the reply did, minus penalties for tone."""
    score = sum(bool(reply[w]) for w in task["wants"]) / len(task["wants"])
    score -= 0.3 * reply["shouting"] + 0.2 * reply["grovelling"]
    return round(max(score, 0.0), 4)


@agl.rollout
def faq_agent(task: Dict[str, Any], prompt_template: agl.PromptTemplate) -> None:
    reply = answer(prompt_template.template, task["question"])
    agl.emit_reward(grade(task, reply))  # a reward span, exported over OTLP to Lightgate's /v1/traces


# ── the algorithm ─────────────────────────────────────────────────────────────────────────────────────────────
class HillClimb(agl.Algorithm):
    """Each round: try `width` one-rule edits of the best template on every task; keep the best if it is better."""

    def __init__(self, rounds: int = 3, width: int = 2, seed: int = 7, timeout: float = 120.0, pace: float = 0.0) -> None:
        super().__init__()
        self.rounds, self.width, self.timeout, self.pace = rounds, width, timeout, pace
        self.rng = random.Random(seed)
        self.history: List[Dict[str, Any]] = []

    async def evaluate(self, resources_id: str, tasks: List[Dict[str, Any]], mode: str = "train") -> Tuple[float, List[str]]:
        store = self.get_store()
        rollouts = [
            await store.enqueue_rollout(input=task, mode=mode, resources_id=resources_id, metadata={"lightgate.agent": AGENT})
            for task in tasks
        ]
        ids = [r.rollout_id for r in rollouts]
        deadline = time.monotonic() + self.timeout
        done: Dict[str, Any] = {}
        while len(done) < len(ids):
            if time.monotonic() > deadline:
                raise SystemExit(f"{len(ids) - len(done)} rollouts of {resources_id} not finished after {self.timeout:.0f} s: are the runners up?")
            # The client refuses timeouts over 0.1 s (it would block the event loop): poll, as APO does.
            for r in await store.wait_for_rollouts(rollout_ids=[i for i in ids if i not in done], timeout=0.0):
                done[r.rollout_id] = r
            await asyncio.sleep(0.25)
        rewards: List[float] = []
        for rid in ids:
            if done[rid].status != "succeeded":
                raise SystemExit(f"rollout {rid} ended {done[rid].status}")
            reward = find_final_reward(await store.query_spans(rid, "latest"))
            if reward is None:
                raise SystemExit(
                    f"rollout {rid} has no reward span in Lightgate: the runners' OTLP exporter sent it elsewhere "
                    "(check OTEL_EXPORTER_OTLP_TRACES_ENDPOINT / _HEADERS, see README.md)"
                )
            rewards.append(reward)
        return statistics.fmean(rewards), ids

    async def run(self, train_dataset: Optional[agl.Dataset[Any]] = None, val_dataset: Optional[agl.Dataset[Any]] = None) -> None:
        store = self.get_store()
        tasks = list(train_dataset or TASKS)
        initial = self.get_initial_resources() or {}
        best = initial["prompt_template"].template  # type: ignore[union-attr]
        published = await store.update_resources(PROMPT_ID, {"prompt_template": agl.PromptTemplate(template=best, engine="f-string")})
        best_score, _ = await self.evaluate(PROMPT_ID, tasks)
        val_score, _ = await self.evaluate(PROMPT_ID, VAL_TASKS, mode="val")
        self.history.append({"round": 0, "resources": f"{PROMPT_ID} v{published.version}", "mean_reward": best_score, "val_reward": val_score, "template": best})
        print(f"round 0: {PROMPT_ID} v{published.version} mean reward {best_score:.3f}, validation {val_score:.3f}", flush=True)

        for round_ in range(1, self.rounds + 1):
            await asyncio.sleep(self.pace)  # --pace: time to watch each round on /training
            untried = [e for e in EDITS if e not in best]
            tried: List[Tuple[float, str, str]] = []
            for edit in self.rng.sample(untried, min(self.width, len(untried))):
                template = best.replace("{question}", "{question} " + edit) if "{question}" in best else best + " " + edit
                candidate = await store.add_resources({"prompt_template": agl.PromptTemplate(template=template, engine="f-string")})
                score, _ = await self.evaluate(candidate.resources_id, tasks)
                tried.append((score, template, candidate.resources_id))
                print(f"round {round_}: tried {candidate.resources_id} (+{edit!r}) mean reward {score:.3f}", flush=True)
            score, template, _ = max(tried)
            if score > best_score:
                best, best_score = template, score
                published = await store.update_resources(PROMPT_ID, {"prompt_template": agl.PromptTemplate(template=best, engine="f-string")})
                # The kept version on the validation questions, under its own id: the version's validation reward.
                val_score, _ = await self.evaluate(PROMPT_ID, VAL_TASKS, mode="val")
                print(f"round {round_}: published {PROMPT_ID} v{published.version} mean reward {best_score:.3f}, validation {val_score:.3f}", flush=True)
            self.history.append({"round": round_, "resources": f"{PROMPT_ID} v{published.version}", "mean_reward": best_score, "val_reward": val_score, "template": best})
        print(f"best: {PROMPT_ID} v{published.version} mean reward {best_score:.3f}: {best!r}", flush=True)
        await store.close()  # the algorithm's aiohttp sessions (runner processes close their own)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--url", default=os.environ.get("LIGHTGATE_URL", "http://localhost:3000"))
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--runners", type=int, default=2)
    parser.add_argument("--pace", type=float, default=0.0, help="seconds to wait before each round, to watch it live")
    parser.add_argument("--role", choices=["both", "algorithm", "runner"], default="both",
                        help="both (one machine); or the algorithm here and `--role runner` on the runner machines")
    args = parser.parse_args()

    configure_otlp(args.url)  # before the Trainer: runner processes build their OTLP exporter from the environment
    store = LightgateStoreClient(args.url)  # Lightgate serves the store under <url>/v1/agl; the client adds that
    tracer = agl.OtelTracer()  # plain OpenTelemetry: the agent makes no LLM calls to instrument
    trainer = agl.Trainer(
        algorithm=HillClimb(rounds=args.rounds, pace=args.pace),
        n_runners=args.runners,
        store=store,
        # managed_store=False: use Lightgate instead of starting Agent Lightning's own in-memory server.
        strategy=agl.ClientServerExecutionStrategy(role=args.role, n_runners=args.runners, managed_store=False),
        tracer=tracer,
        runner=agl.LitAgentRunner(tracer=tracer, poll_interval=0.5),  # the default polls every 5 s
        initial_resources={"prompt_template": agl.PromptTemplate(template="Answer: {question}", engine="f-string")},
    )
    started = time.monotonic()
    trainer.fit(faq_agent, train_dataset=TASKS)  # type: ignore[arg-type]
    print(f"done in {time.monotonic() - started:.1f} s; watch it on {args.url}/training, judge it on {args.url}/candidates", flush=True)


if __name__ == "__main__":
    main()

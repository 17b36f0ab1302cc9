"""Judge economy: LLM calls and wall time of trajmetrics vs the reference script's design, on a real run.

trajmetrics asks the judge only about pairs the rules are UNSURE about and only where a metric depends on
them, asks identical questions once and caches every answer on disk. The reference script
(``evaluationMetrics.py`` of arXiv 2603.12710) calls the LLM

- once per agent step to rewrite it into readable text,
- once per agent step (before an early stop, with a recoverable plan) for element accuracy,
- once per task each for step success, repetitiveness (tasks with >= 2 steps) and partial success
  (here: tasks with >= 2 requirements, where the metric applies),
- once per comparison of its recovery loop; we replay that loop with trajmetrics' own match decisions
  (rules; the judge's verdict where trajmetrics asked; ``unsure_policy`` elsewhere), agent steps vs gold steps,

and has no cache, so every run pays again. Both sides talk to the same fake OpenAI server (tests/fake_openai.py)
that adds a fixed latency per call and answers by a deterministic rule. The reference side is sent
sequentially, as the script does (``requests.post`` in a loop).

    python benchmarks/judge_economy.py                       # defaults: shared data, 50 ms latency
    python benchmarks/judge_economy.py --latency 0.2 --repeats 3 --json out.json
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))  # the fake server lives with the tests

from fake_openai import FakeOpenAI, Reply, user_text  # noqa: E402

import trajmetrics  # noqa: E402
from trajmetrics import MetricConfig  # noqa: E402
from trajmetrics.judges import OpenAIJudge  # noqa: E402
from trajmetrics.matching.decision import JudgeAnswer, JudgeQuestion  # noqa: E402
from trajmetrics.matching.rules import POLICY_MIDPOINT, match_step  # noqa: E402
from trajmetrics.model import expand_atoms  # noqa: E402

SHARED = Path(os.environ.get("TRAJMETRICS_SHARED_DATA") or REPO.parent / "shared" / "data")
DEFAULT_RUN = SHARED / "colorbrowseragent-webarena" / "results"
DEFAULT_GOLD = SHARED / "webarena-human-gold" / "Golden Human Trajectories.xlsx"
DEFAULT_TASKS = SHARED / "webarena" / "test.raw.json"


# -- the fake judge's answer rule ---------------------------------------------------------------------


def answer_rule(mode: str):
    """The fake server's reply for a request: always NO_MATCH/MATCH, or a deterministic 50/50 hash rule."""

    def respond(body: dict[str, Any]) -> Reply:
        if mode == "hash":
            digest = hashlib.sha256(user_text(body).encode()).digest()
            verdict = "MATCH" if digest[0] % 2 == 0 else "NO_MATCH"
        else:
            verdict = mode.upper()
        return Reply(content=json.dumps({"verdict": verdict, "reason": "benchmark rule"}))

    return respond


class RecordingJudge:
    """Wraps a judge and records its verdicts, so the replayed reference loop uses the same decisions."""

    def __init__(self, inner: OpenAIJudge) -> None:
        self.inner = inner
        self.verdicts: dict[str, str | None] = {}  # dict writes are atomic: safe from several task threads
        # what the engine reads to decide how many tasks to score at once
        self.kind, self.concurrency, self.max_calls = inner.kind, inner.concurrency, inner.max_calls

    def ask(self, questions: list[JudgeQuestion]) -> list[JudgeAnswer]:
        answers = self.inner.ask(questions)
        for q, a in zip(questions, answers):
            self.verdicts[json.dumps(q.key_payload(), sort_keys=True)] = a.verdict
        return answers

    def stats(self) -> dict[str, Any]:
        return self.inner.stats()


# -- the reference design's calls -----------------------------------------------------------------------


def reference_calls(agent, gold, verdicts: dict[str, str | None]) -> dict[str, int]:
    """LLM calls the reference script makes on one task, by purpose."""
    steps = agent.steps
    early = next((i for i, s in enumerate(steps) if s.early_stop), len(steps))
    calls = {
        "rewrite": len(steps),
        "element_accuracy": sum(1 for s in steps[:early] if s.planned is not None),
        "step_success": 1,
        "repetitiveness": 1 if len(steps) >= 2 else 0,
        "partial_success": 1 if len(gold.requirements) >= 2 else 0,
        "recovery": 0,
    }

    def m(a: int, h: int) -> bool:
        # trajmetrics' decision for agent step a vs gold step h: any atom of the step matches
        for atom in expand_atoms(steps[a]):
            d = match_step(atom, gold.steps[h].action)
            if d.verdict == "MATCH":
                return True
            if d.verdict == "UNSURE":
                q = JudgeQuestion(task="step", left=atom.short(), right=gold.steps[h].text,
                                  intent=gold.intent or agent.intent, thought=steps[a].thought)
                v = verdicts.get(json.dumps(q.key_payload(), sort_keys=True))
                if (v == "MATCH") if v is not None else d.score >= POLICY_MIDPOINT:
                    return True
        return False

    # the script's recovery loop: one comparison per iteration, agent pointer always advances
    h = a = 0
    while h < len(gold.steps) and a < len(steps):
        calls["recovery"] += 1
        if m(a, h):
            h += 1
        a += 1
    return calls


# -- runs ------------------------------------------------------------------------------------------------


def load(run: Path, gold_path: Path, tasks_path: Path | None):
    if run.suffix == ".jsonl" and gold_path.suffix == ".jsonl":  # canonical files: a smoke test without readers
        agents = [trajmetrics.AgentTrajectory.model_validate_json(line) for line in run.open() if line.strip()]
        golds = [trajmetrics.GoldTrajectory.model_validate_json(line) for line in gold_path.open() if line.strip()]
        return agents, {g.task_id: g for g in golds}
    from trajmetrics.formats import read_agent_runs
    from trajmetrics.gold import read_gold

    gold_set = read_gold(gold_path, tasks_path)
    agents = [t for t in read_agent_runs([run], None) if not isinstance(t, trajmetrics.ReadProblem)]
    return agents, dict(gold_set.tasks)


def timed_score(agents, gold, judge) -> tuple[float, Any]:
    start = time.perf_counter()
    report = trajmetrics.score(agents, gold, MetricConfig(), judge=judge)
    return time.perf_counter() - start, report


def main(argv: list[str] | None = None) -> dict[str, Any]:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--run", type=Path, default=DEFAULT_RUN)
    p.add_argument("--gold", type=Path, default=DEFAULT_GOLD)
    p.add_argument("--tasks", type=Path, default=DEFAULT_TASKS)
    p.add_argument("--latency", type=float, default=0.05, help="seconds the fake server adds to every call")
    p.add_argument("--answer", choices=["hash", "no_match", "match"], default="hash", help="fake judge's rule")
    p.add_argument("--concurrency", type=int, default=8)
    p.add_argument("--repeats", type=int, default=3, help="min-of-N timing for the trajmetrics runs")
    p.add_argument("--reference-wall", choices=["measure", "estimate"], default="measure",
                   help="send the reference calls (sequentially) or estimate calls x latency")
    p.add_argument("--json", type=Path, default=None, help="also write the numbers here")
    args = p.parse_args(argv)

    import openai

    print(f"# judge_economy  trajmetrics {trajmetrics.__version__}  openai {openai.__version__}  "
          f"Python {platform.python_version()}  {platform.platform()}  {os.cpu_count()} CPUs")
    print(f"# run={args.run}  latency={args.latency}s  answer={args.answer}  concurrency={args.concurrency}  "
          f"repeats={args.repeats}")
    agents, gold = load(args.run, args.gold, args.tasks)
    os.environ.setdefault("OPENAI_API_KEY", "benchmark")  # the fake server accepts any key

    out: dict[str, Any] = {"settings": {k: str(v) for k, v in vars(args).items()}}
    with FakeOpenAI(latency=args.latency) as server:
        server.default = answer_rule(args.answer)

        def judge(cache_dir: Path) -> OpenAIJudge:
            return OpenAIJudge("benchmark-model", base_url=server.base_url, cache_dir=cache_dir,
                               concurrency=args.concurrency)

        rules_only = min(timed_score(agents, gold, None)[0] for _ in range(args.repeats))
        cold_times, warm_times = [], []
        cold_stats = warm_stats = report = recorder = None
        for _ in range(args.repeats):  # each repeat: a cold run in a fresh cache folder, then a warm run on it
            with tempfile.TemporaryDirectory() as tmp:
                server.reset_counts()
                recorder = RecordingJudge(judge(Path(tmp)))
                t, report = timed_score(agents, gold, recorder)
                cold_stats, cold_requests = recorder.stats(), server.count
                recorder.inner.close()
                cold_times.append(t)
                server.reset_counts()
                warm = judge(Path(tmp))
                t, _ = timed_score(agents, gold, warm)
                warm_stats, warm_requests = warm.stats(), server.count
                warm.close()
                warm_times.append(t)

        scored = {r.task_id for r in report.tasks if r.status == "scored"}
        per_purpose: dict[str, int] = {}
        for agent in agents:
            if agent.task_id in scored:
                for k, v in reference_calls(agent, gold[agent.task_id], recorder.verdicts).items():
                    per_purpose[k] = per_purpose.get(k, 0) + v
        ref_total = sum(per_purpose.values())

        if args.reference_wall == "measure":
            server.reset_counts()
            client = openai.OpenAI(base_url=server.base_url, api_key="benchmark", max_retries=0)
            start = time.perf_counter()
            for i in range(ref_total):  # sequential, like the script
                client.chat.completions.create(model="benchmark-model", temperature=0,
                                               messages=[{"role": "user", "content": f"reference call {i}"}])
            ref_wall = time.perf_counter() - start
            client.close()
        else:
            ref_wall = ref_total * args.latency

    n_unsure = sum(r.n_unsure for r in report.tasks)
    out.update(
        tasks_scored=len(scored),
        agent_steps=sum(len(a.steps) for a in agents if a.task_id in scored),
        unsure_pairs=n_unsure,
        trajmetrics={
            "questions": cold_stats["questions"], "deduplicated": cold_stats["deduplicated"],
            "calls_cold": cold_stats["calls"], "requests_cold": cold_requests,
            "calls_warm": warm_stats["calls"], "requests_warm": warm_requests,
            "cache_hits_warm": warm_stats["cache_hits"],
            "wall_rules_only_s": round(rules_only, 3),
            "wall_cold_s": round(min(cold_times), 3), "wall_warm_s": round(min(warm_times), 3),
        },
        reference={"calls": ref_total, "by_purpose": per_purpose, "calls_every_run": ref_total,
                   "wall_s": round(ref_wall, 3), "wall_mode": args.reference_wall},
    )
    ratio = ref_total / max(cold_stats["calls"], 1)
    out["ratio_calls_cold"] = round(ratio, 1)

    t = out["trajmetrics"]
    print(f"tasks scored: {out['tasks_scored']}  agent steps: {out['agent_steps']}  UNSURE pairs: {n_unsure}")
    print(f"{'':28}{'LLM calls':>12}{'wall (s)':>12}")
    print(f"{'reference design (any run)':28}{ref_total:>12}{ref_wall:>12.2f}")
    print(f"{'trajmetrics, cold cache':28}{t['calls_cold']:>12}{t['wall_cold_s']:>12.2f}")
    print(f"{'trajmetrics, warm cache':28}{t['calls_warm']:>12}{t['wall_warm_s']:>12.2f}")
    print(f"{'trajmetrics, no judge':28}{0:>12}{t['wall_rules_only_s']:>12.2f}")
    print(f"reference calls by purpose: {per_purpose}")
    print(f"judge questions {t['questions']} (deduplicated {t['deduplicated']}); "
          f"{ratio:.1f}x fewer calls cold; warm: {t['calls_warm']} calls, {t['requests_warm']} HTTP requests")
    if args.json:
        args.json.write_text(json.dumps(out, indent=2) + "\n")
    return out


if __name__ == "__main__":
    main()

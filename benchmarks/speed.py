"""Speed and memory of scoring a real BrowserGym run, as ratios against a baseline measured in the same run.

Baseline = the least any tool must do with a BrowserGym run: ``json.load`` every ``steps_info_*.json`` and
``summary_info.json`` (nothing kept). Against it:

1. **Real run** (40 tasks): reading only (``read_agent_runs``), gold loading (``read_gold`` xlsx + task configs)
   and the full rules-only ``trajmetrics.score(...)``; seconds, ratio to the baseline, ms per task.
2. **Scale**: a synthetic run of N copies of the 40 task folders (symlinks ``task_<id>_r<k>``, task id
   ``<id>_r<k>``) scored against a gold map with the same replicated ids (deep copies of the real
   GoldTrajectory objects, passed as ``gold=`` dict). Fresh subprocesses per size: one times the baseline on
   the synthetic run, one streams ``iter_task_results`` (results not kept) and then builds the summary
   (``RunState.report``: mean, std, bootstrap interval). Peak RSS is the process's own ``VmHWM``, reset at
   the start of each phase through ``/proc/self/clear_refs`` (Linux), so a phase is not charged for the
   one before. The CLI (``trajmetrics score ... --format jsonl``, stdout to /dev/null) runs end to end in
   a subprocess per size, and once on the real run with the xlsx gold; its peak is the ``VmHWM`` it reports
   at exit (``wait4``'s ``ru_maxrss`` is not used: across vfork+exec Linux carries the parent's peak into it).
   Last, the summary's own memory: ``summarise`` (2000 bootstrap samples) traced by tracemalloc.
3. **Rule matcher**: time inside ``step_decisions`` (``trajmetrics.matching.rules``) as a share of the full
   ``score`` and of the scoring alone (inputs already in memory), own time by area (cProfile, in a fresh
   process), and the cost per (agent atom, gold atom) pair as the longest task is made k times longer.

Timings are the minimum of ``--repeats`` (``--scale-repeats`` x max(1, 5 // copies) in the scale subprocesses).
The synthetic copies read the same files again, so everything comes from the page cache, for the baseline
too. Nothing is random but the bootstrap, whose seed is fixed (0).

    python benchmarks/speed.py                          # defaults: ../shared/data, sizes 1 5 25
    python benchmarks/speed.py --sizes 1 5 25 50 --json speed.json
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import json
import os
import platform
import pstats
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any, Callable

REPO = Path(__file__).resolve().parent.parent

import trajmetrics  # noqa: E402
from trajmetrics import MetricConfig  # noqa: E402

SHARED = Path(os.environ.get("TRAJMETRICS_SHARED_DATA") or REPO.parent / "shared" / "data")
DEFAULT_RUN = SHARED / "colorbrowseragent-webarena" / "results"
DEFAULT_GOLD = SHARED / "webarena-human-gold" / "Golden Human Trajectories.xlsx"
DEFAULT_TASKS = SHARED / "webarena" / "test.raw.json"
SEED = 0

# Runs the CLI exactly as the console script does, and reports its own peak RSS on stderr at exit.
CLI_WRAPPER = """\
import atexit, sys
def _peak():
    try:
        for line in open('/proc/self/status'):
            if line.startswith('VmHWM:'):
                sys.stderr.write('\\nSPEED_VMHWM_KB ' + line.split()[1] + '\\n')
    except OSError:
        pass
atexit.register(_peak)
sys.argv[0] = 'trajmetrics'
from trajmetrics.cli.main import main
sys.exit(main())
"""


# -- measuring -------------------------------------------------------------------------------------------


def best_of(fn: Callable[[], Any], repeats: int, cpu: list[float] | None = None) -> tuple[float, Any]:
    """Minimum wall time of ``repeats`` calls (garbage collected before each), and the last result.
    With ``cpu``, the minimum CPU time of this process is appended to it (less sensitive to other load)."""
    times, cpus, result = [], [], None
    for _ in range(repeats):
        gc.collect()
        start, start_cpu = time.perf_counter(), time.process_time()
        result = fn()
        times.append(time.perf_counter() - start)
        cpus.append(time.process_time() - start_cpu)
    if cpu is not None:
        cpu.append(min(cpus))
    return min(times), result


def _status_kb(field: str) -> int | None:
    try:
        with open("/proc/self/status") as fh:
            for line in fh:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


def reset_peak() -> bool:
    """Reset this process's peak RSS to its current RSS (Linux >= 4.0); False when not possible."""
    gc.collect()
    try:
        with open("/proc/self/clear_refs", "w") as fh:
            fh.write("5")
        return True
    except OSError:
        return False


def peak_mb() -> float:
    """Peak RSS in MB since the last reset (VmHWM), or over the process lifetime (ru_maxrss)."""
    kb = _status_kb("VmHWM")
    return (kb if kb is not None else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss) / 1024


def rss_mb() -> float:
    kb = _status_kb("VmRSS")
    return (kb if kb is not None else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss) / 1024


def run_files(run: Path) -> list[Path]:
    """Every JSON file a BrowserGym reader has to parse: steps_info_*.json and summary_info.json per task."""
    files = []
    for task in sorted(p for p in run.iterdir() if p.is_dir()):
        files.extend(sorted(task.glob("steps_info_*.json")))
        files.append(task / "summary_info.json")
    return [f for f in files if f.is_file()]


def baseline(files: list[Path]) -> int:
    """The minimum any tool must do: parse every file, keep nothing."""
    n = 0
    for f in files:
        with open(f, "rb") as fh:
            json.load(fh)
        n += 1
    return n


# -- the synthetic run ---------------------------------------------------------------------------------


def build_replicas(run: Path, target: Path, copies: int) -> Path:
    """``target/task_<id>_r<k>`` -> the real task folder, for k < copies. Returns ``target``."""
    from trajmetrics.formats._browsergym import task_dirs
    from trajmetrics.formats._common import task_id_from_name

    target.mkdir(parents=True, exist_ok=True)
    for k in range(copies):
        for d in task_dirs(run):
            (target / f"task_{task_id_from_name(d.name)}_r{k}").symlink_to(d.resolve(), target_is_directory=True)
    return target


def replicated_gold(gold: dict[str, Any], ids: list[str], copies: int) -> dict[str, Any]:
    """The gold of ``ids`` under the replicated ids ``<id>_r<k>``, each a deep copy (as a real gold set would be)."""
    return {f"{tid}_r{k}": gold[tid].model_copy(update={"task_id": f"{tid}_r{k}"}, deep=True)
            for k in range(copies) for tid in ids if tid in gold}


# -- the child processes of one scale point -----------------------------------------------------------------


def child(args: argparse.Namespace) -> None:
    """One phase of one scale point in a fresh process; JSON on stdout."""
    random.seed(SEED)
    run = Path(args.child_run)
    out: dict[str, Any] = {}
    if args.child == "baseline":
        files = run_files(run)
        out["rss_start_mb"] = rss_mb()
        out["peak_reset"] = reset_peak()
        cpu: list[float] = []
        out["baseline_s"], _ = best_of(lambda: baseline(files), args.scale_repeats, cpu)
        out["baseline_cpu_s"] = cpu[0]
        out["peak_baseline_mb"] = peak_mb()
        out["files"] = len(files)
        print(json.dumps(out))
        return

    if args.child == "profile":  # cProfile of score(...) from files
        config = MetricConfig(seed=SEED)
        tasks_path = args.child_tasks
        trajmetrics.score(run, args.child_gold, config, tasks_path=tasks_path)  # warm imports and caches
        gc.collect()
        prof = cProfile.Profile()
        prof.enable()
        trajmetrics.score(run, args.child_gold, config, tasks_path=tasks_path)
        prof.disable()
        stats = pstats.Stats(prof)
        ranked = sorted(stats.stats.items(), key=lambda kv: -kv[1][2])[:5]  # type: ignore[attr-defined]
        out["top"] = [(func if file == "~" else f"{func} ({_short_path(file)}:{line})", v[2])
                      for (file, line, func), v in ranked]
        out["areas"] = profile_areas(stats)
        out["total_s"] = stats.total_tt  # type: ignore[attr-defined]
        print(json.dumps(out))
        return

    from trajmetrics.gold._jsonl import read_gold_jsonl
    from trajmetrics.reports.models import JudgeSummary
    from trajmetrics.scoring import RunState, iter_task_results

    config = MetricConfig(seed=SEED)
    out["rss_start_mb"] = rss_mb()
    gold40 = dict(read_gold_jsonl(args.child_gold).tasks)
    gold = replicated_gold(gold40, args.child_ids.split(","), args.child_copies)
    del gold40
    out["peak_reset"] = reset_peak()
    out["rss_setup_mb"] = rss_mb()  # interpreter, trajmetrics and the replicated gold map
    out["gold_tasks"] = len(gold)

    per_task: dict[str, list[float]] = {}  # wall time of each task (read + score), by original task id

    def stream() -> tuple[int, RunState]:
        state = RunState(config=config, judge_stats=JudgeSummary(kind="none"))
        per_task.clear()
        n = 0
        last = time.perf_counter()
        for result in iter_task_results(run, gold, config, state=state):
            now = time.perf_counter()  # results are not kept: what --format jsonl does with each task
            per_task.setdefault(result.task_id.rsplit("_r", 1)[0], []).append(now - last)
            last = now
            n += 1
        return n, state

    cpu: list[float] = []
    out["stream_s"], (n, state) = best_of(stream, args.scale_repeats, cpu)
    out["stream_cpu_s"] = cpu[0]
    out["peak_stream_mb"] = peak_mb()
    out["tasks"] = n
    out["scored"] = state.status_counts.get("scored", 0)
    # Does a task get slower the later it comes? Its last fifth of copies vs its first fifth (same work).
    fifth = max(1, args.child_copies // 5)
    if args.child_copies >= 5:
        ratios = [sum(ts[-fifth:]) / sum(ts[:fifth]) for ts in per_task.values() if sum(ts[:fifth]) > 0]
        out["late_vs_early"] = sum(ratios) / len(ratios)

    reset_peak()
    out["rss_before_summary_mb"] = rss_mb()
    start = time.perf_counter()
    state.report([], None)  # summary: mean, std and the seeded bootstrap interval of each metric
    out["summary_s"] = time.perf_counter() - start
    out["peak_summary_mb"] = peak_mb()
    print(json.dumps(out))


def run_child(phase: str, run: Path, gold_file: Path, ids: list[str], copies: int, repeats: int,
              tasks_path: Path | None = None) -> dict[str, Any]:
    extra = ["--child-tasks", str(tasks_path)] if tasks_path else []
    res = subprocess.run(
        [sys.executable, __file__, "--child", phase, "--child-run", str(run), "--child-gold", str(gold_file),
         "--child-ids", ",".join(ids), "--child-copies", str(copies), "--scale-repeats", str(repeats), *extra],
        capture_output=True, text=True, cwd=REPO, check=False)
    if res.returncode != 0:
        raise SystemExit(f"{phase} subprocess failed ({copies} copies):\n{res.stderr[-2000:]}")
    return json.loads(res.stdout.strip().splitlines()[-1])


def run_cli(cli_args: list[str], repeats: int = 1) -> dict[str, Any]:
    """``trajmetrics CLI_ARGS`` in fresh subprocesses, stdout to /dev/null: min wall time, max of their own peak RSS."""
    walls, peaks = [], []
    for _ in range(repeats):
        start = time.perf_counter()
        res = subprocess.run([sys.executable, "-c", CLI_WRAPPER, *cli_args], stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, text=True, cwd=REPO, check=False)
        walls.append(time.perf_counter() - start)
        if res.returncode != 0:
            raise SystemExit(f"trajmetrics {' '.join(cli_args)} failed (exit {res.returncode}):\n{res.stderr[-2000:]}")
        peaks += [int(line.split()[1]) / 1024 for line in res.stderr.splitlines() if line.startswith("SPEED_VMHWM_KB ")]
    return {"wall_s": min(walls), "peak_rss_mb": max(peaks) if peaks else None,
            "peak_rss_mb_runs": peaks}


def _area(file: str) -> str:
    """Which part of the stack a profiled file belongs to."""
    f = file.replace("\\", "/")
    if "/trajmetrics/" in f and "site-packages" not in f:
        rest = f.split("/trajmetrics/", 1)[1].split("/")
        return "trajmetrics." + (rest[0] if len(rest) > 1 else rest[0].removesuffix(".py"))
    for name, marker in (("openpyxl+xml", "openpyxl"), ("openpyxl+xml", "/xml/"), ("pydantic", "pydantic"),
                         ("rapidfuzz", "rapidfuzz"), ("numpy", "numpy"), ("json", "/json/"), ("re", "/re/")):
        if marker in f:
            return name
    return "other"


def profile_areas(stats: pstats.Stats) -> list[tuple[str, float]]:
    """Own time per area; a C function (``~``) is charged to the areas of its callers, pro rata."""
    areas: dict[str, float] = {}
    for (file, _line, func), (_cc, _nc, tt, _ct, callers) in stats.stats.items():  # type: ignore[attr-defined]
        if file != "~":
            areas[_area(file)] = areas.get(_area(file), 0.0) + tt
            continue
        spread = {}
        for (cfile, _cl, _cf), cstat in callers.items():
            spread[_area(cfile)] = spread.get(_area(cfile), 0.0) + cstat[2]
        total = sum(spread.values())
        for name, part in spread.items():
            areas[name] = areas.get(name, 0.0) + (tt * part / total if total else 0.0)
        if not spread:
            areas["other"] = areas.get("other", 0.0) + tt
    return sorted(areas.items(), key=lambda kv: -kv[1])


def _short_path(file: str) -> str:
    """A profiled function's file, relative to the package, site-packages or the standard library."""
    f = file.replace("\\", "/")
    if "/trajmetrics/" in f and "site-packages" not in f:
        return "trajmetrics/" + f.split("/trajmetrics/", 1)[1]
    if "/site-packages/" in f:
        return f.split("/site-packages/", 1)[1]
    parts = f.split("/lib/python3", 1)
    return parts[1].split("/", 1)[-1] if len(parts) == 2 else f


# -- the benchmark ---------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> dict[str, Any]:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--run", type=Path, default=DEFAULT_RUN, help="BrowserGym run folder (task_<id>/ inside)")
    p.add_argument("--gold", type=Path, default=DEFAULT_GOLD, help="human gold .xlsx/.csv or canonical .jsonl")
    p.add_argument("--tasks", type=Path, default=DEFAULT_TASKS, help="WebArena task configs (test.raw.json)")
    p.add_argument("--repeats", type=int, default=5, help="min-of-N timing on the real run")
    p.add_argument("--sizes", type=int, nargs="+", default=[1, 5, 25], help="copies of the run for the scale test")
    p.add_argument("--scale-repeats", type=int, default=3, help="min-of-N timing inside each scale subprocess")
    p.add_argument("--cli-repeats", type=int, default=2, help="CLI runs per size (min time, max peak RSS)")
    p.add_argument("--no-cli", action="store_true", help="skip the CLI end-to-end runs")
    p.add_argument("--json", type=Path, default=None, help="also write the numbers here")
    p.add_argument("--child", choices=["baseline", "stream", "profile"], help=argparse.SUPPRESS)
    p.add_argument("--child-run", help=argparse.SUPPRESS)
    p.add_argument("--child-gold", help=argparse.SUPPRESS)
    p.add_argument("--child-ids", help=argparse.SUPPRESS)
    p.add_argument("--child-copies", type=int, help=argparse.SUPPRESS)
    p.add_argument("--child-tasks", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.child:
        child(args)
        return {}

    import numpy
    import pydantic
    import rapidfuzz

    from trajmetrics.formats import read_agent_runs
    from trajmetrics.gold import read_gold
    from trajmetrics.gold._jsonl import read_gold_jsonl, write_gold_jsonl
    from trajmetrics.gold._models import GoldSet
    from trajmetrics.metrics import summarise
    from trajmetrics.model import ReadProblem
    from trajmetrics.scoring import score_task

    random.seed(SEED)
    config = MetricConfig(seed=SEED)
    total_start = time.perf_counter()
    print(f"# speed  trajmetrics {trajmetrics.__version__}  numpy {numpy.__version__}  "
          f"pydantic {pydantic.__version__}  rapidfuzz {rapidfuzz.__version__}  "
          f"Python {platform.python_version()}  {platform.platform()}  {os.cpu_count()} CPUs")
    print(f"# run={args.run}  repeats={args.repeats}  sizes={args.sizes}  scale_repeats={args.scale_repeats}  "
          f"seed={SEED}")

    files = run_files(args.run)
    size_mb = sum(f.stat().st_size for f in files) / 1e6
    baseline(files)  # warm the page cache once, so every measurement below reads from memory

    # 1. the real run --------------------------------------------------------------------------------------
    # each timed call keeps nothing alive afterwards, like the baseline (a large live heap makes every
    # garbage-collector pass slower, which would charge one measurement for the one before)
    t_base, _ = best_of(lambda: baseline(files), args.repeats)
    t_read, _ = best_of(lambda: sum(1 for _ in read_agent_runs([args.run])), args.repeats)
    t_gold, _ = best_of(lambda: len(read_gold(args.gold, args.tasks).tasks), args.repeats)
    t_score, counts = best_of(
        lambda: trajmetrics.score(args.run, args.gold, config, tasks_path=args.tasks).counts, args.repeats)
    trajs = [a for a in read_agent_runs([args.run]) if not isinstance(a, ReadProblem)]
    gold_set = read_gold(args.gold, args.tasks)
    n_tasks = len(trajs)
    n_steps = sum(len(a.steps) for a in trajs)
    gold = dict(gold_set.tasks)
    t_mem, _ = best_of(lambda: trajmetrics.score(trajs, gold, config).counts, args.repeats)

    rows = [
        ("baseline: json.load every file", t_base),
        ("read_agent_runs (read only)", t_read),
        ("read_gold (xlsx + task configs)", t_gold),
        ("score(...) rules-only, from files", t_score),
        ("score(...) on inputs in memory", t_mem),
    ]
    out: dict[str, Any] = {
        "settings": {k: str(v) for k, v in vars(args).items() if not k.startswith("child")},
        "run": {"tasks": n_tasks, "steps": n_steps, "files": len(files), "mb": round(size_mb, 1),
                "gold_tasks": len(gold), "scored": counts.get("scored", 0)},
        "real_run_s": {name: round(t, 4) for name, t in rows},
    }
    print(f"\n1. real run: {n_tasks} tasks, {n_steps} steps, {len(files)} JSON files, {size_mb:.1f} MB; "
          f"gold {len(gold)} tasks; scored {counts.get('scored', 0)}")
    print(f"{'':36}{'s':>8}{'x baseline':>12}{'ms/task':>10}")
    for name, t in rows:
        print(f"{name:36}{t:>8.3f}{t / t_base:>12.2f}{1000 * t / max(n_tasks, 1):>10.1f}")

    # 2. scale ----------------------------------------------------------------------------------------------
    ids = [a.task_id for a in trajs]
    scale: list[dict[str, Any]] = []
    cli: list[dict[str, Any]] = []
    cli_real: dict[str, Any] | None = None
    with tempfile.TemporaryDirectory(prefix="trajmetrics-speed-") as tmp:
        gold40 = Path(tmp) / "gold40.jsonl"  # the run's 40 gold tasks, for the children to replicate
        write_gold_jsonl(GoldSet(tasks={t: gold[t] for t in ids if t in gold}), gold40)
        gc.collect()
        tracemalloc.start()  # what one gold task costs in memory once read (the CLI holds the whole gold map)
        n_gold40 = len(read_gold_jsonl(str(gold40)).tasks)
        gold_kb_per_task = tracemalloc.get_traced_memory()[1] / 1024 / n_gold40
        tracemalloc.stop()
        for copies in args.sizes:
            synthetic = build_replicas(args.run, Path(tmp) / f"run_x{copies}", copies)
            repeats = args.scale_repeats * max(1, 5 // copies)  # small sizes: more runs against noise
            point = {"copies": copies, "repeats": repeats}
            point.update(run_child("baseline", synthetic, gold40, ids, copies, repeats))
            point.update(run_child("stream", synthetic, gold40, ids, copies, repeats))
            scale.append(point)
            if not args.no_cli:
                gold_file = Path(tmp) / f"gold_x{copies}.jsonl"
                write_gold_jsonl(GoldSet(tasks=replicated_gold(gold, ids, copies)), gold_file)
                c = run_cli(["score", str(synthetic), "--gold", str(gold_file), "--seed", str(SEED),
                             "--format", "jsonl", "--no-progress"], args.cli_repeats)
                c.update(copies=copies, tasks=copies * n_tasks)
                cli.append(c)
                gold_file.unlink()
            shutil.rmtree(synthetic)
    if not args.no_cli:  # the real command of README.md: xlsx gold and task configs
        cli_real = run_cli(["score", str(args.run), "--gold", str(args.gold), "--tasks", str(args.tasks),
                            "--seed", str(SEED), "--format", "jsonl", "--no-progress"], args.cli_repeats)
        cli_real["startup"] = run_cli(["--help"], args.cli_repeats)

    reset_ok = all(pt["peak_reset"] for pt in scale)
    print(f"\n2. scale: N copies of the run, fresh subprocesses per size; min of {args.scale_repeats} "
          f"x max(1, 5 // copies) runs; "
          f"peak RSS = {'VmHWM reset at each phase' if reset_ok else 'ru_maxrss (no per-phase reset possible)'}")
    print(f"{'copies':>6}{'tasks':>7}{'base s':>8}{'stream s':>10}{'x base':>8}{'ms/task':>9}{'cpu ms/task':>13}"
          f"{'x linear':>10}"
          f"{'peak base MB':>14}{'setup MB':>10}{'peak stream':>13}{'stream-setup':>14}{'summary s':>11}"
          f"{'summary +MB':>13}{'late/early':>12}")
    cpu_per_task_1 = scale[0]["stream_cpu_s"] / scale[0]["tasks"]
    for pt in scale:
        per_task = pt["stream_s"] / pt["tasks"]
        cpu_per_task = pt["stream_cpu_s"] / pt["tasks"]
        late = f"{pt['late_vs_early']:.3f}" if "late_vs_early" in pt else "-"
        print(f"{pt['copies']:>6}{pt['tasks']:>7}{pt['baseline_s']:>8.2f}{pt['stream_s']:>10.2f}"
              f"{pt['stream_s'] / pt['baseline_s']:>8.2f}{1000 * per_task:>9.2f}{1000 * cpu_per_task:>13.2f}"
              f"{cpu_per_task / cpu_per_task_1:>10.2f}"
              f"{pt['peak_baseline_mb']:>14.1f}{pt['rss_setup_mb']:>10.1f}{pt['peak_stream_mb']:>13.1f}"
              f"{pt['peak_stream_mb'] - pt['rss_setup_mb']:>14.1f}{pt['summary_s']:>11.3f}"
              f"{pt['peak_summary_mb'] - pt['rss_before_summary_mb']:>13.1f}"
              f"{late:>12}")
    if cli:
        print("CLI `trajmetrics score RUN --gold GOLD.jsonl --format jsonl > /dev/null` (own VmHWM at exit):")
        for c in cli:
            base = next(pt for pt in scale if pt["copies"] == c["copies"])
            print(f"  {c['tasks']:>5} tasks  {c['wall_s']:6.2f} s  {c['wall_s'] / base['baseline_s']:5.2f}x baseline  "
                  f"{1000 * c['wall_s'] / c['tasks']:5.1f} ms/task  peak RSS {c['peak_rss_mb']:.1f} MB")
    if cli_real:
        s = cli_real["startup"]
        print(f"  real run, xlsx gold + task configs ({n_tasks} tasks): {cli_real['wall_s']:.2f} s "
              f"({cli_real['wall_s'] / t_base:.2f}x baseline), peak RSS {cli_real['peak_rss_mb']:.1f} MB; "
              f"`trajmetrics --help` alone: {s['wall_s']:.2f} s, {s['peak_rss_mb']:.1f} MB")

    # the summary's memory: summarise() of n task values (2000 bootstrap samples), traced
    boot = []
    rng = random.Random(SEED)
    for n in (40, 1000, 10000):
        values = [rng.random() for _ in range(n)]
        gc.collect()
        tracemalloc.start()
        start = time.perf_counter()
        summarise(values, samples=config.bootstrap_samples, seed=SEED)
        t = time.perf_counter() - start
        _cur, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        boot.append({"n": n, "s": t, "peak_mb": peak / 1e6})
    print(f"summarise() of one metric, {config.bootstrap_samples} bootstrap samples (tracemalloc peak): "
          + ", ".join(f"n={b['n']}: {b['peak_mb']:.1f} MB {1000 * b['s']:.0f} ms" for b in boot))

    # what a streaming run keeps per task: the CLI with --format jsonl/csv writes each result and keeps only
    # the per-metric values the summary needs (RunState), plus the tasks that were not scored
    from trajmetrics.scoring import RunState, iter_task_results

    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    state = RunState.start(config, None)
    n_kept = sum(1 for _ in iter_task_results(trajs, gold, config, state=state))
    gc.collect()
    kept_bytes = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    del state
    cli_keep = {"tasks": n_kept, "kept_kb_per_task": kept_bytes / 1024 / n_kept, "gold_kb_per_task": gold_kb_per_task}
    print(f"memory held per task (tracemalloc, {n_kept} real tasks): gold map {gold_kb_per_task:.1f} KB "
          f"(read_gold_jsonl peak); a streaming run (RunState: the values the summary needs) "
          f"{cli_keep['kept_kb_per_task']:.2f} KB")

    # 3. the rule matcher's share -----------------------------------------------------------------------------
    import trajmetrics.scoring as scoring_module

    spent = [0.0]
    original = scoring_module.step_decisions

    def timed_step_decisions(*a: Any, **k: Any):
        start = time.perf_counter()
        try:
            return original(*a, **k)
        finally:
            spent[0] += time.perf_counter() - start

    def with_share(fn: Callable[[], Any], repeats: int) -> tuple[float, float]:
        best: tuple[float, float] | None = None
        for _ in range(repeats):
            spent[0] = 0.0
            t, _ = best_of(fn, 1)
            if best is None or t < best[0]:
                best = (t, spent[0])
        assert best is not None
        return best

    longest = max(trajs, key=lambda a: len(a.steps))
    g_long = gold[longest.task_id]
    scoring_module.step_decisions = timed_step_decisions
    try:
        t_full, sd_full = with_share(lambda: trajmetrics.score(args.run, args.gold, config, tasks_path=args.tasks),
                                     args.repeats)
        t_in, sd_in = with_share(lambda: trajmetrics.score(trajs, gold, config), args.repeats)
        lengths = []
        for k in (1, 4, 16, 32):
            a_k = longest.model_copy(update={"steps": longest.steps * k})
            g_k = g_long.model_copy(update={"steps": g_long.steps * k})
            t, sd = with_share(lambda: score_task(a_k, g_k, config), args.repeats if k < 16 else min(args.repeats, 3))
            r = score_task(a_k, g_k, config)
            lengths.append({"k": k, "atoms": r.n_atoms, "gold": r.n_gold, "pairs": r.n_atoms * r.n_gold,
                            "s": t, "step_decisions_s": sd})
    finally:
        scoring_module.step_decisions = original

    prof = run_child("profile", args.run, args.gold, [], 0, 1, args.tasks)  # a fresh heap, like a real run
    top, areas, prof_total = prof["top"], prof["areas"], prof["total_s"]

    print(f"\n3. rule matcher: step_decisions {1000 * sd_full:.1f} ms of {1000 * t_full:.0f} ms score(...) from files "
          f"({100 * sd_full / t_full:.1f}%); {1000 * sd_in:.1f} ms of {1000 * t_in:.1f} ms scoring inputs in memory "
          f"({100 * sd_in / t_in:.1f}%)")
    print(f"longest task ({longest.task_id}) made k times longer on both sides, score_task:")
    for row in lengths:
        print(f"  k={row['k']:<3} {row['atoms']:>4} atoms x {row['gold']:>3} gold = {row['pairs']:>6} pairs  "
              f"{1000 * row['s']:7.1f} ms  {1e6 * row['s'] / row['pairs']:5.1f} us/pair  "
              f"step_decisions {100 * row['step_decisions_s'] / row['s']:.0f}%")
    print(f"own time in score(...) from files by area (cProfile, {prof_total:.2f} s profiled; C functions "
          f"charged to their caller's area):")
    print("  " + ", ".join(f"{name} {100 * tt / prof_total:.0f}%" for name, tt in areas if tt / prof_total >= 0.01))
    print("  top functions: " + "; ".join(f"{name} {100 * tt / prof_total:.0f}%" for name, tt in top))
    total = time.perf_counter() - total_start
    print(f"\nbenchmark wall time {total:.0f} s")

    out.update(
        scale=scale, cli=cli, cli_real=cli_real, summarise_memory=boot, cli_keep=cli_keep,
        step_decisions={"score_from_files_s": round(t_full, 4), "step_decisions_s": round(sd_full, 4),
                        "share_from_files": round(sd_full / t_full, 4), "score_in_memory_s": round(t_in, 4),
                        "step_decisions_in_memory_s": round(sd_in, 4), "share_in_memory": round(sd_in / t_in, 4),
                        "task_length": lengths},
        profile={"total_s": prof_total, "areas": areas, "top": top},
        wall_s=round(total, 1),
    )
    if args.json:
        args.json.write_text(json.dumps(out, indent=2) + "\n")
    return out


if __name__ == "__main__":
    main()

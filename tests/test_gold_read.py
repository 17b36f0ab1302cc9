"""Gold readers: xlsx/csv cleaning, canonical JSONL, WebArena task configs, and the real human gold."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from trajmetrics.errors import InputError
from trajmetrics.gold import (
    GoldDefect,
    GoldSet,
    TaskConfig,
    detect_format,
    load_task_configs,
    read_gold,
    task_config_from_dict,
    write_gold_jsonl,
)
from trajmetrics.model import GoldTrajectory

GOLD = Path(__file__).resolve().parent / "data" / "gold"


def _kinds(gold: GoldSet) -> Counter:
    return Counter(d.kind for d in gold.defects)


def _write_xlsx(path: Path, rows: list[tuple], *, sheets: int = 1, header=("Task No.", "Step No.", "Text")) -> Path:
    openpyxl = pytest.importorskip("openpyxl")
    wb = openpyxl.Workbook()
    ws = wb.active
    if sheets > 1:
        # an unrelated first sheet: the reader must find the one with the gold columns
        ws.title = "notes"
        ws.append(["just notes"])
        ws = wb.create_sheet("gold")
    ws.append(list(header))
    for row in rows:
        ws.append(list(row))
    wb.save(path)
    return path


XLSX_ROWS = [
    (809.0, 1, "Click on the link 'Issues' "),
    (809.0, 2, "Type '404 for many URLs' into the 'Title' textbox."),
    (None, 3, "Press enter"),  # empty task id: continues 809
    (None, None, None),  # blank row
    (96.0, "Pink", "Click on the 'My Account' link"),
    (96.0, "Pink", "Extract the status of the latest order"),
    (37.0, 1, "Open new tab to navigate to wilipedia.com"),
    (37.0, 1, "gates"),
    (809.0, 1, "Click on the 'Create issue' button"),  # second block of 809, numbered from 1 again
]


def test_xlsx_cleaning_reports_every_repair(tmp_path: Path) -> None:
    path = _write_xlsx(tmp_path / "gold.xlsx", XLSX_ROWS)
    gold = read_gold(path)
    assert gold.format == "xlsx" and gold.problems == []
    assert list(gold.tasks) == ["809", "96", "37"]  # file order, float ids as strings
    steps = [s.text for s in gold.tasks["809"].steps]
    # blocks concatenated in file order, not re-sorted by step number
    assert steps == [
        "Click on the link 'Issues' ",
        "Type '404 for many URLs' into the 'Title' textbox.",
        "Press enter",
        "Click on the 'Create issue' button",
    ]
    assert [s.step_no for s in gold.tasks["809"].steps] == ["1", "2", "3", "1"]
    assert [s.step_no for s in gold.tasks["96"].steps] == ["Pink", "Pink"]
    assert _kinds(gold) == Counter(
        {"empty_task_id": 1, "bad_step_no": 2, "blank_rows": 1, "split_task": 1, "misnumbered": 2}
    )
    empty = next(d for d in gold.defects if d.kind == "empty_task_id")
    assert (empty.task_id, empty.record) == ("809", "row 4")
    assert "continued task 809" in empty.action
    mis = {d.task_id: d for d in gold.defects if d.kind == "misnumbered"}
    assert set(mis) == {"809", "37"}  # 96 has non-numeric numbers: reported as bad_step_no instead
    assert mis["809"].evidence["step_numbers"] == ["1", "2", "3", "1"]
    split = next(d for d in gold.defects if d.kind == "split_task")
    assert split.evidence["blocks"] == [[2, 4], [10, 10]]
    # every task carries its repairs for the JSONL
    assert any(r.startswith("split_task:") for r in gold.tasks["809"].repairs)
    # steps are parsed, text kept verbatim
    first = gold.tasks["809"].steps[0]
    assert first.action.kind == "click" and first.action.target.name == "Issues"
    assert first.text == first.action.raw == "Click on the link 'Issues' "
    assert [u[2].text for u in gold.unparsed()] == ["gates"]


def test_xlsx_finds_the_gold_sheet_and_loose_headers(tmp_path: Path) -> None:
    path = _write_xlsx(tmp_path / "g.xlsx", [(1, 1, "Go back"), (1, 2, "Scroll down")], sheets=2,
                       header=("task_id", "step", "Step text"))
    gold = read_gold(path)
    assert [s.action.kind for s in gold.tasks["1"].steps] == ["go_back", "scroll"]


def test_xlsx_without_gold_columns_is_an_input_error(tmp_path: Path) -> None:
    path = _write_xlsx(tmp_path / "g.xlsx", [(1, "Go back")], header=("Task No.", "Text"))
    with pytest.raises(InputError, match=r"g\.xlsx:row 1: header: expected a header row .*missing Step No\."):
        read_gold(path)


def test_not_really_an_xlsx_is_an_input_error(tmp_path: Path) -> None:
    path = tmp_path / "g.xlsx"
    path.write_text("Task No.,Step No.,Text\n")
    with pytest.raises(InputError, match="expected an .xlsx workbook"):
        read_gold(path)


def test_csv_fixture() -> None:
    gold = read_gold(GOLD / "gold_small.csv")
    assert gold.format == "csv"
    assert list(gold.tasks) == ["10", "11", "12"]
    t10 = gold.tasks["10"]
    assert [s.action.kind for s in t10.steps] == ["click", "type", "press", "scroll", "note"]
    assert t10.steps[1].action.value == "404 for many URLs"  # csv quoting respected, single quotes kept
    assert _kinds(gold) == Counter({"empty_task_id": 1, "bad_step_no": 1, "split_task": 2, "misnumbered": 1})
    # task 10's blocks number 1..4 and 5: split, but not misnumbered
    assert [d.task_id for d in gold.defects if d.kind == "misnumbered"] == ["12"]
    assert next(d for d in gold.defects if d.kind == "bad_step_no").record == "line 7"


def test_csv_semicolons_loose_headers_and_apostrophes() -> None:
    gold = read_gold(GOLD / "gold_semicolon.csv")
    steps = gold.tasks["7"].steps
    assert steps[0].action.value == "Let's keep the project alive"
    assert (steps[1].action.kind, steps[1].action.value) == ("select", "Foot (OSRM)")
    assert gold.defects == []


def test_csv_broken_rows_are_reported_and_the_rest_read() -> None:
    gold = read_gold(GOLD / "broken_rows.csv")
    # the first row has no task to continue: a problem; the others are read
    assert len(gold.problems) == 1
    assert gold.problems[0].message == (
        f"{GOLD / 'broken_rows.csv'}:line 2: Task No.: expected a task id (no task above to continue), "
        "found an empty cell"
    )
    assert gold.problems[0].kind == "gold"
    assert list(gold.tasks) == ["abc", "5", "6"]
    assert _kinds(gold) == Counter({"odd_task_id": 1, "empty_text": 1, "header_row": 1, "misnumbered": 1})
    assert [s.text for s in gold.tasks["5"].steps] == ["Press enter"]  # the empty-text row was dropped


@pytest.mark.parametrize("name,match", [
    ("empty.csv", r"empty\.csv: expected a header row with columns Task No\., Step No\., Text, found an empty file"),
    ("missing_columns.csv", r"missing_columns\.csv:line 1: header: expected .* \(missing Step No\.\), found 'Task No\.', 'Text'"),
])
def test_broken_csv_files_are_input_errors(name: str, match: str) -> None:
    with pytest.raises(InputError, match=match):
        read_gold(GOLD / name)


def test_missing_file_and_folder_are_input_errors(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="nothing at that path"):
        read_gold(tmp_path / "nope.xlsx")
    with pytest.raises(InputError, match="a folder"):
        read_gold(tmp_path)


def test_csv_in_cp1252_is_read_with_a_defect(tmp_path: Path) -> None:
    path = tmp_path / "g.csv"
    path.write_bytes("Task No.,Step No.,Text\n1,1,Click on the 'Caf\u00e9' link\n".encode("cp1252"))
    gold = read_gold(path)
    assert gold.tasks["1"].steps[0].action.target.name == "Caf\u00e9"
    assert _kinds(gold) == Counter({"encoding": 1})


def test_detect_format(tmp_path: Path) -> None:
    x = _write_xlsx(tmp_path / "a.xlsx", [(1, 1, "Go back")])
    renamed = tmp_path / "gold.dat"
    renamed.write_bytes(x.read_bytes())
    (tmp_path / "j.dat").write_text('{"task_id": "1"}\n')
    (tmp_path / "c.dat").write_text("Task No.,Step No.,Text\n")
    assert [detect_format(tmp_path / n) for n in ("gold.dat", "j.dat", "c.dat")] == ["xlsx", "jsonl", "csv"]
    assert read_gold(renamed).tasks["1"].steps[0].action.kind == "go_back"


# ---------------------------------------------------------------- JSONL


def test_jsonl_round_trip(tmp_path: Path) -> None:
    gold = read_gold(_write_xlsx(tmp_path / "gold.xlsx", XLSX_ROWS))
    out = tmp_path / "gold.jsonl"
    assert write_gold_jsonl(gold, out) == 3
    lines = out.read_text(encoding="utf-8").splitlines()
    assert [json.loads(line)["task_id"] for line in lines] == ["809", "96", "37"]
    again = read_gold(out)
    assert again.format == "jsonl" and again.problems == []
    assert again.tasks == gold.tasks  # steps, actions, step numbers, repairs: all kept
    # the repairs come back as recorded defects, so lint still shows them
    assert Counter(d.kind for d in again.defects) == Counter({"recorded_repair": len(gold.defects) - 1})


def test_jsonl_lenient_and_bad_lines() -> None:
    gold = read_gold(GOLD / "gold_small.jsonl")
    assert list(gold.tasks) == ["1", "2"]
    t1 = gold.tasks["1"]
    assert [s.action.kind for s in t1.steps] == ["click", "press"]  # parsed from plain text
    assert t1.steps[1].step_no == "2"
    assert gold.tasks["2"].requirements == ["x, y"]
    messages = [p.message for p in gold.problems]
    assert len(messages) == 2
    assert messages[0].startswith(f"{GOLD / 'gold_small.jsonl'}:line 4: steps.0.action.kind: expected 'click', ")
    assert messages[0].endswith("found klick")
    assert messages[1].startswith(f"{GOLD / 'gold_small.jsonl'}:line 5: expected a JSON object, found invalid JSON")
    dup = [d for d in gold.defects if d.kind == "duplicate_task"]
    assert len(dup) == 1 and dup[0].record == "line 6"


def test_jsonl_empty_file_is_an_input_error(tmp_path: Path) -> None:
    (tmp_path / "g.jsonl").write_text("\n\n")
    with pytest.raises(InputError, match="found an empty file"):
        read_gold(tmp_path / "g.jsonl")


def test_write_to_missing_folder_is_an_input_error(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="expected an existing output folder"):
        write_gold_jsonl(GoldSet(tasks={"1": GoldTrajectory(task_id="1")}), tmp_path / "no" / "g.jsonl")


# ---------------------------------------------------------------- task configs


def test_load_task_configs_fixture() -> None:
    configs = load_task_configs(GOLD / "tasks_small.json")
    assert list(configs) == ["10", "11", "12", "13", "14"]
    assert configs["10"].requirements == [] and configs["10"].requirement_source is None
    # must_include wins over fuzzy_match, and strings with commas stay whole
    assert configs["11"].requirements == ["Niagara Falls International Airport, 2035, Niagara Falls Boulevard", "Buffalo"]
    assert configs["11"].requirement_source == "must_include"
    assert configs["12"].requirements == ["a", "b, c"] and configs["12"].requirement_source == "fuzzy_match"
    # a string fuzzy_match is an expected answer, not a requirement list
    assert configs["13"].requirements == [] and configs["13"].fuzzy_match_text == "N/A"
    assert configs["13"].string_note == "infeasible"
    assert configs["14"].exact_match == "Quest Lumaflex Band" and configs["14"].sites == ["shopping_admin"]


def test_task_config_must_include_string_is_one_requirement() -> None:
    cfg = task_config_from_dict({"task_id": "3", "eval": {"reference_answers": {"must_include": "a, b"}}})
    assert cfg.requirements == ["a, b"]


def test_bad_task_configs(tmp_path: Path) -> None:
    path = tmp_path / "t.json"
    path.write_text(json.dumps([{"task_id": 1, "intent": "ok"}, {"intent": "no id"}, "junk", {"task_id": 1}]))
    with pytest.raises(InputError, match=r"t\.json:record 1: task_id: expected a task id, found nothing"):
        load_task_configs(path)
    problems: list = []
    configs = load_task_configs(path, problems=problems)
    assert list(configs) == ["1"]
    assert [p.message.split(": ", 1)[0].rsplit(":", 1)[1] for p in problems] == ["record 1", "record 2", "record 3"]
    assert "expected a task id not seen before, found 1" in problems[2].message
    (tmp_path / "bad.json").write_text("{nope")
    with pytest.raises(InputError, match="expected valid JSON"):
        load_task_configs(tmp_path / "bad.json")


def test_task_config_folder(tmp_path: Path) -> None:
    for i in (2, 10, 1):
        (tmp_path / f"{i}.json").write_text(json.dumps({"task_id": i, "intent": f"task {i}", "sites": "map"}))
    configs = load_task_configs(tmp_path)
    assert list(configs) == ["1", "2", "10"] and configs["2"].sites == ["map"]


def test_read_gold_joins_configs() -> None:
    gold = read_gold(GOLD / "gold_small.csv", GOLD / "tasks_small.json")
    assert gold.tasks["10"].intent == "Create an issue titled 404 for many URLs"
    assert gold.tasks["11"].requirements[1] == "Buffalo" and gold.tasks["11"].sites == ["map"]
    no_gold = [d for d in gold.defects if d.kind == "no_gold"]
    assert len(no_gold) == 1 and no_gold[0].evidence["task_ids"] == ["13", "14"]
    assert "2 task configs have no gold path: 13, 14" in no_gold[0].message
    assert not [d for d in gold.defects if d.kind == "no_config"]


def test_jsonl_explicit_requirements_win_over_configs(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    path.write_text(json.dumps({"task_id": "11", "steps": ["Go back"], "requirements": ["mine"]}) + "\n"
                    + json.dumps({"task_id": "99", "steps": ["Go back"]}) + "\n")
    gold = read_gold(path, GOLD / "tasks_small.json")
    assert gold.tasks["11"].requirements == ["mine"] and gold.tasks["11"].intent == "Where is the nearest airport?"
    no_config = [d for d in gold.defects if d.kind == "no_config"]
    assert no_config[0].message.startswith("1 gold task has no task config: 99")


def test_suspect_and_repeated_blocks(tmp_path: Path) -> None:
    rows = [
        (1, 1, "Click on the 'SALES' link"), (1, 2, "Click on the 'Orders' link"),
        (2, 1, "Go to http://openstreetmap.org"),
        # a second block of task 1 in gitlab words: another task's steps
        (1, 1, "Type 'design' in the 'Search Gitlab' textbox"), (1, 2, "Click on the 'Repository' link"),
        (1, 3, "Click on the 'Contributors' link"),
        (3, 1, "Click on the 'REPORTS' link"), (3, 2, "Click on the 'Bestsellers' link"),
        (2, 2, "Scroll down"),
        # task 3 recorded again
        (3, 1, "Click on the 'REPORTS' link "), (3, 2, "Click on the link 'Bestsellers'"),
    ]
    tasks = tmp_path / "t.json"
    tasks.write_text(json.dumps([{"task_id": 1, "sites": ["shopping_admin"]}, {"task_id": 2, "sites": ["map"]},
                                 {"task_id": 3, "sites": ["shopping_admin"]}]))
    gold = read_gold(_write_xlsx(tmp_path / "g.xlsx", rows), tasks)
    suspect = [d for d in gold.defects if d.kind == "suspect_block"]
    assert [(d.task_id, d.record) for d in suspect] == [("1", "rows 5-7")]
    assert suspect[0].evidence["site_hits"] == {"gitlab": ["gitlab", "repositor", "contributors"]}
    repeated = [d for d in gold.defects if d.kind == "repeated_block"]
    assert [(d.task_id, d.record) for d in repeated] == [("3", "rows 11-12")]
    # nothing is moved: the steps stay under their task id, in file order
    assert len(gold.tasks["1"].steps) == 5
    # without configs, blocks cannot be judged against sites
    assert not [d for d in read_gold(tmp_path / "g.xlsx").defects if d.kind == "suspect_block"]


def test_public_api() -> None:
    import trajmetrics.gold as g

    for name in ("read_gold", "GoldSet", "GoldDefect", "load_task_configs", "TaskConfig", "write_gold_jsonl",
                 "parse_gold_step"):
        assert name in g.__all__ and hasattr(g, name)
    assert GoldDefect.model_fields["kind"] and TaskConfig.model_fields["requirements"]


# ---------------------------------------------------------------- the real human gold (shared data)


@pytest.fixture(scope="module")
def human_gold(shared_data) -> GoldSet:
    return read_gold(shared_data / "webarena-human-gold" / "Golden Human Trajectories.xlsx",
                     shared_data / "webarena" / "test.raw.json")


@pytest.mark.shared_data
def test_human_gold_traps(human_gold: GoldSet) -> None:
    """The README traps, counted: 5 empty task ids, 19 'Pink' step numbers, 18 split tasks, 29 misnumbered."""
    counts = human_gold.defect_counts()
    assert len(human_gold.tasks) == 652 and human_gold.n_steps() == 4350 and human_gold.problems == []
    assert counts["empty_task_id"] == 5
    assert counts["bad_step_no"] == 19
    assert {d.evidence["value"] for d in human_gold.defects if d.kind == "bad_step_no"} == {"Pink"}
    assert counts["split_task"] == 18
    # 29 tasks with numeric step numbers that are not 1..n (the 3 'Pink' tasks are reported as bad_step_no)
    assert counts["misnumbered"] == 29
    assert sum(1 for t in human_gold.tasks.values() if len(t.steps) == 1) == 40
    # the second blocks that belong to other tasks (README: "e.g. 538, 248, 313"), found from the wording
    assert sorted(d.task_id for d in human_gold.defects if d.kind == "suspect_block") == ["248", "313", "538"]
    assert counts["repeated_block"] == 10
    assert counts["no_gold"] == 1 and "no_config" not in counts
    assert human_gold.tasks["10"].requirements[1].startswith("Buffalo-Niagara International Airport, Holtz Drive")


@pytest.mark.shared_data
def test_human_gold_step_order_matches_alignment_labels(human_gold: GoldSet, shared_data) -> None:
    """Labels index gold steps by their 0-based position in file order; the reader must agree."""
    lines = (shared_data / "labels" / "dev_alignment.jsonl").read_text(encoding="utf-8").splitlines()
    labels = [json.loads(line) for line in lines if line.strip()]
    assert len(labels) == 40
    for label in labels:
        steps = human_gold.tasks[str(label["task_id"])].steps
        indexes = sorted(m["g"] for m in label["matches"])
        assert indexes == list(range(len(steps))), label["task_id"]


@pytest.mark.shared_data
def test_human_gold_split_tasks_keep_file_order(human_gold: GoldSet) -> None:
    # task 809: rows 2-8 then rows 3187-3193, both numbered 1..7; never interleaved by step number
    nos = [s.step_no for s in human_gold.tasks["809"].steps]
    assert nos == [str(i) for i in range(1, 8)] * 2
    # task 751 has two rows with an empty Task No. in the middle: still one block, in order
    assert [s.step_no for s in human_gold.tasks["751"].steps][:6] == ["1", "2", "3", "4", "5", "6"]


def test_repeated_recordings_kept_by_default_or_dropped(shared_data):
    xlsx = shared_data / "webarena-human-gold" / "Golden Human Trajectories.xlsx"
    keep = read_gold(xlsx)
    drop = read_gold(xlsx, repeats="drop")
    repeated = {d.task_id for d in keep.defects if d.kind == "repeated_block"}
    assert len(repeated) == 10
    for tid in repeated:
        n_keep, n_drop = len(keep.tasks[tid].steps), len(drop.tasks[tid].steps)
        assert 0 < n_drop < n_keep
        # the first recording is kept as it was, in file order
        assert [s.text for s in drop.tasks[tid].steps] == [s.text for s in keep.tasks[tid].steps[:n_drop]]
        assert any("dropped this second recording" in r for r in drop.tasks[tid].repairs)
    untouched = set(keep.tasks) - repeated
    assert all(len(keep.tasks[t].steps) == len(drop.tasks[t].steps) for t in untouched)
    with pytest.raises(Exception, match="keep, drop"):
        read_gold(xlsx, repeats="first")

"""Gold trajectories: read the human gold (xlsx / csv / canonical JSONL), join WebArena task configs,
report every data defect, write canonical JSONL.

>>> from trajmetrics.gold import parse_gold_step
>>> parse_gold_step("Click on the 'Issues' link").target.name
'Issues'

Typical use::

    gold = read_gold("Golden Human Trajectories.xlsx", tasks_path="test.raw.json")
    gold.tasks["809"].steps[0].action      # parsed Action, raw text kept
    gold.defects                            # every repair, with what was done
    write_gold_jsonl(gold, "gold.jsonl")
"""

from ..actions.gold_text import parse_gold_step
from ._jsonl import write_gold_jsonl
from ._models import DEFECT_KINDS, DefectKind, GoldDefect, GoldFormat, GoldSet, TaskConfig
from ._read import detect_format, read_gold
from ._tasks import load_task_configs, task_config_from_dict

__all__ = [
    "DEFECT_KINDS",
    "DefectKind",
    "GoldDefect",
    "GoldFormat",
    "GoldSet",
    "TaskConfig",
    "detect_format",
    "load_task_configs",
    "parse_gold_step",
    "read_gold",
    "task_config_from_dict",
    "write_gold_jsonl",
]

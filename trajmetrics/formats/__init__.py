"""Agent-run readers: every supported run format becomes a stream of AgentTrajectory (or ReadProblem).

``read_agent_runs(paths, agent_format=None, *, tool_map=None, plan_block="last")`` detects each path's
format (``detect_format``), reads one task at a time, and turns a bad task into a ReadProblem
(``file:record: field: expected ..., found ...``) while the other tasks go on.

Element accuracy compares each step's ``planned`` action with its executed ``action``:

================  ==========================================  ==============================================
format            planned (what the model proposed)           executed (what the environment recorded)
================  ==========================================  ==============================================
browsergym        call in the ``<action>`` block of record n  call in record n+1's ``obs.last_action``
webarena_render   triple-backtick block of the model text     ``div.parsed_action`` (``action2str``)
reference_sheet   triple-backtick block of ``Text``           ``Next Step``
others            none (the run records one action a step)    the recorded action
================  ==========================================  ==============================================

Elements are resolved where the format allows (BrowserGym: the same record's ``axtree_txt``; WebArena: the
``where [id] is ...`` description). Each reader module's docstring gives its details.

>>> AGENT_FORMATS[:3]
('browsergym', 'webarena_render', 'reference_sheet')
"""

from ._api import AGENT_FORMATS, AgentFormat, detect_format, read_agent_runs, write_agent_jsonl

__all__ = ["AGENT_FORMATS", "AgentFormat", "detect_format", "read_agent_runs", "write_agent_jsonl"]

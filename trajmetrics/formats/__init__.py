"""Agent-run readers: every supported run format becomes a stream of AgentTrajectory (or ReadProblem).

>>> AGENT_FORMATS[:3]
('browsergym', 'webarena_render', 'reference_sheet')
"""

from ._api import AGENT_FORMATS, AgentFormat, detect_format, read_agent_runs, write_agent_jsonl

__all__ = ["AGENT_FORMATS", "AgentFormat", "detect_format", "read_agent_runs", "write_agent_jsonl"]

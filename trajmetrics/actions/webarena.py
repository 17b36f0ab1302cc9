"""WebArena action strings to :class:`~trajmetrics.model.Action`.

Two sources write this syntax:

- the model's planned action, in the triple-backtick block of its text: ``type [164] [shoes] [1]``
  (the trailing flag is optional and defaults to 1 = press Enter after typing);
- the environment's record (``action2str``), in ``div.parsed_action`` of ``render_<id>.html`` and in the
  reference sheet's ``Next Step``: ``click [1090] where [1090] is [1090] link 'Go to ...' url: ...``.
  There a typed text that was followed by Enter ends with a newline, and there is no flag.
"""

from __future__ import annotations

import re

from ..model import Action, Target
from ._axtree import describe_node

_BLOCK = re.compile(r"```(.*?)```", re.DOTALL)
_HEAD = re.compile(r"^\s*([A-Za-z_]+)\b\s*", re.DOTALL)
_ID = re.compile(r"^\[\s*([^\]\s]*)\s*\]\s*")
_MISSING = re.compile(r'^Attempt to perfor?m "(\w+)" on element "\[([^\]]*)\]"', re.IGNORECASE)
_EARLY = re.compile(r"^\s*stop\s*\[\s*early stop", re.IGNORECASE)
_ERROR_STOP = re.compile(r"^\s*stop\s*\[\s*ERROR:", re.IGNORECASE)

_ELEMENT_VERBS = {"click": "click", "hover": "hover", "type": "type"}
_SIMPLE = {
    "new_tab": "new_tab",
    "close_tab": "close_tab",
    "go_back": "go_back",
    "go_forward": "go_forward",
}


def backtick_blocks(text: str | None) -> list[str]:
    """Every triple-backtick block of a model text, stripped, in order (as the reference script finds them)."""
    if not isinstance(text, str):
        return []
    return [b.strip() for b in _BLOCK.findall(text)]


def planned_block(text: str | None, which: str = "last") -> str | None:
    """The planned action text: the last (the script) or first triple-backtick block; None when there is none."""
    blocks = [b for b in backtick_blocks(text) if b]
    if not blocks:
        return None
    return blocks[-1] if which == "last" else blocks[0]


def is_early_stop(text: str | None) -> bool:
    """``stop [Early stop: ...]``: the harness stopped the run (repeats, parse failures, step budget)."""
    return bool(text) and bool(_EARLY.match(text))  # type: ignore[arg-type]


def is_error_stop(text: str | None) -> bool:
    """``stop [ERROR: ...]``: the harness stopped the run on an exception while asking the agent."""
    return bool(text) and bool(_ERROR_STOP.match(text))  # type: ignore[arg-type]


def _bracketed(rest: str) -> tuple[str | None, str]:
    # The content of a leading [...] whose closing bracket is the last one before the optional tail.
    rest = rest.lstrip()
    if not rest.startswith("["):
        return None, rest
    end = rest.rfind("]")
    if end <= 0:
        return rest[1:], ""
    return rest[1:end], rest[end + 1 :]


def _split_description(rest: str, element_id: str) -> tuple[str, str | None]:
    # "[text] [1] where [35] is [35] textbox 'Search'" -> ("[text] [1]", "[35] textbox 'Search'")
    marker = re.search(r"\s*\bwhere\s*\[" + re.escape(element_id) + r"\]\s*is\s*", rest)
    if marker is None:
        return rest, None
    return rest[: marker.start()], rest[marker.end() :]


def _target(element_id: str | None, description: str | None) -> tuple[Target, str | None]:
    if description is None:
        return Target(id=element_id or None), None
    desc = description.strip()
    if desc.lower().startswith("no match found"):
        return Target(id=element_id or None), "no matching element found"
    if not desc.startswith("["):
        desc = f"[{element_id}] {desc}"  # the action-history form drops the leading id
    _, role, name = describe_node(desc)
    return Target(id=element_id or None, role=role, name=name), None


def parse_action(text: str | None, *, planned: bool = False) -> tuple[Action | None, str | None]:
    """Parse a WebArena action string into (action, error); (None, None) when it is empty or not an action.

    ``planned=True`` reads a model's block (a missing Enter flag means 1); otherwise it reads the
    environment's record, where an Enter shows as a trailing newline. A record without a ``where ... is``
    description and without a newline is read like a plan, since a hand-made sheet may hold either.

    >>> a, _ = parse_action("type [35] [Randyland] [1]", planned=True)
    >>> a.kind, a.target.id, a.value, a.submit
    ('type', '35', 'Randyland', True)
    >>> a, _ = parse_action("click [1090] where [1090] is [1090] link 'Go to Advanced Reporting' url: http://x")
    >>> a.target.role, a.target.name
    ('link', 'Go to Advanced Reporting')
    """
    if not isinstance(text, str) or not text.strip():
        return None, None
    raw = raw_for_model = text.strip()
    missing = _MISSING.match(raw_for_model)
    if missing:
        verb, element_id = missing.group(1).lower(), missing.group(2)
        kind = _ELEMENT_VERBS.get(verb, "other")
        return (
            Action(kind=kind, target=Target(id=element_id or None), raw=raw_for_model, tool=verb),  # type: ignore[arg-type]
            "no matching element found",
        )
    head = _HEAD.match(raw)
    if head is None:
        return None, None
    verb = head.group(1).lower()
    rest = raw[head.end() :]
    error: str | None = None
    if verb in _ELEMENT_VERBS:
        m = _ID.match(rest)
        element_id = m.group(1) if m else ""
        rest = rest[m.end() :] if m else rest
        args, description = _split_description(rest, element_id)
        target, error = _target(element_id, description)
        value = None
        submit = False
        if verb == "type":
            args = args.rstrip(" \t")
            flag = re.search(r"\]\s*\[\s*([01])\s*\]\s*$", args)
            if flag:
                submit = flag.group(1) == "1"
                args = args[: flag.start() + 1]
            content, _ = _bracketed(args)
            content = content or ""
            if flag is None:
                if content.endswith("\n"):
                    submit = True
                elif planned or description is None:
                    submit = True  # WebArena appends " [1]" when the model omits the flag
            value = content.rstrip("\n") if content.endswith("\n") else content
        return (
            Action(kind=_ELEMENT_VERBS[verb], target=target, value=value, submit=submit, raw=raw_for_model),  # type: ignore[arg-type]
            error,
        )
    arg, _ = _bracketed(rest)
    if verb == "press":
        return Action(kind="press", value=(arg or "").strip() or None, raw=raw_for_model), None
    if verb == "scroll":
        direction = (arg or "down").strip().lower()
        direction = direction.split("=", 1)[-1].strip()
        return Action(kind="scroll", value=direction or "down", raw=raw_for_model), None
    if verb == "goto":
        return Action(kind="goto", value=(arg or "").strip() or None, raw=raw_for_model), None
    if verb in ("tab_focus", "page_focus"):
        return Action(kind="tab_focus", value=(arg or "").strip() or None, raw=raw_for_model), None
    if verb in _SIMPLE:
        return Action(kind=_SIMPLE[verb], raw=raw_for_model), None  # type: ignore[arg-type]
    if verb == "stop":
        answer = arg if arg is not None else rest.strip()
        if is_early_stop(raw_for_model) or is_error_stop(raw_for_model):
            # the harness stopped the run: not the agent's answer
            return Action(kind="other", tool="stop", value=answer.strip(), raw=raw_for_model), None
        return Action(kind="answer", value=answer.strip(), raw=raw_for_model), None
    if verb == "none":
        return Action(kind="other", tool="none", raw=raw_for_model), "the model's output had no parsable action"
    return None, None

"""Coordinate-based computer-use actions to :class:`~trajmetrics.model.Action`.

One function reads the three dialects seen in practice, told apart by their keys:

- OpenAI ``computer_call.action``: ``{"type": "click", "x": 10, "y": 20, "button": "left"}``;
- Anthropic ``computer`` tool input: ``{"action": "left_click", "coordinate": [10, 20]}``;
- Fara's ``computer_use`` tool arguments: ``{"action": "left_click", "coordinate": [...]}`` plus
  ``visit_url``, ``web_search``, ``history_back``, ``pause_and_memorize_fact``, ``terminate``.

There is no element, so the target holds only x and y. Observations (``screenshot``, ``cursor_position``)
are not actions on the page and are skipped (the function returns None).
"""

from __future__ import annotations

from typing import Any

from ..model import Action, Target

SKIPPED = frozenset({"screenshot", "cursor_position", "zoom"})

_CLICKS = {
    "click",
    "left_click",
    "right_click",
    "middle_click",
    "double_click",
    "triple_click",
    "dblclick",
}
_HOVERS = {"move", "mouse_move", "hover"}
_KEY_NAMES = {"return": "Enter", "enter": "Enter", "esc": "Escape", "escape": "Escape", "tab": "Tab"}


def _num(value: Any) -> float | None:
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


def _point(d: dict[str, Any]) -> Target:
    coord = d.get("coordinate")
    if isinstance(coord, (list, tuple)) and len(coord) >= 2:
        return Target(x=_num(coord[0]), y=_num(coord[1]))
    if "x" in d or "y" in d:
        return Target(x=_num(d.get("x")), y=_num(d.get("y")))
    return Target()


def _key(value: Any) -> str | None:
    if value is None:
        return None
    if isinstance(value, (list, tuple)):
        return "+".join(_key(v) or "" for v in value)
    text = str(value).strip()
    parts = [p.strip() for p in text.split("+")] if len(text) > 1 else [text]
    return "+".join(_KEY_NAMES.get(p.lower(), p) for p in parts)


def _scroll_direction(d: dict[str, Any]) -> str:
    direction = d.get("scroll_direction") or d.get("direction")
    if isinstance(direction, str) and direction:
        return direction.lower()
    if "pixels" in d:  # Fara: positive scrolls up
        pixels = _num(d.get("pixels")) or 0.0
        return "up" if pixels > 0 else "down"
    dx = _num(d.get("scroll_x", d.get("delta_x"))) or 0.0
    dy = _num(d.get("scroll_y", d.get("delta_y"))) or 0.0
    if abs(dx) > abs(dy):
        return "left" if dx < 0 else "right"
    return "up" if dy < 0 else "down"


def action_name(d: dict[str, Any]) -> str | None:
    """The action's name: ``type`` for OpenAI items, ``action`` for Anthropic and Fara inputs."""
    name = d.get("action")
    if not isinstance(name, str):
        name = d.get("type")
    return name if isinstance(name, str) and name else None


def computer_action(d: dict[str, Any], *, raw: str = "") -> Action | None:
    """The Action for one computer-use action dict; None for observations such as ``screenshot``.

    >>> a = computer_action({"action": "left_click", "coordinate": [10, 20]})
    >>> a.kind, a.target.x, a.target.y
    ('click', 10.0, 20.0)
    >>> computer_action({"type": "keypress", "keys": ["ENTER"]}).value
    'Enter'
    >>> computer_action({"action": "screenshot"}) is None
    True
    """
    name = action_name(d)
    if name is None:
        return Action(kind="other", raw=raw, args=dict(d))
    if name in SKIPPED:
        return None
    target = _point(d)
    args = {k: v for k, v in d.items() if k not in ("type", "action")} or None
    button = str(d.get("button") or "").lower()
    if name in _CLICKS:
        if button == "back":
            return Action(kind="go_back", raw=raw, tool=name, args=args)
        if button == "forward":
            return Action(kind="go_forward", raw=raw, tool=name, args=args)
        return Action(kind="click", target=target, raw=raw, tool=name)
    if name in _HOVERS:
        return Action(kind="hover", target=target, raw=raw, tool=name)
    if name == "type":
        text = d.get("text")
        submit = bool(d.get("press_enter"))
        return Action(kind="type", target=target, value=None if text is None else str(text), submit=submit, raw=raw, tool=name)
    if name in ("key", "keypress", "press", "hold_key"):
        keys = d.get("keys", d.get("text", d.get("key")))
        return Action(kind="press", value=_key(keys), raw=raw, tool=name)
    if name == "scroll":
        return Action(kind="scroll", target=target, value=_scroll_direction(d), raw=raw, tool=name)
    if name in ("wait", "sleep"):
        return Action(kind="wait", raw=raw, tool=name)
    if name in ("visit_url", "navigate", "goto", "open_url"):
        return Action(kind="goto", value=d.get("url"), raw=raw, tool=name)
    if name == "web_search":
        # Fara types the query into the browser's search bar and submits it
        query = d.get("query")
        return Action(kind="type", value=None if query is None else str(query), submit=True, raw=raw, tool=name, args=args)
    if name in ("history_back", "back", "go_back"):
        return Action(kind="go_back", raw=raw, tool=name)
    if name in ("history_forward", "forward", "go_forward"):
        return Action(kind="go_forward", raw=raw, tool=name)
    if name in ("pause_and_memorize_fact", "memorize", "take_note"):
        fact = d.get("fact", d.get("text"))
        return Action(kind="note", value=None if fact is None else str(fact), raw=raw, tool=name)
    if name in ("terminate", "stop", "done", "finish"):
        # the answer text is not an argument here; the reader fills it from the run's final answer
        return Action(kind="answer", raw=raw, tool=name, args=args)
    return Action(kind="other", target=target, raw=raw, tool=name, args=args)

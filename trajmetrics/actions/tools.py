"""Tool calls (name + JSON arguments) to :class:`~trajmetrics.model.Action`.

A built-in table maps common browser tool names to kinds; ``--tool-map FILE`` extends or overrides it with
JSON ``{"tool_name": "kind"}`` or ``{"tool_name": {"kind": "type", "value": "content", "id": "element_ref"}}``
(the optional keys name the argument that holds the value, element id, name, role, x, y, coordinate or the
submit flag). The kind ``skip`` drops a tool (screenshots, page snapshots); ``computer`` reads the arguments as a
computer-use action (``{"action": "left_click", "coordinate": [x, y]}``). Unmapped tools become ``other`` with
their name and arguments kept.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import InputError, short
from ..model import ACTION_KINDS, Action, Target
from .computer import action_name, computer_action

#: Kinds a tool map may use besides the action kinds.
EXTRA_KINDS = ("skip", "computer")
_MAP_KEYS = ("kind", "value", "id", "name", "role", "x", "y", "coordinate", "submit")

BUILTIN_TOOL_KINDS: dict[str, str] = {
    **dict.fromkeys(
        ["click", "left_click", "click_element", "click_element_by_index", "tap", "double_click", "dblclick", "right_click"],
        "click",
    ),
    **dict.fromkeys(["type", "fill", "input_text", "type_text", "input", "enter_text", "fill_form", "keyboard_type"], "type"),
    **dict.fromkeys(["select", "select_option", "select_dropdown_option", "choose_option", "select_dropdown"], "select"),
    **dict.fromkeys(["press", "key", "keypress", "press_key", "send_keys", "keyboard_press", "hotkey"], "press"),
    **dict.fromkeys(["scroll", "scroll_down", "scroll_up", "scroll_page", "scroll_to_text"], "scroll"),
    **dict.fromkeys(["navigate", "goto", "go_to", "open_url", "go_to_url", "visit_url", "open", "open_page", "load_url"], "goto"),
    **dict.fromkeys(["back", "go_back", "history_back", "navigate_back"], "go_back"),
    **dict.fromkeys(["forward", "go_forward", "history_forward", "navigate_forward"], "go_forward"),
    **dict.fromkeys(["hover", "mouse_move", "move_mouse"], "hover"),
    **dict.fromkeys(["new_tab", "open_tab", "tab_new"], "new_tab"),
    **dict.fromkeys(["tab_focus", "switch_tab", "tab_select", "focus_tab"], "tab_focus"),
    **dict.fromkeys(["close_tab", "tab_close"], "close_tab"),
    **dict.fromkeys(
        ["answer", "done", "finish", "terminate", "stop", "final_answer", "send_msg_to_user", "respond", "submit_answer", "report"],
        "answer",
    ),
    **dict.fromkeys(["wait", "sleep", "noop", "wait_for"], "wait"),
    **dict.fromkeys(
        ["take_note", "note", "memorize", "pause_and_memorize_fact", "extract", "extract_content", "calculate", "read_page"],
        "note",
    ),
    **dict.fromkeys(["screenshot", "take_screenshot", "snapshot", "get_screenshot", "cursor_position"], "skip"),
    **dict.fromkeys(["computer", "computer_use"], "computer"),
}

# Argument names tried, in order, when the tool map does not name one.
_ID_ARGS = ("element_id", "bid", "ref", "index", "element_index", "id", "node_id")
_NAME_ARGS = ("element", "element_name", "label", "name", "target", "description")
_ROLE_ARGS = ("role", "element_role")
_SUBMIT_ARGS = ("press_enter", "submit", "enter", "press_enter_after")
_VALUE_ARGS: dict[str, tuple[str, ...]] = {
    "type": ("text", "value", "content", "input", "query", "keys"),
    "select": ("option", "options", "value", "values", "label", "text"),
    "press": ("key", "keys", "key_comb", "text"),
    "goto": ("url", "href", "link", "uri"),
    "answer": ("answer", "text", "message", "content", "result", "final_answer", "response", "output", "reason"),
    "note": ("text", "note", "fact", "content", "expression", "query", "goal"),
    "scroll": ("direction", "scroll_direction"),
    "tab_focus": ("index", "tab", "page", "page_id", "tab_id"),
}
_PREFIXES = ("browser_", "playwright_", "page_", "web_browser_")


def normalise_tool_name(name: str) -> str:
    """Lower-case, last part of an MCP name (``mcp__playwright__browser_click``), common prefixes removed."""
    base = name.strip().lower().replace("-", "_").replace(".", "_")
    if "__" in base:
        base = base.rsplit("__", 1)[-1]
    for prefix in _PREFIXES:
        if base.startswith(prefix) and base[len(prefix) :] in BUILTIN_TOOL_KINDS:
            return base[len(prefix) :]
    return base


@dataclass(frozen=True)
class ToolRule:
    """How one tool becomes an action: its kind and, optionally, which arguments fill which fields."""

    kind: str
    fields: dict[str, str] = field(default_factory=dict)


class ToolMap:
    """The built-in table plus user rules (user rules win; exact names before normalised ones)."""

    def __init__(self, rules: Mapping[str, ToolRule] | None = None, *, source: str | None = None) -> None:
        self.rules: dict[str, ToolRule] = dict(rules or {})
        self.source = source

    @classmethod
    def load(cls, spec: "ToolMap | Mapping[str, Any] | str | Path | None") -> "ToolMap":
        """A ToolMap from a dict, a JSON file path, a JSON string, or None (built-in table only)."""
        if spec is None:
            return cls()
        if isinstance(spec, ToolMap):
            return spec
        source = None
        if isinstance(spec, (str, Path)):
            text = str(spec)
            if isinstance(spec, str) and text.lstrip().startswith("{"):
                source = "--tool-map"
            else:
                source = text
                try:
                    text = Path(spec).read_text(encoding="utf-8")
                except OSError as exc:
                    raise InputError(source, None, None, "a readable JSON tool map", f"{type(exc).__name__}: {exc}") from None
            try:
                spec = json.loads(text)
            except json.JSONDecodeError as exc:
                raise InputError(source, f"line {exc.lineno}", None, "a JSON object {tool_name: kind}", exc.msg) from None
        if not isinstance(spec, Mapping):
            raise InputError(source, None, None, "a JSON object {tool_name: kind}", type(spec).__name__)
        valid = ", ".join((*ACTION_KINDS, *EXTRA_KINDS))
        rules: dict[str, ToolRule] = {}
        for name, rule in spec.items():
            if isinstance(rule, str):
                kind, fields = rule, {}
            elif isinstance(rule, Mapping):
                kind = rule.get("kind")
                bad = [k for k in rule if k not in _MAP_KEYS]
                if bad:
                    raise InputError(source, None, f"{name}", f"keys among {', '.join(_MAP_KEYS)}", short(bad))
                fields = {k: str(v) for k, v in rule.items() if k != "kind" and v is not None}
            else:
                raise InputError(source, None, f"{name}", "a kind name or an object with 'kind'", short(rule))
            if kind not in ACTION_KINDS and kind not in EXTRA_KINDS:
                raise InputError(source, None, f"{name}.kind", f"one of {valid}", short(kind))
            rules[str(name)] = ToolRule(kind=kind, fields=fields)
        return cls(rules, source=source)

    def rule(self, tool: str) -> ToolRule | None:
        """The rule for a tool name: user rule (exact, then normalised), then the built-in table."""
        if tool in self.rules:
            return self.rules[tool]
        norm = normalise_tool_name(tool)
        for name, rule in self.rules.items():
            if normalise_tool_name(name) == norm:
                return rule
        kind = BUILTIN_TOOL_KINDS.get(norm)
        return ToolRule(kind) if kind else None


def _first(args: Mapping[str, Any], names: tuple[str, ...]) -> Any:
    for name in names:
        if name in args and args[name] not in (None, ""):
            return args[name]
    return None


def _text(value: Any) -> str | None:
    if value is None:
        return None
    if isinstance(value, (list, tuple)):
        return ", ".join(str(v) for v in value)
    if isinstance(value, (dict,)):
        return json.dumps(value, ensure_ascii=False, sort_keys=True)
    return str(value)


def _num(value: Any) -> float | None:
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


def _truthy(value: Any) -> bool:
    if isinstance(value, str):
        return value.strip().lower() in ("1", "true", "yes", "y")
    return bool(value)


def tool_action(name: str, args: Any, tool_map: ToolMap | None = None, *, raw: str = "") -> Action | None:
    """The Action for one tool call; None when the tool is mapped to ``skip``.

    >>> a = tool_action("click", {"element_id": "12", "element_name": "Go"})
    >>> a.kind, a.target.id, a.target.name
    ('click', '12', 'Go')
    >>> tool_action("browser_type", {"ref": "e5", "text": "shoes", "submit": True}).submit
    True
    >>> tool_action("zoom_in", {"level": 2}).kind, tool_action("zoom_in", {"level": 2}).args
    ('other', {'level': 2})
    """
    tool_map = tool_map or ToolMap()
    if not isinstance(args, Mapping):
        args = {} if args is None else {"input": args}
    rule = tool_map.rule(name)
    if rule is None:
        # a computer-use style call under another tool name
        if action_name(args) in _COMPUTER_NAMES:
            action = computer_action(dict(args), raw=raw)
            return None if action is None else action.model_copy(update={"tool": name})
        return Action(kind="other", raw=raw, tool=name, args=dict(args))
    if rule.kind == "skip":
        return None
    if rule.kind == "computer":
        action = computer_action(dict(args), raw=raw)
        if action is None:
            return None
        return action.model_copy(update={"tool": action.tool or name})
    kind = rule.kind
    f = rule.fields

    def pick(key: str, defaults: tuple[str, ...]) -> Any:
        if key in f:
            return args.get(f[key])
        return _first(args, defaults)

    coord = pick("coordinate", ("coordinate", "coordinates", "point"))
    x = pick("x", ("x",))
    y = pick("y", ("y",))
    if isinstance(coord, (list, tuple)) and len(coord) >= 2:
        x, y = coord[0], coord[1]
    element_id = pick("id", _ID_ARGS)
    target = Target(
        id=_text(element_id),
        role=_text(pick("role", _ROLE_ARGS)),
        name=_text(pick("name", _NAME_ARGS)),
        x=_num(x),
        y=_num(y),
    )
    value = _text(pick("value", _VALUE_ARGS.get(kind, ())))
    if kind == "scroll" and value is None:
        dy = _num(_first(args, ("delta_y", "dy", "scroll_y", "amount", "pixels")))
        value = "up" if (dy is not None and dy < 0) else "down"
        if normalise_tool_name(name).endswith("_up"):
            value = "up"
    submit = kind == "type" and _truthy(pick("submit", _SUBMIT_ARGS))
    keep_args = dict(args) if kind in ("other", "answer", "note") else None
    return Action(kind=kind, target=target, value=value, submit=submit, raw=raw, tool=name, args=keep_args)  # type: ignore[arg-type]


_COMPUTER_NAMES = frozenset(
    {
        "left_click",
        "right_click",
        "double_click",
        "triple_click",
        "mouse_move",
        "left_click_drag",
        "key",
        "type",
        "scroll",
        "screenshot",
        "visit_url",
        "web_search",
        "history_back",
        "pause_and_memorize_fact",
        "terminate",
        "wait",
    }
)

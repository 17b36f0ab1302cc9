"""BrowserGym action strings (``fill('162', 'x')``) to :class:`~trajmetrics.model.Action`.

The action API is Python call syntax, so calls are read with :mod:`ast`; a string that does not parse
(models do write unbalanced quotes) falls back to a tolerant split so a single bad quote does not lose the step.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from typing import Any

from ..model import Action, Target
from ._axtree import element_name

# BrowserGym function -> action kind. Functions taking an element id first are in _BID_FIRST.
KIND_OF: dict[str, str] = {
    "click": "click",
    "dblclick": "click",
    "fill": "type",
    "clear": "type",
    "select_option": "select",
    "press": "press",
    "keyboard_press": "press",
    "keyboard_type": "type",
    "keyboard_insert_text": "type",
    "hover": "hover",
    "scroll": "scroll",
    "goto": "goto",
    "go_back": "go_back",
    "go_forward": "go_forward",
    "new_tab": "new_tab",
    "tab_focus": "tab_focus",
    "tab_close": "close_tab",
    "send_msg_to_user": "answer",
    "report_infeasible": "answer",
    "noop": "wait",
    "mouse_click": "click",
    "mouse_dblclick": "click",
    "mouse_move": "hover",
    # this agent's own actions (MadeAgents/browser-agent): reading and computing, no UI effect
    "take_note": "note",
    "calculate": "note",
}
_BID_FIRST = {"click", "dblclick", "fill", "clear", "select_option", "press", "hover", "focus", "upload_file", "drag_and_drop"}
_ARG_NAMES: dict[str, tuple[str, ...]] = {
    "click": ("bid", "button", "modifiers"),
    "dblclick": ("bid", "button", "modifiers"),
    "fill": ("bid", "value"),
    "clear": ("bid",),
    "select_option": ("bid", "options"),
    "press": ("bid", "key_comb"),
    "hover": ("bid",),
    "focus": ("bid",),
    "upload_file": ("bid", "file"),
    "drag_and_drop": ("from_bid", "to_bid"),
    "keyboard_press": ("key",),
    "keyboard_type": ("text",),
    "keyboard_insert_text": ("text",),
    "scroll": ("delta_x", "delta_y"),
    "goto": ("url",),
    "tab_focus": ("index",),
    "send_msg_to_user": ("text",),
    "report_infeasible": ("reason",),
    "noop": ("wait_ms",),
    "mouse_click": ("x", "y", "button"),
    "mouse_dblclick": ("x", "y", "button"),
    "mouse_move": ("x", "y"),
    "take_note": ("text",),
    "calculate": ("expression",),
}
# an optional language tag counts only when a newline follows it: "```fill(...)```" has none
_FENCE = re.compile(r"^\s*```(?:[a-zA-Z]+[ \t]*\n)?\s*|\s*```\s*$")
_ACTION_TAG = re.compile(r"<action>(.*?)(?:</action>|$)", re.DOTALL | re.IGNORECASE)
_THINK_TAG = re.compile(r"<think>(.*?)(?:</think>|$)", re.DOTALL | re.IGNORECASE)
_CALL_HEAD = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*\((.*)\)\s*$", re.DOTALL)


@dataclass
class Call:
    """One parsed call: function name, positional and keyword arguments."""

    name: str
    args: list[Any] = field(default_factory=list)
    kwargs: dict[str, Any] = field(default_factory=dict)
    source: str = ""
    more: int = 0
    """How many further calls followed in the same action string (BrowserGym allows several)."""

    def arg(self, index: int, name: str, default: Any = None) -> Any:
        if name in self.kwargs:
            return self.kwargs[name]
        return self.args[index] if index < len(self.args) else default

    def named_args(self) -> dict[str, Any]:
        names = _ARG_NAMES.get(self.name, ())
        out = {(names[i] if i < len(names) else f"arg{i}"): v for i, v in enumerate(self.args)}
        out.update(self.kwargs)
        return out


def action_block(text: str) -> str | None:
    """The content of the last ``<action>...</action>`` block, or None when there is no such tag."""
    blocks = _ACTION_TAG.findall(text or "")
    return blocks[-1].strip() if blocks else None


def think_block(text: str) -> str | None:
    """The content of the first ``<think>...</think>`` block, stripped; None when absent or empty."""
    m = _THINK_TAG.search(text or "")
    return (m.group(1).strip() or None) if m else None


def strip_fence(text: str) -> str:
    """``\\`\\`\\`fill('1', 'x')\\`\\`\\``` -> ``fill('1', 'x')``."""
    return _FENCE.sub("", text or "").strip()


def _value(node: ast.AST) -> Any:
    try:
        return ast.literal_eval(node)
    except (ValueError, SyntaxError, TypeError):
        # a name or an expression (calculate(3 * 4)): keep the source text
        return ast.unparse(node)


def _split_args(inner: str) -> list[str]:
    # Top-level comma split that respects quotes and brackets, for calls ast cannot parse.
    parts, buf, quote, depth, i = [], [], "", 0, 0
    while i < len(inner):
        ch = inner[i]
        if quote:
            buf.append(ch)
            if ch == "\\" and i + 1 < len(inner):
                buf.append(inner[i + 1])
                i += 1
            elif ch == quote:
                quote = ""
        elif ch in "'\"":
            quote = ch
            buf.append(ch)
        elif ch in "([{":
            depth += 1
            buf.append(ch)
        elif ch in ")]}":
            depth -= 1
            buf.append(ch)
        elif ch == "," and depth == 0:
            parts.append("".join(buf).strip())
            buf = []
        else:
            buf.append(ch)
        i += 1
    if "".join(buf).strip():
        parts.append("".join(buf).strip())
    return parts


def _loose_value(text: str) -> Any:
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        if len(text) >= 2 and text[0] in "'\"":
            return text[1:-1] if text[-1] == text[0] else text[1:]
        return text


def parse_call(text: str) -> Call | None:
    """The first call in a BrowserGym action string (fences stripped); None if there is none.

    >>> c = parse_call("```fill('162', 'Niagara Falls, New York')```")
    >>> c.name, c.args
    ('fill', ['162', 'Niagara Falls, New York'])
    >>> parse_call("send_msg_to_user('it's 5')").args   # unbalanced quote: tolerant fallback
    ["it's 5"]
    """
    source = strip_fence(text)
    if not source:
        return None
    try:
        tree = ast.parse(source, mode="exec")
    except SyntaxError:
        tree = None
    if tree is not None:
        calls = [st.value for st in tree.body if isinstance(st, ast.Expr) and isinstance(st.value, ast.Call)]
        if calls and isinstance(calls[0].func, ast.Name):
            first = calls[0]
            return Call(
                name=first.func.id,
                args=[_value(a) for a in first.args],
                kwargs={k.arg: _value(k.value) for k in first.keywords if k.arg},
                source=ast.get_source_segment(source, first) or source,
                more=len(calls) - 1,
            )
        if tree.body:
            return None
    m = _CALL_HEAD.match(source)
    if m is None:
        return None
    name, inner = m.group(1), m.group(2)
    if name in ("send_msg_to_user", "report_infeasible", "take_note", "goto", "calculate"):
        # one free-text argument: everything between the parentheses, quotes removed
        inner = inner.strip()
        return Call(name=name, args=[_loose_value(inner)], source=source)
    args, kwargs = [], {}
    for part in _split_args(inner):
        key, eq, rest = part.partition("=")
        if eq and key.strip().isidentifier() and not part.lstrip().startswith(("'", '"')):
            kwargs[key.strip()] = _loose_value(rest.strip())
        else:
            args.append(_loose_value(part))
    return Call(name=name, args=args, kwargs=kwargs, source=source)


def _text(value: Any) -> str | None:
    if value is None:
        return None
    if isinstance(value, (list, tuple)):
        return ", ".join(str(v) for v in value)
    return str(value)


def _direction(dx: Any, dy: Any) -> str:
    try:
        x, y = float(dx or 0), float(dy or 0)
    except (TypeError, ValueError):
        return "down"
    if abs(y) >= abs(x):
        return "up" if y < 0 else "down"
    return "left" if x < 0 else "right"


def _num(value: Any) -> float | None:
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


def call_to_action(call: Call, *, raw: str, axtree: str | None = None) -> Action:
    """The Action for a parsed call; the element is resolved in ``axtree`` (the same record's tree) when given.

    Mapping: fill -> type (no submit), select_option -> select, send_msg_to_user -> answer with the message,
    report_infeasible -> answer ``N/A``, noop -> wait, take_note / calculate -> note, unknown -> other.
    """
    name = call.name
    kind = KIND_OF.get(name, "other")
    target = Target()
    value: str | None = None
    if name in _BID_FIRST:
        bid = call.arg(0, "bid") if name != "drag_and_drop" else call.arg(0, "from_bid")
        bid = None if bid is None else str(bid)
        role = label = None
        if bid is not None and axtree:
            role, label = element_name(axtree, bid)
        target = Target(id=bid, role=role, name=label)
    if name == "fill":
        value = _text(call.arg(1, "value"))
    elif name == "clear":
        value = ""
    elif name == "select_option":
        value = _text(call.arg(1, "options"))
    elif name == "press":
        value = _text(call.arg(1, "key_comb"))
    elif name == "keyboard_press":
        value = _text(call.arg(0, "key"))
    elif name in ("keyboard_type", "keyboard_insert_text"):
        value = _text(call.arg(0, "text"))
    elif name == "scroll":
        value = _direction(call.arg(0, "delta_x"), call.arg(1, "delta_y"))
    elif name == "goto":
        value = _text(call.arg(0, "url"))
    elif name == "tab_focus":
        value = _text(call.arg(0, "index"))
    elif name == "send_msg_to_user":
        value = _text(call.arg(0, "text"))
    elif name == "report_infeasible":
        value = "N/A"
    elif name in ("take_note", "calculate"):
        value = _text(call.args[0] if call.args else next(iter(call.kwargs.values()), None))
    elif name in ("mouse_click", "mouse_dblclick", "mouse_move"):
        target = Target(x=_num(call.arg(0, "x")), y=_num(call.arg(1, "y")))
    args = call.named_args() if kind == "other" or name in ("report_infeasible", "upload_file") else None
    return Action(kind=kind, target=target, value=value, raw=raw, tool=name, args=args)  # type: ignore[arg-type]


def parse_action(text: str, *, axtree: str | None = None) -> Action | None:
    """Parse one BrowserGym action string; None when it holds no call.

    >>> a = parse_action("click('431')", axtree="[431] link 'Bestsellers'")
    >>> a.kind, a.target.id, a.target.role, a.target.name
    ('click', '431', 'link', 'Bestsellers')
    """
    call = parse_call(text)
    if call is None:
        return None
    return call_to_action(call, raw=strip_fence(text), axtree=axtree)

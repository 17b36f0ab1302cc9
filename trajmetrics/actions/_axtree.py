"""Accessibility-tree text as BrowserGym and WebArena print it: one node a line, ``[id] role 'name' props``.

Both print the name with Python's ``repr``, so a name holding a single quote comes in double quotes and
private-use icon glyphs may come as ``\\ue644`` escapes; ``literal_eval`` undoes both.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

# A Python string literal in either quote style, with backslash escapes.
_LITERAL = r"'(?:[^'\\\n]|\\.)*'|\"(?:[^\"\\\n]|\\.)*\""
_NODE = re.compile(r"^(?P<indent>\t*)(?:\[(?P<id>[^\]\s]+)\]\s+)?(?P<role>[^\s,]+),?(?:\s+(?P<name>" + _LITERAL + r"))?(?P<rest>.*)$")
_NAME_CAP = 200


@dataclass(frozen=True)
class AxNode:
    """One parsed accessibility-tree line."""

    id: str | None
    role: str
    name: str
    depth: int
    rest: str


def literal(text: str) -> str:
    """The value of a quoted Python string literal; the text without its quotes if it does not parse."""
    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return text[1:-1] if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"" else text
    return value if isinstance(value, str) else str(value)


def parse_node(line: str) -> AxNode | None:
    """Parse one line; None for blank lines or lines that are not nodes."""
    if not line.strip():
        return None
    m = _NODE.match(line.rstrip("\r"))
    if m is None:
        return None
    name = m.group("name")
    return AxNode(
        id=m.group("id"),
        role=m.group("role"),
        name=literal(name) if name else "",
        depth=len(m.group("indent")),
        rest=m.group("rest") or "",
    )


def find_node(tree: str, node_id: str) -> tuple[AxNode, list[str], int] | None:
    """The node with this id, with the tree's lines and its line index (for looking at neighbours)."""
    marker = f"[{node_id}] "
    start = tree.find(marker)
    while start != -1:
        # only a match at the start of a line (after tabs) is the node itself, not a mention in a name
        line_start = tree.rfind("\n", 0, start) + 1
        if tree[line_start:start].strip("\t") == "":
            lines = tree.split("\n")
            index = tree.count("\n", 0, line_start)
            node = parse_node(lines[index])
            if node is not None and node.id == node_id:
                return node, lines, index
        start = tree.find(marker, start + 1)
    return None


def _children_text(lines: list[str], index: int, depth: int) -> str:
    # Text of the StaticText / LabelText descendants: what a sighted user reads on an unnamed element.
    parts: list[str] = []
    for line in lines[index + 1 :]:
        node = parse_node(line)
        if node is None:
            continue
        if node.depth <= depth:
            break
        if node.role in ("StaticText", "LabelText") and node.name.strip():
            parts.append(node.name.strip())
        if sum(len(p) for p in parts) > _NAME_CAP:
            break
    return " ".join(parts)[:_NAME_CAP]


def _sibling_label(lines: list[str], index: int, depth: int, step: int) -> str:
    # The adjacent sibling LabelText (a radio/checkbox whose label is a separate node).
    j = index + step
    while 0 <= j < len(lines):
        node = parse_node(lines[j])
        j += step
        if node is None:
            continue
        if node.depth != depth:
            if node.depth < depth:
                return ""
            continue  # a descendant of a sibling; keep looking for the sibling itself
        if node.role == "LabelText":
            return node.name.strip() or _children_text(lines, j - step, depth)
        return ""
    return ""


def element_name(tree: str, node_id: str) -> tuple[str | None, str | None]:
    """(role, name) of an element in a printed tree; (None, None) when the id is not in it.

    An empty name is filled from the element's own text children, else from an adjacent LabelText sibling,
    because BrowserGym prints `[179] radio ''` followed by `[180] LabelText 'Foot'`.

    >>> element_name("\\t[5] radio '', checked='false'\\n\\t[6] LabelText 'Foot'", "5")
    ('radio', 'Foot')
    >>> element_name("[7] LabelText ''\\n\\tStaticText 'Set yourself as busy'", "7")
    ('LabelText', 'Set yourself as busy')
    """
    found = find_node(tree, node_id)
    if found is None:
        return None, None
    node, lines, index = found
    name = node.name.strip()
    if not name:
        name = _children_text(lines, index, node.depth)
    if not name and node.role in ("radio", "checkbox", "switch", "textbox", "combobox", "searchbox", "spinbutton"):
        name = _sibling_label(lines, index, node.depth, +1) or _sibling_label(lines, index, node.depth, -1)
    return node.role, (name or None)


def describe_node(text: str) -> tuple[str | None, str | None, str | None]:
    """(id, role, name) from one printed node, e.g. WebArena's ``[1090] link 'Go to Advanced Reporting' url: ...``.

    >>> describe_node("[1090] link 'Go to Advanced Reporting \\\\ue644' url: http://x")
    ('1090', 'link', 'Go to Advanced Reporting \\ue644')
    """
    node = parse_node(text.strip().split("\n", 1)[0])
    if node is None:
        return None, None, None
    return node.id, node.role, (node.name.strip() or None)

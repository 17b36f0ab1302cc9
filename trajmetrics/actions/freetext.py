"""Free-text action descriptions from Online-Mind2Web ``result.json`` files to :class:`~trajmetrics.model.Action`.

Two styles occur:

- SeeAct / the OSU example: ``<element html> text -> OPERATION[: value]``, e.g. ``<button> Search -> CLICK``,
  ``<input> From -> TYPE: Boston``, ``<select> -> SELECT: 2``, ``-> PRESS ENTER``;
- computer-use agents: ``Click at (600, 475)``, ``Type "support services"``, ``Press ENTER``,
  ``Scroll (delta_x=0, delta_y=400)``, ``Navigate to https://...``, ``Navigate back``.

Anything else becomes ``other`` with the text kept in ``raw``.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

from ..model import Action, Target

_TAG_ROLES = {
    "a": "link",
    "button": "button",
    "input": "textbox",
    "textarea": "textbox",
    "select": "combobox",
    "option": "option",
    "img": "image",
    "label": "LabelText",
    "li": "listitem",
    "span": None,
    "div": None,
}
_INPUT_TYPES = {"checkbox": "checkbox", "radio": "radio", "submit": "button", "button": "button", "search": "searchbox"}
_OPS = {
    "CLICK": "click",
    "TYPE": "type",
    "SELECT": "select",
    "HOVER": "hover",
    "PRESS ENTER": "press",
    "ENTER": "press",
    "PRESS": "press",
    "SCROLL": "scroll",
    "SCROLL UP": "scroll",
    "SCROLL DOWN": "scroll",
}
_POINT = r"\(\s*(-?[\d.]+)\s*,\s*(-?[\d.]+)\s*\)"
_PATTERNS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"^(?:left[ _])?click(?:ed)?\s+(?:at|on)\s*" + _POINT, re.I), "click"),
    (re.compile(r"^(?:double|right|triple)[ _-]?click(?:ed)?\s+(?:at|on)\s*" + _POINT, re.I), "click"),
    (re.compile(r"^(?:hover|move(?: mouse)?)(?:ed)?\s+(?:at|to|over)\s*" + _POINT, re.I), "hover"),
    (re.compile(r"^type[ds]?\s*:?\s*(?P<q>[\"'])(?P<text>.*)(?P=q)\s*$", re.I | re.S), "type"),
    (re.compile(r"^type[ds]?\s*:?\s+(?P<text>.+)$", re.I | re.S), "type"),
    (re.compile(r"^(?:press(?:ed)?|key(?:press)?)\s*:?\s+(?P<key>.+)$", re.I), "press"),
    (re.compile(r"^scroll(?:ed)?\b(?P<rest>.*)$", re.I), "scroll"),
    (re.compile(r"^(?:navigate|go|went|navigated)\s+back\b", re.I), "go_back"),
    (re.compile(r"^(?:navigate|go|went|navigated)\s+forward\b", re.I), "go_forward"),
    (re.compile(r"^(?:navigate(?:d)?|go(?:ne)?|visit(?:ed)?|open(?:ed)?)\s+(?:to\s+)?(?P<url>https?://\S+|www\.\S+)", re.I), "goto"),
    (re.compile(r"^wait(?:ed)?\b", re.I), "wait"),
    (re.compile(r"^select(?:ed)?\s*:?\s+(?P<text>.+)$", re.I), "select"),
]


class _FirstTag(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tag: str | None = None
        self.attrs: dict[str, str] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.tag is None:
            self.tag = tag
            self.attrs = {k: v or "" for k, v in attrs}


def _element(text: str) -> Target:
    # "<input type="radio" aria-label="x"> Visible text" -> role and name
    text = text.strip()
    tag, attrs, rest = None, {}, text
    if text.startswith("<"):
        end = text.find(">")
        if end != -1:
            parser = _FirstTag()
            parser.feed(text[: end + 1])
            parser.close()
            tag, attrs, rest = parser.tag, parser.attrs, text[end + 1 :]
    role = attrs.get("role") or None
    if role is None and tag:
        role = _TAG_ROLES.get(tag, None)
        if tag == "input":
            role = _INPUT_TYPES.get(attrs.get("type", "").lower(), "textbox")
    name = rest.strip() or attrs.get("aria-label") or attrs.get("title") or attrs.get("placeholder") or attrs.get("alt")
    name = attrs.get("name") if not name and tag in ("input", "select", "textarea") else name
    return Target(role=role, name=(name or None))


def _direction(rest: str) -> str:
    low = rest.lower()
    for word in ("up", "down", "left", "right"):
        if re.search(r"\b" + word + r"\b", low):
            return word
    m = re.search(r"delta_y\s*=\s*(-?[\d.]+)", low)
    if m:
        return "up" if float(m.group(1)) < 0 else "down"
    m = re.search(r"delta_x\s*=\s*(-?[\d.]+)", low)
    if m and float(m.group(1)) != 0:
        return "left" if float(m.group(1)) < 0 else "right"
    return "down"


def _key(key: str) -> str:
    key = key.strip().strip("'\"")
    return {"ENTER": "Enter", "RETURN": "Enter"}.get(key.upper(), key)


def parse_freetext_action(text: str) -> Action:
    """Parse one ``action_history`` entry.

    >>> a = parse_freetext_action("<input> From -> TYPE: Boston")
    >>> a.kind, a.target.role, a.target.name, a.value
    ('type', 'textbox', 'From', 'Boston')
    >>> a = parse_freetext_action("Click at (600, 475)")
    >>> a.kind, a.target.x, a.target.y
    ('click', 600.0, 475.0)
    >>> parse_freetext_action("Press ENTER").value
    'Enter'
    """
    raw = text if isinstance(text, str) else str(text)
    stripped = raw.strip()
    if " -> " in stripped or stripped.startswith("->"):
        element, _, op = stripped.rpartition("->")
        op = op.strip()
        verb, _, value = op.partition(":")
        verb = verb.strip().upper()
        kind = _OPS.get(verb)
        if kind is not None:
            target = _element(element) if element.strip() else Target()
            val = value.strip() if value.strip() else None
            if kind == "press":
                val = _key(val or ("Enter" if "ENTER" in verb else ""))
            elif kind == "scroll":
                val = _direction(verb + " " + (val or ""))
            return Action(kind=kind, target=target, value=val, raw=raw)  # type: ignore[arg-type]
    for pattern, kind in _PATTERNS:
        m = pattern.match(stripped)
        if m is None:
            continue
        groups = m.groupdict()
        if kind in ("click", "hover") and m.lastindex and m.lastindex >= 2 and "text" not in groups:
            return Action(kind=kind, target=Target(x=float(m.group(1)), y=float(m.group(2))), raw=raw)  # type: ignore[arg-type]
        if kind == "type":
            return Action(kind="type", value=groups["text"], raw=raw)
        if kind == "press":
            return Action(kind="press", value=_key(groups["key"]), raw=raw)
        if kind == "scroll":
            return Action(kind="scroll", value=_direction(groups["rest"]), raw=raw)
        if kind == "goto":
            return Action(kind="goto", value=groups["url"], raw=raw)
        if kind == "select":
            return Action(kind="select", value=groups["text"].strip(), raw=raw)
        return Action(kind=kind, raw=raw)  # type: ignore[arg-type]
    return Action(kind="other", raw=raw)

"""Computer-use dicts, tool calls with the tool map, and Online-Mind2Web free text."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from trajmetrics.actions.computer import computer_action
from trajmetrics.actions.freetext import parse_freetext_action
from trajmetrics.actions.tools import ToolMap, normalise_tool_name, tool_action
from trajmetrics.errors import InputError


@pytest.mark.parametrize(
    ("data", "kind", "value", "xy"),
    [
        ({"type": "click", "x": 1, "y": 2, "button": "left"}, "click", None, (1.0, 2.0)),
        ({"type": "double_click", "x": 1, "y": 2}, "click", None, (1.0, 2.0)),
        ({"type": "click", "x": 0, "y": 0, "button": "back"}, "go_back", None, (None, None)),
        ({"type": "keypress", "keys": ["CTRL", "L"]}, "press", "CTRL+L", (None, None)),
        ({"type": "keypress", "keys": ["ENTER"]}, "press", "Enter", (None, None)),
        ({"type": "scroll", "x": 5, "y": 5, "scroll_x": 0, "scroll_y": -200}, "scroll", "up", (5.0, 5.0)),
        ({"type": "type", "text": "hi"}, "type", "hi", (None, None)),
        ({"type": "move", "x": 3, "y": 4}, "hover", None, (3.0, 4.0)),
        ({"type": "wait"}, "wait", None, (None, None)),
        ({"action": "left_click", "coordinate": [10, 20]}, "click", None, (10.0, 20.0)),
        ({"action": "key", "text": "Return"}, "press", "Enter", (None, None)),
        ({"action": "scroll", "coordinate": [1, 1], "scroll_direction": "down", "scroll_amount": 3}, "scroll", "down", (1.0, 1.0)),
        ({"action": "mouse_move", "coordinate": [7, 8]}, "hover", None, (7.0, 8.0)),
        ({"action": "scroll", "pixels": 400}, "scroll", "up", (None, None)),  # Fara: positive is up
        ({"action": "visit_url", "url": "https://a.test"}, "goto", "https://a.test", (None, None)),
        ({"action": "web_search", "query": "mugs"}, "type", "mugs", (None, None)),
        ({"action": "history_back"}, "go_back", None, (None, None)),
        ({"action": "pause_and_memorize_fact", "fact": "5 USD"}, "note", "5 USD", (None, None)),
        ({"action": "terminate", "status": "success"}, "answer", None, (None, None)),
        ({"action": "refresh"}, "other", None, (None, None)),
    ],
)
def test_computer_action(data: dict, kind: str, value: str | None, xy: tuple) -> None:
    action = computer_action(data)
    assert action is not None
    assert (action.kind, action.value, (action.target.x, action.target.y)) == (kind, value, xy)


def test_computer_observations_are_skipped() -> None:
    assert computer_action({"type": "screenshot"}) is None
    assert computer_action({"action": "cursor_position"}) is None
    typed = computer_action({"action": "type", "text": "x", "press_enter": True})
    assert typed is not None and typed.submit is True
    assert computer_action({"foo": 1}).kind == "other"  # type: ignore[union-attr]


def test_tool_names_normalise() -> None:
    assert normalise_tool_name("mcp__playwright__browser_click") == "click"
    assert normalise_tool_name("browser_navigate_back") == "navigate_back"
    assert normalise_tool_name("Go-To-URL") == "go_to_url"


@pytest.mark.parametrize(
    ("name", "args", "kind", "value", "target"),
    [
        ("click_element", {"index": 13, "element": "Go button"}, "click", None, ("13", "Go button")),
        ("input_text", {"index": 12, "text": "mug"}, "type", "mug", ("12", None)),
        ("browser_type", {"ref": "e5", "element": "Search", "text": "mug", "submit": True}, "type", "mug", ("e5", "Search")),
        ("select_option", {"element_id": "9", "option": "Blue"}, "select", "Blue", ("9", None)),
        ("browser_select_option", {"ref": "e1", "values": ["A", "B"]}, "select", "A, B", ("e1", None)),
        ("press_key", {"key": "Enter"}, "press", "Enter", (None, None)),
        ("browser_navigate", {"url": "http://a.test"}, "goto", "http://a.test", (None, None)),
        ("go_back", {}, "go_back", None, (None, None)),
        ("scroll_down", {}, "scroll", "down", (None, None)),
        ("scroll_up", {}, "scroll", "up", (None, None)),
        ("done", {"text": "42", "success": True}, "answer", "42", (None, None)),
        ("terminate", {"answer": "N/A"}, "answer", "N/A", (None, None)),
        ("wait", {"seconds": 2}, "wait", None, (None, None)),
        ("take_note", {"note": "five"}, "note", "five", (None, None)),
    ],
)
def test_builtin_tools(name: str, args: dict, kind: str, value: str | None, target: tuple) -> None:
    action = tool_action(name, args)
    assert action is not None
    assert (action.kind, action.value, (action.target.id, action.target.name)) == (kind, value, target)
    assert action.tool == name


def test_unmapped_skip_and_computer_tools() -> None:
    other = tool_action("zoom_in", {"level": 2})
    assert other is not None and (other.kind, other.tool, other.args) == ("other", "zoom_in", {"level": 2})
    assert tool_action("take_screenshot", {}) is None
    comp = tool_action("computer", {"action": "left_click", "coordinate": [3, 4]})
    assert comp is not None and (comp.kind, comp.target.x) == ("click", 3.0)
    # a computer-use call under an unknown tool name is still read as one
    comp = tool_action("gui", {"action": "left_click", "coordinate": [3, 4]})
    assert comp is not None and comp.kind == "click" and comp.tool == "gui"
    submit = tool_action("type", {"text": "x", "press_enter": "true"})
    assert submit is not None and submit.submit is True
    assert tool_action("type", "raw text").args is None  # type: ignore[union-attr]


def test_tool_map_file_and_arg_mapping(tmp_path: Path) -> None:
    path = tmp_path / "map.json"
    path.write_text(json.dumps({"enter_value": {"kind": "type", "value": "content", "id": "node", "submit": "go"}, "click": "hover"}))
    tmap = ToolMap.load(path)
    action = tool_action("enter_value", {"content": "abc", "node": 7, "go": 1}, tmap)
    assert action is not None and (action.kind, action.value, action.target.id, action.submit) == ("type", "abc", "7", True)
    overridden = tool_action("click", {"element_id": "1"}, tmap)
    assert overridden is not None and overridden.kind == "hover"  # user rules win over the built-in table
    assert ToolMap.load({"x": "skip"}).rule("x").kind == "skip"  # type: ignore[union-attr]
    assert ToolMap.load('{"x": "note"}').rule("x").kind == "note"  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ({"x": "klick"}, "x.kind: expected one of click,"),
        ({"x": {"kind": "type", "colour": "v"}}, "x: expected keys among kind, value"),
        ({"x": 3}, "x: expected a kind name or an object with 'kind', found 3"),
        ("[1, 2]", "expected a JSON object {tool_name: kind}, found list"),
        ("{broken", "line 1: expected a JSON object"),
    ],
)
def test_tool_map_errors(spec: object, message: str) -> None:
    with pytest.raises(InputError) as info:
        ToolMap.load(spec if not isinstance(spec, str) or spec.startswith("{") else json.loads(spec))  # type: ignore[arg-type]
    assert message in str(info.value)


def test_tool_map_missing_file(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="expected a readable JSON tool map"):
        ToolMap.load(tmp_path / "nope.json")


@pytest.mark.parametrize(
    ("text", "kind", "value", "target"),
    [
        ("<input aria-label=\"Search the catalog\"> -> TYPE: library hours", "type", "library hours", ("textbox", "Search the catalog")),
        ("<button> Search -> CLICK", "click", None, ("button", "Search")),
        ("<div role=\"button\"> -> CLICK", "click", None, ("button", None)),
        ("<a href=\"/x\"> Hours -> HOVER", "hover", None, ("link", "Hours")),
        ("<select name=\"branch\"> -> SELECT: Main St", "select", "Main St", ("combobox", "branch")),
        ("<input type=\"checkbox\"> Agree -> CLICK", "click", None, ("checkbox", "Agree")),
        ("-> PRESS ENTER", "press", "Enter", (None, None)),
        ("Type \"support services\"", "type", "support services", (None, None)),
        ("Press ENTER", "press", "Enter", (None, None)),
        ("Scroll (delta_x=0, delta_y=-400)", "scroll", "up", (None, None)),
        ("Navigate to https://careers.test/", "goto", "https://careers.test/", (None, None)),
        ("Navigate back", "go_back", None, (None, None)),
        ("Something else entirely", "other", None, (None, None)),
    ],
)
def test_freetext(text: str, kind: str, value: str | None, target: tuple) -> None:
    action = parse_freetext_action(text)
    assert (action.kind, action.value, (action.target.role, action.target.name)) == (kind, value, target)
    assert action.raw == text


def test_freetext_coordinates() -> None:
    action = parse_freetext_action("Click at (600, 475)")
    assert (action.kind, action.target.x, action.target.y) == ("click", 600.0, 475.0)

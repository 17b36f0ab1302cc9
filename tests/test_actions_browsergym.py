"""BrowserGym action strings and accessibility-tree element resolution."""

from __future__ import annotations

import pytest

from trajmetrics.actions._axtree import describe_node, element_name, parse_node
from trajmetrics.actions.browsergym import action_block, parse_action, parse_call, strip_fence, think_block

TREE = (
    "RootWebArea 'Shop', focused\n"
    "\t[12] textbox 'Search', focused\n"
    "\t[13] button 'Go'\n"
    "\t[19] group ''\n"
    "\t\t[20] radio '', checked='false'\n"
    "\t\t[21] LabelText 'Express'\n"
    "\t[30] link ''\n"
    "\t\tStaticText 'Blue mug'\n"
    "\t[31] link \"Kid's mug\"\n"
    "\t[32] LabelText ''\n"
    "\t\tStaticText 'Set yourself as busy'\n"
    "\t[33] StaticText 'see [12] above'\n"
    "\t[2706] generic, live='assertive'\n"
    "\t[40] link 'Go to \\ue644 Reports'\n"
)


@pytest.mark.parametrize(
    ("text", "name", "args"),
    [
        ("```fill('162', 'Niagara Falls, New York')```", "fill", ["162", "Niagara Falls, New York"]),
        ('```click("179")```', "click", ["179"]),
        ("```python\nclick('5')\n```", "click", ["5"]),
        ("select_option('749', ['Month', 'Year'])", "select_option", ["749", ["Month", "Year"]]),
        ("send_msg_to_user(\"Line 1\\nLine 2\")", "send_msg_to_user", ["Line 1\nLine 2"]),
        ("send_msg_to_user('it's broken')", "send_msg_to_user", ["it's broken"]),
        ("calculate(3 * 4.5)", "calculate", ["3 * 4.5"]),
        ("go_back()", "go_back", []),
    ],
)
def test_parse_call(text: str, name: str, args: list) -> None:
    call = parse_call(text)
    assert call is not None
    assert (call.name, call.args) == (name, args)


def test_parse_call_keywords_and_several_calls() -> None:
    call = parse_call("click('5', button='right')\nfill('6', 'x')")
    assert call is not None
    assert call.kwargs == {"button": "right"}
    assert call.more == 1
    assert parse_call("") is None
    assert parse_call("just some words") is None


def test_blocks() -> None:
    text = "<think>\nWhy.\n</think>\n<action>\n```click('13')```\n</action>"
    assert think_block(text) == "Why."
    assert action_block(text) == "```click('13')```"
    assert strip_fence(action_block(text)) == "click('13')"
    assert action_block("no tags") is None
    assert think_block("<think>  </think>") is None
    # an unclosed tag still yields its text
    assert action_block("<action>```noop()```") == "```noop()```"


@pytest.mark.parametrize(
    ("text", "kind", "value", "target"),
    [
        ("fill('12', 'blue mug')", "type", "blue mug", ("12", "textbox", "Search")),
        ("clear('12')", "type", "", ("12", "textbox", "Search")),
        ("select_option('12', ['A', 'B'])", "select", "A, B", ("12", "textbox", "Search")),
        ("press('12', 'Enter')", "press", "Enter", ("12", "textbox", "Search")),
        ("click('20')", "click", None, ("20", "radio", "Express")),
        ("click('30')", "click", None, ("30", "link", "Blue mug")),
        ("click('31')", "click", None, ("31", "link", "Kid's mug")),
        ("click('32')", "click", None, ("32", "LabelText", "Set yourself as busy")),
        ("hover('13')", "hover", None, ("13", "button", "Go")),
        ("click('999')", "click", None, ("999", None, None)),
        ("send_msg_to_user('$12.50')", "answer", "$12.50", (None, None, None)),
        ("report_infeasible('site down')", "answer", "N/A", (None, None, None)),
        ("noop(500)", "wait", None, (None, None, None)),
        ("goto('http://x.test/a')", "goto", "http://x.test/a", (None, None, None)),
        ("go_back()", "go_back", None, (None, None, None)),
        ("go_forward()", "go_forward", None, (None, None, None)),
        ("new_tab()", "new_tab", None, (None, None, None)),
        ("tab_focus(2)", "tab_focus", "2", (None, None, None)),
        ("tab_close()", "close_tab", None, (None, None, None)),
        ("scroll(0, 300)", "scroll", "down", (None, None, None)),
        ("scroll(0, -300)", "scroll", "up", (None, None, None)),
        ("keyboard_press('Enter')", "press", "Enter", (None, None, None)),
        ("keyboard_type('hi')", "type", "hi", (None, None, None)),
        ("take_note('price is 5')", "note", "price is 5", (None, None, None)),
        ("calculate('2+3')", "note", "2+3", (None, None, None)),
    ],
)
def test_action_mapping(text: str, kind: str, value: str | None, target: tuple) -> None:
    action = parse_action(text, axtree=TREE)
    assert action is not None
    assert action.kind == kind
    assert action.value == value
    assert (action.target.id, action.target.role, action.target.name) == target
    assert action.submit is False  # fill never submits
    assert action.raw == text


def test_unknown_and_coordinate_actions() -> None:
    other = parse_action("drag_and_drop('1', '2')")
    assert other is not None and other.kind == "other"
    assert other.tool == "drag_and_drop" and other.args == {"from_bid": "1", "to_bid": "2"}
    mouse = parse_action("mouse_click(10, 20.5)")
    assert mouse is not None and (mouse.kind, mouse.target.x, mouse.target.y) == ("click", 10.0, 20.5)
    unknown = parse_action("frobnicate(1, mode='x')")
    assert unknown is not None and unknown.kind == "other" and unknown.args == {"arg0": 1, "mode": "x"}


def test_axtree_helpers() -> None:
    node = parse_node("\t\t[20] radio '', checked='false'")
    assert node is not None and (node.id, node.role, node.name, node.depth) == ("20", "radio", "", 2)
    # a mention of [12] inside another node's name is not the node
    assert element_name("\t[33] StaticText 'see [12] above'", "12") == (None, None)
    assert element_name(TREE, "2706") == ("generic", None)
    assert element_name(TREE, "40") == ("link", "Go to \ue644 Reports")
    assert describe_node("[1090] link 'Go to Advanced Reporting' url: http://x") == ("1090", "link", "Go to Advanced Reporting")
    assert describe_node("") == (None, None, None)

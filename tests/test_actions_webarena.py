"""WebArena action strings: the model's planned block and the environment's recorded description."""

from __future__ import annotations

import pytest

from trajmetrics.actions.webarena import backtick_blocks, is_early_stop, is_error_stop, parse_action, planned_block


def test_blocks_last_and_first() -> None:
    text = "Maybe ```click [40]```. In summary, the next action I will perform is ```type [35] [mug] [0]```"
    assert backtick_blocks(text) == ["click [40]", "type [35] [mug] [0]"]
    assert planned_block(text) == "type [35] [mug] [0]"
    assert planned_block(text, "first") == "click [40]"
    assert planned_block("no block") is None
    assert planned_block(None) is None


@pytest.mark.parametrize(
    ("text", "planned", "expected"),
    [
        ("type [35] [Randyland] [1]", True, ("type", "35", "Randyland", True)),
        ("type [35] [Randyland] [0]", True, ("type", "35", "Randyland", False)),
        ("type [35] [Randyland]", True, ("type", "35", "Randyland", True)),  # flag defaults to 1
        ("type [35] [a [b] c] [0]", True, ("type", "35", "a [b] c", False)),
        ("type [35] [Randyland\n] where [35] is [35] textbox 'To' required: False", False, ("type", "35", "Randyland", True)),
        ("type [35] [Randyland] where [35] is [35] textbox 'To'", False, ("type", "35", "Randyland", False)),
        ("type [35] [Randyland]", False, ("type", "35", "Randyland", True)),  # bare sheet text: read as a plan
        ("click [1090]", True, ("click", "1090", None, False)),
        ("hover [7] where [7] is menuitem 'Women'", False, ("hover", "7", None, False)),
    ],
)
def test_element_actions(text: str, planned: bool, expected: tuple) -> None:
    action, error = parse_action(text, planned=planned)
    assert action is not None and error is None
    assert (action.kind, action.target.id, action.value, action.submit) == expected
    assert action.raw == text.strip()


def test_description_gives_role_and_name() -> None:
    action, _ = parse_action("click [1090] where [1090] is [1090] link 'Go to Advanced Reporting \\ue644' url: http://x/")
    assert action is not None
    assert (action.target.role, action.target.name) == ("link", "Go to Advanced Reporting \ue644")
    action, _ = parse_action("hover [7] where [7] is menuitem \"Kid's\"")
    assert action is not None and (action.target.role, action.target.name) == ("menuitem", "Kid's")


def test_missing_elements_are_errors() -> None:
    action, error = parse_action("click [99] where [99] is No match found")
    assert action is not None and action.target.id == "99" and error == "no matching element found"
    action, error = parse_action('Attempt to perfom "type" on element "[12]" but no matching element found. Please check.')
    assert action is not None and (action.kind, action.target.id) == ("type", "12")
    assert error == "no matching element found"


@pytest.mark.parametrize(
    ("text", "kind", "value"),
    [
        ("press [Meta+Enter]", "press", "Meta+Enter"),
        ("scroll [down]", "scroll", "down"),
        ("scroll [direction=up]", "scroll", "up"),
        ("goto [http://x.test/a?b=1]", "goto", "http://x.test/a?b=1"),
        ("new_tab", "new_tab", None),
        ("close_tab", "close_tab", None),
        ("go_back", "go_back", None),
        ("go_forward", "go_forward", None),
        ("tab_focus [1]", "tab_focus", "1"),
        ("page_focus [2]", "tab_focus", "2"),
        ("stop [Quest Lumaflex™ Band]", "answer", "Quest Lumaflex™ Band"),
        ("stop [N/A]", "answer", "N/A"),
        ("stop []", "answer", ""),
        ("stop [Early stop: Failed to parse actions for 3 times]", "other", "Early stop: Failed to parse actions for 3 times"),
        ("stop [ERROR: model call failed]", "other", "ERROR: model call failed"),
    ],
)
def test_page_actions(text: str, kind: str, value: str | None) -> None:
    action, error = parse_action(text)
    assert action is not None and error is None
    assert (action.kind, action.value) == (kind, value)


def test_stops_and_nothing() -> None:
    assert is_early_stop("stop [Early stop: Same action for 3 times]")
    assert not is_early_stop("stop [early]")
    assert is_error_stop("stop [ERROR: x]")
    action, error = parse_action("none")
    assert action is not None and action.kind == "other" and error
    assert parse_action("") == (None, None)
    assert parse_action(None) == (None, None)
    assert parse_action("!!!") == (None, None)
    assert parse_action("dance [3]") == (None, None)

"""The gold step parser: many phrasings (hand-written), and coverage on the real human gold (shared data)."""

from __future__ import annotations

from collections import Counter

import pytest

from trajmetrics.actions.gold_text import parse_gold_step
from trajmetrics.model import ACTION_KINDS

# text, kind, target name, role, value: every field must equal exactly (None means "must be None")
CASES = [
    # clicks: quote kinds, role before/after the name, purpose clauses, context after the name
    ("Click on the 'Issues' link", "click", "Issues", "link", None),
    ('Click on the "Issues" link', "click", "Issues", "link", None),
    ("Click on the \u2018Issues\u2019 link", "click", "Issues", "link", None),
    ("Click on the \u201cIssues\u201d link", "click", "Issues", "link", None),
    ("Click on the `Issues` link", "click", "Issues", "link", None),
    ("Click on the Issues link", "click", "Issues", "link", None),
    ("Click on the link 'New issue' to navigate to the issue creation page.", "click", "New issue", "link", None),
    ("Click on the link 'books' link", "click", "books", "link", None),
    ("Click on the link labeled 'Reviews (12)' ", "click", "Reviews (12)", "link", None),
    ("Click the 'Create issue' button to finalize the creation of the issue.", "click", "Create issue", "button", None),
    ("Click 'Apply Filters' button", "click", "Apply Filters", "button", None),
    ("Click on the 'View Order' link for order  #000000156", "click", "View Order", "link", None),
    ("Click on the 'Use template' near the 'Pages/Jekyll' link", "click", "Use template", None, None),
    ("Click '2' next page button", "click", "2", "button", None),
    ("Click on the 'Edit' link in the 'Action' Column next to Valorie's review", "click", "Edit", "link", None),
    ("Click on the 'Kids' Bedding' link", "click", "Kids' Bedding", "link", None),
    ("Click on the 'Children's Dental Care' link", "click", "Children's Dental Care", "link", None),
    ('Click on the "Mister Rogers\' Neighborhood" link', "click", "Mister Rogers' Neighborhood", "link", None),
    ("Click 'Users\" button", "click", "Users", "button", None),
    ("Click on the link 'Issues'link", "click", "Issues", "link", None),
    ("Click on the 'Stanford University link", "click", "Stanford University", "link", None),
    ("Click on the Atomic Endurance Running Tee (V-neck)-XS-Blue' link", "click",
     "Atomic Endurance Running Tee (V-neck)-XS-Blue", "link", None),
    ("Click on the 'Shell' lin", "click", "Shell", "link", None),
    ("Click on the 'Create project' bottun", "click", "Create project", "button", None),
    ("Click on the first result", "click", "first result", None, None),
    ("Click ofn the first result", "click", "first result", None, None),
    ("Click on the 'Private' radio button", "click", "Private", "radio", None),
    ("Click on the 'Hot' dropdown", "click", "Hot", "combobox", None),
    ("Click on the 'Home & Kitchen' menu item", "click", "Home & Kitchen", "menuitem", None),
    ("Click inside the 'To' Textbox", "click", "To", "textbox", None),
    ("Click on the search bar to activate it", "click", None, "searchbox", None),
    ("Click on the suggestion 'Vinta Chen'", "click", "Vinta Chen", "option", None),
    ('Click "Abishek S" from the options in the  \'Search Gitlab\' textbox', "click", "Abishek S", "option", None),
    ("From the dropdown, click on the 'dotfiles in all Gitlab' ", "click", "dotfiles in all Gitlab", "option", None),
    ("Under the 'Reviews' section, click on the 'By Product' ", "click", "By Product", None, None),
    ("under the 'Sales' section click on the 'Orders' link  ", "click", "Orders", "link", None),
    ("Click the content of the post titled 'Museum issues appeal' to determine if it recommends a book",
     "click", "Museum issues appeal", None, None),
    ("Double click on the 'Tokyo Japanese Food Store' element on the map", "click", "Tokyo Japanese Food Store", None, None),
    # typos in the verb
    ("Clicl on the \"astro-gaming-a50\" link", "click", "astro-gaming-a50", "link", None),
    ("Clock '1925' fron the  'Year' dropdown", "click", "1925", "option", None),
    ("click 'Go' button", "click", "Go", "button", None),
    # back
    ("Go back", "go_back", None, None, None),
    ("Go Back", "go_back", None, None, None),
    ("Click 'go back'", "go_back", None, None, None),
    ("Click Back", "go_back", None, None, None),
    ("Go forward", "go_forward", None, None, None),
    # typing
    ("Type '404 for many URLs' into the 'Title' textbox.", "type", "Title", "textbox", "404 for many URLs"),
    ("Type 'Let's keep the project alive' into the 'Title (required)' textbox.", "type", "Title (required)", "textbox",
     "Let's keep the project alive"),
    ("Type 'Wendy's, pittsburgh' into the 'search' textbox.", "type", "search", "textbox", "Wendy's, pittsburgh"),
    ('Type "Vinta" in the "Username or email address" search box', "type", "Username or email address", "searchbox",
     "Vinta"),
    ("Type 'xbox' into the search bar", "type", None, "searchbox", "xbox"),
    ('Type "Henning Leutz" in the seach bar ', "type", None, "searchbox", "Henning Leutz"),
    ("Type '01/01/2022' in the 'From' date textbox ", "type", "From", "textbox", "01/01/2022"),
    ("Type '19.80' into the textbox 'Price'", "type", "Price", "textbox", "19.80"),
    ("Type ''Canon photo printer' into the search bar.", "type", None, "searchbox", "Canon photo printer"),
    ("Type 'Columbia University into the search textbox ", "type", None, "searchbox", "Columbia University"),
    ("Type Gates Center for Computer Science' into the 'From' textbox.", "type", "From", "textbox",
     "Gates Center for Computer Science"),
    ("Type 'chair' to in the searchbox", "type", None, "searchbox", "chair"),
    ("Type 'police Pittsburgh'", "type", None, None, "police Pittsburgh"),
    ("Type in the 'City' textbox 'San Francisco'", "type", "City", "textbox", "San Francisco"),
    ("Type it the 'Street Address' textbox '789 Pine Lane'", "type", "Street Address", "textbox", "789 Pine Lane"),
    ("Type in the  'Short Description' textbox: \"Great value\"", "type", "Short Description", "textbox", "Great value"),
    ("Type the following message into the 'What\u2019s on your mind?' textbox: 'Refund 12.99$'.", "type",
     "What\u2019s on your mind?", "textbox", "Refund 12.99$"),
    ("In the 'Comment' textbox type: 'Yo, your order will be shipped soon!'", "type", "Comment", "textbox",
     "Yo, your order will be shipped soon!"),
    ("In the 'Product' filter type 'Tank'", "type", "Product", None, "Tank"),
    ('In the "File Name" textbox type real_space/urls.txt', "type", "File Name", "textbox", "real_space/urls.txt"),
    ('In the textbox paste: "https://www.cnbc.com/a.html"', "type", None, "textbox", "https://www.cnbc.com/a.html"),
    ("Type:  Copyright (C) 2025 MIT", "type", None, None, "Copyright (C) 2025 MIT"),
    ('Type instead: "Hello"', "type", None, None, "Hello"),
    ("Type 'don't panic' into the textbox described by 'reply_to_comment_1_help'.", "type", "reply_to_comment_1_help",
     "textbox", "don't panic"),
    ("Enter 'abc' in the 'Search' field", "type", "Search", "textbox", "abc"),
    ("Tpye 'abc' into the 'Search' textbox", "type", "Search", "textbox", "abc"),
    # clearing is typing nothing (as BrowserGym's clear)
    ("Clear the 'City' textbox", "type", "City", "textbox", ""),
    ("Clear the content in the 'Search Gitlab' textbox", "type", "Search Gitlab", "textbox", ""),
    ("Delete the content", "type", None, None, ""),
    ("Delete the text between the <title> and </title>", "type", None, None, ""),
    # keys
    ("Press enter", "press", None, None, "Enter"),
    ("Press 'Enter'", "press", None, None, "Enter"),
    ("Press 'Enter", "press", None, None, "Enter"),
    ("Press the Enter key", "press", None, None, "Enter"),
    ("Hit enter", "press", None, None, "Enter"),
    ("Press 'delete'", "press", None, None, "Delete"),
    ("Press Ctrl + A", "press", None, None, "Control+a"),
    ("Press Tab", "press", None, None, "Tab"),
    ("Select the text", "press", None, None, "Control+a"),
    # "press" on an element is a click
    ("Press 'Go'", "click", "Go", None, None),
    ("Press the 'Go' button", "click", "Go", "button", None),
    ("press the 'Search or filter results' textbox", "click", "Search or filter results", "textbox", None),
    # select
    ("Select the 'Foot (OSRM)' option from the combobox.", "select", None, "combobox", "Foot (OSRM)"),
    ("Select the option 'Car (OSRM)' from the transportation mode combobox.", "select", "transportation mode",
     "combobox", "Car (OSRM)"),
    ("Select 'Year' from the 'Period' dropdown menu", "select", "Period", "combobox", "Year"),
    ("Select the 'Period' dropdown and choose 'Year'.", "select", "Period", "combobox", "Year"),
    ("Select the 'Status' dropdown and choose the 'Canceled' option.", "select", "Status", "combobox", "Canceled"),
    ("from the 'Period' dropdown select the 'Month' option ", "select", "Period", "combobox", "Month"),
    ("From the 'Created date' dropdown select 'Update date'", "select", "Created date", "combobox", "Update date"),
    ('From the dropdown "Select a role" chose "Developer"', "select", "Select a role", "combobox", "Developer"),
    ('From the :"Hot" dropdown select "New"', "select", "Hot", "combobox", "New"),
    ("Select 'BUG' fron the dropdown", "select", None, "combobox", "BUG"),
    ("Select the 'Relevance' option from the 'Sort By' dropdown menu and select 'Price'", "select", "Sort By",
     "combobox", "Price"),
    ("Select the blank option from the 'Size' dropdown", "select", "Size", "combobox", ""),
    ("Select all options under the 'Customer Groups' listbox ", "select", "Customer Groups", "listbox", "all"),
    ("Select the 'Primer' option", "select", None, None, "Primer"),
    ("Slect 'Year' from the 'Period' dropdown", "select", "Period", "combobox", "Year"),
    ("Choose 'Car' from the combobox", "select", None, "combobox", "Car"),
    # selecting or marking toggles is clicking them
    ("Select the radio button 'Commit to main branch' ", "click", "Commit to main branch", "radio", None),
    ("Select the 'Private' radio button", "click", "Private", "radio", None),
    ('Mark the checkbox "Blue"', "click", "Blue", "checkbox", None),
    ("Check the 'Remember me' checkbox", "click", "Remember me", "checkbox", None),
    ("Remove the checkbox next to size L", "click", "size L", "checkbox", None),
    ("Change the 'Enable Product' toggle switch to 'No'", "click", "Enable Product", "switch", None),
    ("Switch the 'Active' togglebar to 'Yes'", "click", "Active", "switch", None),
    # scroll / hover
    ("Scroll down", "scroll", None, None, "down"),
    ("Scroll up", "scroll", None, None, "up"),
    ("scroll down untill you find the 'size' property", "scroll", None, None, "down"),
    ("Hover over 'CVS Pharmacy, 4610, Centre Avenue'", "hover", "CVS Pharmacy, 4610, Centre Avenue", None, None),
    ("Hover over Wendy's, 4001, Butler Street", "hover", "Wendy's, 4001, Butler Street", None, None),
    ("Hober over  BP, East Carson Street", "hover", "BP, East Carson Street", None, None),
    ("Hover over the first result", "hover", "first result", None, None),
    ("Mouse over the 'Menu' button", "hover", "Menu", "button", None),
    # navigation and tabs
    ("Go to http://wikipedia.com", "goto", None, None, "http://wikipedia.com"),
    ("Navigate to wikipedia.com", "goto", None, None, "wikipedia.com"),
    ("Navigate to Reddit", "goto", None, None, "Reddit"),
    ("Nagivate to reddit.com", "goto", None, None, "reddit.com"),
    ("Open http://wikipedia.org", "goto", None, None, "http://wikipedia.org"),
    ("Change URL ending from price=0-100 to price=0-200", "goto", None, None, "price=0-200"),
    ("Open new tab", "new_tab", None, None, None),
    ('Open a new tab and navigate to "Reddit"', "new_tab", None, None, "Reddit"),
    ("Open new tab to navigate to wilipedia.com", "new_tab", None, None, "wilipedia.com"),
    ("Move to the second tab", "tab_focus", None, None, "1"),
    ("Switch to tab 3", "tab_focus", None, None, "2"),
    ("Go Back to the gitlab tab", "tab_focus", None, None, "gitlab"),
    ("Go to the 'Issues' tab", "click", "Issues", "tab", None),
    ("Close the tab", "close_tab", None, None, None),
    ("Wait", "wait", None, None, None),
    ("Wait 5 seconds", "wait", None, None, "5 seconds"),
    # reasoning and answers
    ("Extract the price information of the current product", "note", None, None, None),
    ("Sum the last 7 orders", "note", None, None, None),
    ("Sum up: 65.32+17.99+762.18", "note", None, None, None),
    ("Subtract the first amount from the second amount.", "note", None, None, None),
    ("Keep a tally of total orders per customer", "note", None, None, None),
    ("Go through the list and check if a customer appears more than once", "note", None, None, None),
    ("Check the cart to confirm if the 'VIVIKI Socks' has been added successfully.", "note", None, None, None),
    ("Calculate the total", "note", None, None, None),
    ("Compare the prices", "note", None, None, None),
    ("Record the order number", "note", None, None, None),
    ("Remember the price", "note", None, None, None),
    ("Copy the adress", "note", None, None, None),
    ("The current product 'VIVIKI' has the lowest price per unit at $4.33.", "note", None, None, None),
    ("Answer: 18", "answer", None, None, "18"),
    ("Report 'N/A'", "answer", None, None, "N/A"),
    ("Stop and answer 'Boston'", "answer", None, None, "Boston"),
    ('Respond with "The answer is 42"', "answer", None, None, "The answer is 42"),
    # real words near a verb or role word are not typos of it
    ("Click on the Henning Leutz link", "click", "Henning Leutz", "link", None),
    ("Book the cheapest flight", "other", None, None, None),
    ("Complete the checkout form", "other", None, None, None),
    # not actions
    ("gates", "other", None, None, None),
    ("", "other", None, None, None),
]


@pytest.mark.parametrize("text,kind,name,role,value", CASES, ids=[c[0][:50] or "empty" for c in CASES])
def test_parse_gold_step(text: str, kind: str, name: str | None, role: str | None, value: str | None) -> None:
    a = parse_gold_step(text)
    assert (a.kind, a.target.name, a.target.role, a.value) == (kind, name, role, value)
    assert a.raw == text  # verbatim, never cleaned


@pytest.mark.parametrize("text", [
    "Type 'Carnegie Mellon Cafe' into the search textbox and press 'Enter'",
    "Type 'toothpaste' into the search bar and pres 'Enter'",
    "Type 'gas station near Pittsburgh' into the 'search' textbox press 'Enter'",
    "Type 'Nash equilibrium' into the search box and press enter.",
    "Type 'Gates building in CMU' and press 'Enter'",
    "Search for 'shoes'",
])
def test_type_and_enter_is_one_step_with_submit(text: str) -> None:
    a = parse_gold_step(text)
    assert a.kind == "type" and a.submit and a.value and "enter" not in a.value.lower()


def test_type_without_enter_does_not_submit() -> None:
    assert parse_gold_step("Type 'Enter key' into the 'Title' textbox").submit is False


def test_multiline_value_is_kept() -> None:
    a = parse_gold_step("Type the following URLs into the editor content area:   \nhttp://a.com/1\nhttp://a.com/2")
    assert a.kind == "type" and a.value == "http://a.com/1\nhttp://a.com/2"


def test_roles_are_aria_roles_or_none() -> None:
    allowed = {None, "link", "button", "textbox", "searchbox", "combobox", "listbox", "option", "checkbox", "radio",
               "switch", "menuitem", "tab", "columnheader", "gridcell", "img", "heading", "row", "slider", "dialog"}
    for text, *_ in CASES:
        assert parse_gold_step(text).target.role in allowed, text


def test_parser_never_raises_on_odd_input() -> None:
    for text in ["'", "''", "\"'\"", "Click '", "Type", "Type:", "Select", "Press", "Go to", "In the", "From the 'x'",
                 "Click on the 'a' 'b' 'c'", "\u00a0\u00a0", "Type \"unclosed", "Hover", "Open", "Switch", "123", "?"]:
        a = parse_gold_step(text)
        assert a.kind in ACTION_KINDS and a.raw == text


def test_none_text_is_other() -> None:
    assert parse_gold_step(None).kind == "other"  # type: ignore[arg-type]


# ---------------------------------------------------------------- real human gold (shared data)


def _xlsx_texts(shared_data) -> list[tuple[object, str]]:
    openpyxl = pytest.importorskip("openpyxl")
    path = shared_data / "webarena-human-gold" / "Golden Human Trajectories.xlsx"
    wb = openpyxl.load_workbook(path, read_only=True)
    rows = list(wb.worksheets[0].iter_rows(min_row=2, values_only=True))
    wb.close()
    return [(r[0], r[2]) for r in rows if r[2] is not None]


@pytest.mark.shared_data
def test_parse_coverage_on_human_gold(shared_data) -> None:
    texts = _xlsx_texts(shared_data)
    assert len(texts) == 4350
    unparsed = [(task, text) for task, text in texts if parse_gold_step(text).kind == "other"]
    coverage = 1 - len(unparsed) / len(texts)
    print(f"\nparse coverage {coverage:.2%} ({len(unparsed)} of {len(texts)} steps unparsed):")
    for task, text in unparsed:
        print(f"  task {task}: {text!r}")
    assert coverage >= 0.98


@pytest.mark.shared_data
def test_human_gold_kinds_and_targets(shared_data) -> None:
    actions = [parse_gold_step(text) for _, text in _xlsx_texts(shared_data)]
    kinds = Counter(a.kind for a in actions)
    # the bulk is clicks and typing; every UI kind that occurs is found
    assert kinds["click"] > 2500 and kinds["type"] > 800 and kinds["select"] > 150 and kinds["press"] > 150
    for kind in ("scroll", "hover", "goto", "go_back", "new_tab", "tab_focus", "note"):
        assert kinds[kind] > 0, kind
    # clicks name their element, typing has its text, selects their option
    clicks = [a for a in actions if a.kind == "click"]
    assert sum(1 for a in clicks if a.target.name) / len(clicks) > 0.99
    types = [a for a in actions if a.kind == "type"]
    assert all(a.value is not None for a in types)
    assert all(a.value for a in actions if a.kind == "select" and "blank" not in a.raw)
    # no name keeps its quotes
    for a in actions:
        if a.target.name:
            assert a.target.name[0] not in "'\"\u2018\u201c`", a.raw

"""Imperative English gold steps (``Click on the 'Issues' link``) to :class:`~trajmetrics.model.Action`.

The human gold paths are free text written by many people. The parser is a small grammar, not a list of
known sentences:

1. **Tokens.** Quoted spans become single tokens, whatever the quote kind (``'x'``, ``"x"``, ``‘x’``,
   ``“x”``, backticks, mixed ``'x"``). An apostrophe inside a name (``'Kids' Bedding'``, ``'Wendy's'``)
   does not close the quote unless what follows reads like the end of a name (a connector or role word).
2. **Verb.** The first word is looked up in a verb table (``_VERBS``); typos are matched with an edit
   distance (``Clicl``, ``Hober``, ``Clock``, ``Nagivate``). A sentence may start with a context phrase
   (``Under the 'Sales' section, click ...``, ``In the 'Comment' textbox type ...``,
   ``From the 'Period' dropdown select ...``).
3. **Object.** The phrase after the verb is cut at connectors (``to``, ``for``, ``near``, ``next to``,
   ...). Its first quoted token is the element name; the role is the role word next to it
   (``the link 'X'``, ``the 'X' button``), mapped to an ARIA role (``dropdown`` -> ``combobox``,
   ``search bar`` -> ``searchbox``, ``toggle switch`` -> ``switch``). Unquoted objects keep their words
   (``Hover over the first result`` -> name ``first result``).

Conventions the matcher can rely on:

- ``target.role`` is an ARIA role or None (never ``dropdown``); it is None when the text does not say.
- ``type`` steps carry the typed text in ``value``; ``Type 'x' ... and press Enter`` sets ``submit=True``
  (one gold step, two atoms). Clearing a field (``Clear the 'City' textbox``) is ``type`` with value ``""``,
  as BrowserGym's ``clear``.
- ``select`` steps carry the option in ``value`` and the dropdown in ``target``. Selecting a radio button
  or checkbox is a ``click``. ``Select the text`` is ``press`` ``Control+a``.
- ``press`` values are key names (``Enter``, ``Delete``, ``Control+a``). ``Press 'Go'`` / ``press the
  'X' textbox`` name an element, so they are clicks.
- ``goto`` values are the URL or site as written (``http://wikipedia.com``, ``Reddit``);
  ``new_tab`` may carry the URL it opens. ``tab_focus`` values are 0-based tab indexes when the text gives
  an ordinal (``Move to the second tab`` -> ``"1"``, as BrowserGym/WebArena ``tab_focus``), else the words.
- ``scroll`` values are ``up``/``down``/``left``/``right``.
- Reasoning steps (``Extract ...``, ``Sum ...``, ``Compare ...``, statements such as ``The current
  product ... has the lowest price``) are ``note``; ``Answer ...``/``Report ...``/``Respond ...``/
  ``Stop ...`` are ``answer`` with the stated text as value.
- Anything else is ``other``; ``raw`` always holds the original text verbatim.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from rapidfuzz.distance import OSA

from ..model import Action, Target

__all__ = ["parse_gold_step"]

# --------------------------------------------------------------------------------------------------
# Tables
# --------------------------------------------------------------------------------------------------

# verb -> family. Order matters for typo ties: earlier (more frequent) verbs win.
_VERBS: dict[str, str] = {
    "click": "click",
    "type": "type",
    "press": "press",
    "select": "select",
    "scroll": "scroll",
    "hover": "hover",
    "go": "go",
    "navigate": "goto",
    "extract": "note",
    "clear": "clear",
    "delete": "clear",
    "change": "change",
    "switch": "switch",
    "move": "switch",
    "open": "open",
    "choose": "select",
    "chose": "select",
    "pick": "select",
    "mark": "check",
    "check": "check",
    "uncheck": "check",
    "untick": "check",
    "tick": "check",
    "toggle": "check",
    "enable": "check",
    "disable": "check",
    "remove": "clear",
    "erase": "clear",
    "empty": "clear",
    "tap": "click",
    "double": "click",
    "doubleclick": "click",
    "double-click": "click",
    "hit": "press",
    "enter": "type",
    "input": "type",
    "fill": "type",
    "write": "type",
    "paste": "type",
    "insert": "type",
    "put": "type",
    "search": "search",
    "visit": "goto",
    "browse": "goto",
    "load": "goto",
    "return": "go",
    "head": "go",
    "back": "back",
    "focus": "switch",
    "close": "close",
    "wait": "wait",
    "pause": "wait",
    "sum": "note",
    "add": "add",
    "subtract": "note",
    "multiply": "note",
    "divide": "note",
    "calculate": "note",
    "compute": "note",
    "compare": "note",
    "count": "note",
    "note": "note",
    "record": "note",
    "remember": "note",
    "memorize": "note",
    "keep": "note",
    "tally": "note",
    "track": "note",
    "copy": "note",
    "read": "note",
    "look": "note",
    "find": "note",
    "locate": "note",
    "identify": "note",
    "determine": "note",
    "verify": "note",
    "confirm": "note",
    "observe": "note",
    "examine": "note",
    "inspect": "note",
    "analyze": "note",
    "analyse": "note",
    "review": "note",
    "scan": "note",
    "answer": "answer",
    "respond": "answer",
    "report": "answer",
    "state": "answer",
    "output": "answer",
    "tell": "answer",
    "provide": "answer",
    "stop": "answer",
    "terminate": "answer",
    "finish": "answer",
    "submit": "submit",
}
_VERB_ORDER = list(_VERBS)
# Real words one edit away from a verb: never read as typos of it ("Complete" is not "compute").
_REAL_WORDS = {"black", "center", "charge", "clone", "closet", "complete", "compete", "computer", "county", "court",
               "movie", "rally", "ready", "process", "profile", "province", "states", "heads", "empathy", "folder",
               "filter", "finder", "header", "reader", "sport", "start", "store", "table", "title", "white", "stitch"}

# Verbs recognised after a leading context phrase ("Under the 'Sales' section, click ...").
_CONTEXT_VERBS = {"click", "type", "press", "select", "choose", "chose", "pick", "paste", "write", "fill", "insert",
                  "put", "clear", "delete", "hover", "scroll", "check", "uncheck", "mark", "tick", "tap", "hit",
                  "double", "open", "remove"}
# Words a gold step may start with before its verb ("Under the 'Sales' section, click ...").
_LEAD_PREPS = {"in", "under", "from", "on", "inside", "within", "at", "using", "after", "into", "via"}
# Statements that record a finding ("The current product ... has the lowest price") are notes.
_STATEMENT_STARTS = {"the", "this", "that", "these", "those", "it", "there", "we", "i", "its", "now", "then"}

# Words that end the noun phrase holding the element name.
_CONNECTORS = {
    "to", "into", "in", "on", "onto", "for", "from", "near", "under", "with", "within", "inside", "at",
    "and", "then", "that", "which", "below", "above", "beside", "besides", "before", "after", "until",
    "untill", "till", "via", "by", "so", "because", "if", "when", "while", "where", "of", "as", "again",
    "instead", "located", "between", "about", "regarding",
}
_TWO_WORD_CONNECTORS = {("next", "to"), ("close", "to"), ("in", "order"), ("such", "as")}
# Connectors whose typos are common enough to match by edit distance (``fron``).
_FUZZY_CONNECTORS = ("from", "into", "under", "inside", "near", "within")
_NOT_CONNECTORS = {"form", "fro"}

# Role words (lower case) -> ARIA role. A None role marks a generic noun ("result", "section") that ends
# a name's noun phrase but says nothing the matcher can use.
_ROLE_PHRASES: dict[str, str | None] = {
    "radio button": "radio",
    "radio buttons": "radio",
    "check box": "checkbox",
    "check-box": "checkbox",
    "text box": "textbox",
    "text field": "textbox",
    "text area": "textbox",
    "input box": "textbox",
    "input field": "textbox",
    "date picker": "textbox",
    "date box": "textbox",
    "content area": "textbox",
    "search box": "searchbox",
    "search bar": "searchbox",
    "search field": "searchbox",
    "search textbox": "searchbox",
    "search input": "searchbox",
    "drop down": "combobox",
    "drop-down": "combobox",
    "dropdown menu": "combobox",
    "dropdown list": "combobox",
    "combo box": "combobox",
    "select box": "combobox",
    "list box": "listbox",
    "menu item": "menuitem",
    "toggle switch": "switch",
    "toggle bar": "switch",
    "toggle button": "switch",
    "column header": "columnheader",
    "tab": "tab",
    "link": "link",
    "links": "link",
    "hyperlink": "link",
    "button": "button",
    "buttons": "button",
    "btn": "button",
    "textbox": "textbox",
    "textfield": "textbox",
    "textarea": "textbox",
    "typebox": "textbox",
    "datebox": "textbox",
    "datepicker": "textbox",
    "field": "textbox",
    "input": "textbox",
    "editor": "textbox",
    "searchbox": "searchbox",
    "searchbar": "searchbox",
    "dropdown": "combobox",
    "combobox": "combobox",
    "listbox": "listbox",
    "option": "option",
    "options": "option",
    "suggestion": "option",
    "checkbox": "checkbox",
    "checkboxes": "checkbox",
    "radio": "radio",
    "radiobutton": "radio",
    "switch": "switch",
    "toggle": "switch",
    "togglebar": "switch",
    "menuitem": "menuitem",
    "column": "columnheader",
    "heading": "heading",
    "image": "img",
    "img": "img",
    "picture": "img",
    "slider": "slider",
    "row": "row",
    "cell": "gridcell",
    "dialog": "dialog",
    "popup": "dialog",
    "pop-up": "dialog",
    "modal": "dialog",
    # generic nouns: end the phrase, no role
    "section": None,
    "category": None,
    "result": None,
    "results": None,
    "element": None,
    "item": None,
    "icon": None,
    "menu": None,
    "page": None,
    "area": None,
    "label": None,
    "filter": None,
    "list": None,
    "entry": None,
    "tile": None,
    "card": None,
    "box": None,
    "bar": None,
}
# Role words whose element is clicked rather than typed into.
_CLICKABLE = {"link", "button", "tab", "option", "menuitem", "checkbox", "radio", "switch", "columnheader", "img"}
_TOGGLES = {"checkbox", "radio", "switch"}
_DROPDOWNS = {"combobox", "listbox"}

# Words that name the text of a field, not an element ("Clear the content in ...").
_TEXTISH = {"content", "contents", "text", "value", "it", "everything", "all", "marked", "selected", "existing",
            "current", "whole"}
_ARTICLES = {"the", "a", "an", "this", "that", "its", "my", "your"}
# Words skipped at the start of an object ("Click on the", "Hover over", "Click ofn the" typo).
_OBJECT_LEAD = {"on", "onto", "of", "in", "inside", "at", "over", "upon", "into", "to", "it"}
_NAME_INTRO = {"labeled", "labelled", "named", "called", "titled", "described", "saying", "reading"}

_KEYS = {
    "enter": "Enter", "return": "Enter", "tab": "Tab", "delete": "Delete", "del": "Delete",
    "backspace": "Backspace", "escape": "Escape", "esc": "Escape", "space": "Space", "spacebar": "Space",
    "home": "Home", "end": "End", "pageup": "PageUp", "pagedown": "PageDown", "up": "ArrowUp",
    "down": "ArrowDown", "left": "ArrowLeft", "right": "ArrowRight", "arrowup": "ArrowUp",
    "arrowdown": "ArrowDown", "arrowleft": "ArrowLeft", "arrowright": "ArrowRight", "insert": "Insert",
}
_MODIFIERS = {
    "ctrl": "Control", "control": "Control", "cmd": "Meta", "command": "Meta", "meta": "Meta",
    "shift": "Shift", "alt": "Alt", "option": "Alt",
}
_ORDINALS = {
    "first": 1, "second": 2, "third": 3, "fourth": 4, "forth": 4, "fifth": 5, "sixth": 6, "seventh": 7,
    "eighth": 8, "ninth": 9, "tenth": 10, "last": -1,
}
_DIRECTIONS = {"up": "up", "down": "down", "left": "left", "right": "right", "top": "up", "bottom": "down",
               "upward": "up", "upwards": "up", "downward": "down", "downwards": "down"}

_QUOTE_CHARS = "'\"`\u2018\u2019\u201c\u201d"
# opener -> closers of the same kind (typographic apostrophes close ASCII quotes and vice versa)
_SAME_CLOSERS = {"'": "'\u2019", "\u2018": "\u2019'", "\u2019": "\u2019'", '"': '"\u201d', "\u201c": '\u201d"',
                 "`": "`"}
_ANY_CLOSERS = "'\"\u2019\u201d"
_OPEN_AFTER = set(" \t\n([{:,;/-") | set(_QUOTE_CHARS)
_CLOSE_BEFORE = set(" \t\n.,;:!?)]}")
_URLISH = re.compile(r"^(?:[a-z][a-z0-9+.-]*://\S+|www\.\S+|[\w-]+(?:\.[\w-]+)+(?:[/:?#]\S*)?)$", re.I)


# --------------------------------------------------------------------------------------------------
# Tokens
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Tok:
    text: str
    """Quoted content, or the word without edge punctuation."""
    start: int
    end: int
    quoted: bool
    punct: str = ""
    """Punctuation that followed an unquoted word (``,`` or ``:``): ends phrases."""
    word: str = ""
    """The token as written (unquoted words keep brackets and stray quotes)."""

    @property
    def low(self) -> str:
        return self.text.lower()


def _word_at(s: str, i: int) -> str:
    j = i
    while j < len(s) and (s[j].isalpha()):
        j += 1
    return s[i:j].lower()


def _good_follower(s: str, j: int) -> bool:
    """Does the text after a closing quote at ``j`` read like the end of a name?"""
    k = j + 1
    if k >= len(s):
        return True
    if s[k] in ".,;:!?)]}":
        return True
    while k < len(s) and s[k] in " \t\n":
        k += 1
    if k >= len(s) or s[k] in ".,;:!?)(" or s[k] in _QUOTE_CHARS:
        return True
    word = _word_at(s, k)
    return word in _CONNECTORS or _role_of_word(word) is not _NO_ROLE or word in _VERBS or word in (
        "next", "and", "option", "tab", "textbox", "close")


def _find_close(s: str, i: int) -> int | None:
    opener = s[i]
    for closers in (_SAME_CLOSERS.get(opener, opener), _ANY_CLOSERS):
        cands = []
        for j in range(i + 1, len(s)):
            if s[j] not in closers:
                continue
            after = s[j + 1] if j + 1 < len(s) else " "
            if after in _CLOSE_BEFORE or after in _QUOTE_CHARS:
                cands.append(j)
            elif after.isalpha() and _role_of_word(_word_at(s, j + 1)) not in (_NO_ROLE, None):
                cands.append(j)  # "'X'link": the role word glued to the quote
        if not cands:
            continue
        best = cands[0]
        # Extend over an apostrophe inside the name ("'Kids' Bedding' link") when the first close
        # is followed by a plain word, no new quote opens in between, and a later close reads well.
        for later in cands[1:]:
            if _good_follower(s, best):
                break
            between = s[best + 1:later]
            if re.search(r"\s[" + re.escape(_QUOTE_CHARS) + r"]", between):
                break
            best = later
        return best
    return None


@lru_cache(maxsize=4096)
def _tokens(s: str) -> tuple[_Tok, ...]:
    toks: list[_Tok] = []
    i, n = 0, len(s)
    while i < n:
        c = s[i]
        if c.isspace():
            i += 1
            continue
        if c in _QUOTE_CHARS and (i == 0 or s[i - 1] in _OPEN_AFTER):
            j = _find_close(s, i)
            if j is not None:
                content = _clean_name(s[i + 1:j])
                toks.append(_Tok(content, i, j + 1, True))
                i = j + 1
                continue
        j = i
        while j < n and not s[j].isspace():
            # a quote opening right after punctuation starts a new token ("the :"Hot" dropdown")
            if j > i and s[j] in _QUOTE_CHARS and s[j - 1] in ":(" and _find_close(s, j) is not None:
                break
            j += 1
        word = s[i:j]
        stripped = word.strip(".,;:!?()[]{}" + _QUOTE_CHARS)
        punct = "," if word.rstrip(_QUOTE_CHARS).endswith(",") else (":" if word.endswith(":") else "")
        if stripped:
            toks.append(_Tok(stripped, i, j, False, punct, word))
        elif word.strip() in (":", ","):
            if toks and not toks[-1].punct:
                toks[-1] = _Tok(toks[-1].text, toks[-1].start, toks[-1].end, toks[-1].quoted, word.strip(), toks[-1].word)
        i = j
    return tuple(toks)


def _clean_name(text: str) -> str:
    text = re.sub(r"\s+", " ", text.replace("\u00a0", " ")).strip()
    return text.strip(_QUOTE_CHARS).strip()


def _clean_value(text: str) -> str:
    # Typed text keeps its inner spacing and newlines; only the edges and one layer of quotes go.
    text = text.replace("\u00a0", " ").strip()
    if len(text) >= 3 and text[-1] in ".;" and text[-2] in _QUOTE_CHARS and text[0] in _QUOTE_CHARS:
        text = text[:-1]
    if len(text) >= 2 and text[0] in _QUOTE_CHARS and text[-1] in _QUOTE_CHARS:
        text = text[1:-1]
    elif text[:1] in _QUOTE_CHARS and not any(q in text[1:] for q in _QUOTE_CHARS):
        text = text[1:]
    elif text[-1:] in _QUOTE_CHARS and not any(q in text[:-1] for q in _QUOTE_CHARS):
        text = text[:-1]
    return text.strip()


# --------------------------------------------------------------------------------------------------
# Word helpers
# --------------------------------------------------------------------------------------------------

_NO_ROLE = object()


@lru_cache(maxsize=4096)
def _role_of_word(word: str):  # -> str | None | _NO_ROLE
    """ARIA role of a role word (typos allowed), None for generic nouns, _NO_ROLE if not a role word."""
    w = word.lower().strip(".,;:!?()")
    if w in _ROLE_PHRASES:
        return _ROLE_PHRASES[w]
    if len(w) >= 5 and w not in _NAME_INTRO:
        for cand, role in _ROLE_PHRASES.items():
            if " " in cand or len(cand) < 5 or role is None:
                continue
            d = OSA.distance(w, cand, score_cutoff=2)
            # "bottun" (same letters, two edits), "buton" is not handled; "henning" is not "heading"
            if (d <= 1 and len(w) >= 6) or (d <= 2 and sorted(w) == sorted(cand)):
                return role
    return _NO_ROLE


@lru_cache(maxsize=4096)
def _pair_role(first: str, second: str):
    """ARIA role of a two-word role phrase ("search bar", typos allowed: "seach bar"), else _NO_ROLE."""
    pair = f"{first.lower()} {second.lower()}"
    if pair in _ROLE_PHRASES:
        return _ROLE_PHRASES[pair]
    if len(pair) >= 8:
        for cand, role in _ROLE_PHRASES.items():
            if " " in cand and role is not None and OSA.distance(pair, cand, score_cutoff=1) <= 1:
                return role
    return _NO_ROLE


def _truncated_role(word: str):
    # The last word of a step is sometimes cut off ("the 'X' lin", "the 'X' butto").
    w = word.lower()
    if len(w) >= 3:
        for cand in ("link", "button", "textbox", "dropdown", "checkbox", "option"):
            if cand.startswith(w) and cand != w:
                return _ROLE_PHRASES[cand]
    return _NO_ROLE


@lru_cache(maxsize=4096)
def _verb_family(word: str) -> tuple[str, str] | None:
    """(canonical verb, family) of a first word, allowing typos (``Clicl`` -> click)."""
    w = word.lower().strip(".,;:!?'\"")
    if w.endswith(":"):
        w = w[:-1]
    if w in _VERBS:
        return w, _VERBS[w]
    if w in _REAL_WORDS:
        return None
    for suffix in ("ing", "ed", "s"):
        base = w[: -len(suffix)] if w.endswith(suffix) else None
        if base and (base in _VERBS or base + "e" in _VERBS):
            base = base if base in _VERBS else base + "e"
            return base, _VERBS[base]
    if len(w) < 4 or not w.isalpha():
        return None
    best: tuple[int, int, str] | None = None
    for rank, cand in enumerate(_VERB_ORDER):
        if len(cand) < 4 or abs(len(cand) - len(w)) > 2:
            continue
        d = OSA.distance(w, cand, score_cutoff=2)
        # one edit for words of 5+ letters ("Clicl", "Hober"); short words and two edits only when the
        # letters are the same, i.e. swapped ("Tpye", "Nagivate"): "book" is not "look"
        anagram = sorted(w) == sorted(cand)
        if (d <= 1 and (len(w) >= 5 or anagram)) or (d == 2 and anagram):
            if best is None or (d, rank) < best[:2]:
                best = (d, rank, cand)
    if best is None:
        return None
    return best[2], _VERBS[best[2]]


def _is_connector(toks: tuple[_Tok, ...] | list[_Tok], k: int) -> bool:
    t = toks[k]
    if t.quoted:
        return False
    w = t.low
    if k + 1 < len(toks) and not toks[k + 1].quoted and (w, toks[k + 1].low) in _TWO_WORD_CONNECTORS:
        return True
    if w in _CONNECTORS:
        return True
    if len(w) >= 4 and w not in _NOT_CONNECTORS and w.isalpha():
        return any(OSA.distance(w, c, score_cutoff=1) <= 1 for c in _FUZZY_CONNECTORS)
    return False


def _connector_word(t: _Tok) -> str:
    w = t.low
    if w in _CONNECTORS:
        return w
    for c in _FUZZY_CONNECTORS:
        if OSA.distance(w, c, score_cutoff=1) <= 1:
            return c
    return w


def _role_in(words: list[_Tok], from_end: bool = False) -> tuple[bool, str | None]:
    """Find a role phrase among unquoted words: (found, role)."""
    idx = range(len(words) - 1, -1, -1) if from_end else range(len(words))
    for k in idx:
        if words[k].quoted:
            continue
        if k + 1 < len(words) and not words[k + 1].quoted:
            role = _pair_role(words[k].low, words[k + 1].low)
            if role is not _NO_ROLE:
                return True, role
        if from_end and k > 0 and not words[k - 1].quoted:
            role = _pair_role(words[k - 1].low, words[k].low)
            if role is not _NO_ROLE:
                return True, role
        role = _role_of_word(words[k].low)
        if role is not _NO_ROLE and role is not None:
            return True, role
    return False, None


# --------------------------------------------------------------------------------------------------
# Objects: "the 'X' link", "the link labeled 'X'", "Wendy's, 4001, Butler Street"
# --------------------------------------------------------------------------------------------------


@dataclass
class _Obj:
    name: str | None = None
    role: str | None = None
    tail: tuple[_Tok, ...] = ()
    """Tokens after the object's noun phrase (starting at a connector)."""
    head: tuple[_Tok, ...] = ()

    def target(self) -> Target:
        return Target(name=self.name or None, role=self.role)


def _skip_lead(toks: tuple[_Tok, ...]) -> tuple[_Tok, ...]:
    k = 0
    while k < len(toks) and not toks[k].quoted:
        w = toks[k].low
        if w in _OBJECT_LEAD or w in _ARTICLES or (len(w) == 3 and w[:2] in ("of", "on")):  # "ofn"
            k += 1
            continue
        break
    return toks[k:]


def _split_head(toks: tuple[_Tok, ...]) -> tuple[tuple[_Tok, ...], tuple[_Tok, ...]]:
    for k in range(1, len(toks)):
        if _is_connector(toks, k):
            # "the link labeled with 'X'": "with" after a naming word does not end the phrase
            if toks[k - 1].low in _NAME_INTRO and not toks[k - 1].quoted:
                continue
            return toks[:k], toks[k:]
        if toks[k - 1].punct and not toks[k - 1].quoted:
            return toks[:k], toks[k:]
    return toks, ()


def _parse_object(toks: tuple[_Tok, ...], *, last_in_text: bool = True) -> _Obj:
    toks = _skip_lead(toks)
    if not toks:
        return _Obj()
    head, tail = _split_head(toks)
    quoted = [k for k, t in enumerate(head) if t.quoted]
    if quoted:
        q = quoted[0]
        name = head[q].text
        post = list(head[q + 1:])
        found, role = _role_in(post)
        if not found and post and last_in_text and not tail:
            r = _truncated_role(post[-1].low)
            if r is not _NO_ROLE:
                found, role = True, r
        if not found:
            found, role = _role_in(list(head[:q]), from_end=True)
        return _Obj(name or None, role, tail, head)
    # unquoted: role words are dropped from the name, generic nouns stay ("first result")
    words = [t for t in head if t.low not in _ARTICLES]
    role = None
    keep: list[_Tok] = []
    k = 0
    while k < len(words):
        w = words[k]
        if k + 1 < len(words):
            pair_role = _pair_role(w.low, words[k + 1].low)
            if pair_role is not _NO_ROLE and pair_role is not None:
                role = role or pair_role
                k += 2
                continue
        r = _role_of_word(w.low)
        if r is not _NO_ROLE and r is not None and not (k == 0 and len(words) > 1 and r == "textbox" and w.low == "input"):
            role = role or r
        else:
            keep.append(w)
        k += 1
    if keep and last_in_text and not tail:
        r = _truncated_role(keep[-1].low)
        if r is not _NO_ROLE and len(keep) > 1:
            role = role or r
            keep = keep[:-1]
    name = None
    if keep and not {t.low for t in keep} <= _TEXTISH:
        # the words as written, so "Tee (V-neck)-XS-Blue'" keeps its bracket
        name = _clean_name(" ".join(t.word or t.text for t in keep).strip(".,;:!?"))
    obj = _Obj(name or None, role, tail, head)
    if obj.name is None and tail:
        # "the checkbox next to size L", "the button labeled 'Save'": the name follows
        first = _connector_word(tail[0])
        nxt = tail[1:]
        if first == "next" and nxt and nxt[0].low == "to":
            nxt = nxt[1:]
        if first in ("next", "for", "near", "beside", "of", "labeled", "named", "called", "with"):
            sub = _parse_object(tuple(nxt), last_in_text=last_in_text)
            if sub.name:
                obj.name = sub.name
    return obj


# --------------------------------------------------------------------------------------------------
# Families
# --------------------------------------------------------------------------------------------------


@dataclass
class _Ctx:
    s: str
    """The cleaned text."""
    raw: str
    verb: str
    rest: tuple[_Tok, ...]
    """Tokens after the verb."""
    context: tuple[_Tok, ...] = ()
    """Tokens of a leading context phrase ("In the 'Comment' textbox")."""

    def act(self, kind: str, target: Target | None = None, value: str | None = None, submit: bool = False) -> Action:
        return Action(kind=kind, target=target or Target(), value=value, submit=submit, raw=self.raw)  # type: ignore[arg-type]


def _context_obj(ctx: _Ctx) -> _Obj:
    return _parse_object(ctx.context, last_in_text=False) if ctx.context else _Obj()


def _is_back_name(name: str | None) -> bool:
    return bool(name) and re.sub(r"[^a-z ]", "", name.lower()).strip() in ("back", "go back", "back button", "previous page")


def _fam_click(ctx: _Ctx) -> Action:
    rest = ctx.rest
    if ctx.verb in ("double", "doubleclick", "double-click") and rest and _verb_family(rest[0].low) == ("click", "click"):
        rest = rest[1:]
    obj = _parse_object(rest)
    if _is_back_name(obj.name) and obj.role in (None, "button", "link"):
        return ctx.act("go_back")
    role = obj.role
    if role is None:
        # "Click 'X' from the dropdown menu", "From the dropdown, click on 'X'": an option in an open list
        where = " ".join(t.low for t in obj.tail[:6]) + " " + " ".join(t.low for t in ctx.context)
        if re.search(r"\b(dropdown|drop-down|options|suggestions|list|menue?)\b", where):
            role = "option"
    if obj.name is None and role is None and not obj.head:
        return ctx.act("click")
    return ctx.act("click", Target(name=obj.name, role=role))


def _key_value(toks: tuple[_Tok, ...]) -> tuple[str | None, int]:
    """A key or key combination at the start of ``toks``: (normalised key, tokens used)."""
    if not toks:
        return None, 0
    if toks[0].quoted:
        key = _norm_key(toks[0].text)
        return key, (1 if key else 0)
    parts: list[str] = []
    k = 0
    while k < len(toks) and not toks[k].quoted:
        w = toks[k].text
        if w == "+" or (w.lower() in ("key", "keys", "button") and parts):
            k += 1
            continue
        if "+" in w and len(w) > 1:
            parts.extend(p for p in w.split("+") if p)
            k += 1
            continue
        if w.lower() in _MODIFIERS or w.lower() in _KEYS or (parts and len(w) == 1):
            parts.append(w)
            k += 1
            if w.lower() not in _MODIFIERS:
                break
            continue
        break
    if not parts:
        return None, 0
    key = _norm_key("+".join(parts))
    return key, (k if key else 0)


def _norm_key(text: str) -> str | None:
    parts = [p.strip() for p in re.split(r"\s*\+\s*", text.strip()) if p.strip()]
    if not parts:
        return None
    out = []
    for k, p in enumerate(parts):
        low = p.lower().replace(" ", "")
        if k < len(parts) - 1 and low in _MODIFIERS:
            out.append(_MODIFIERS[low])
        elif low in _KEYS:
            out.append(_KEYS[low])
        elif re.fullmatch(r"f\d{1,2}", low):
            out.append(low.upper())
        elif len(low) == 1 and (out or len(parts) == 1):
            out.append(low)
        else:
            return None
    return "+".join(out)


def _fam_press(ctx: _Ctx) -> Action:
    rest = _skip_lead(ctx.rest)
    key, used = _key_value(rest)
    if key:
        after = rest[used:]
        tgt = Target()
        if after and _connector_word(after[0]) in ("in", "on", "inside", "into", "within"):
            tgt = _parse_object(after[1:]).target()
        return ctx.act("press", tgt, key)
    # "Press 'Go'", "press the 'Search or filter results' textbox": an element, so a click
    obj = _parse_object(ctx.rest)
    if obj.name is None and obj.role is None:
        return ctx.act("other")
    return ctx.act("click", obj.target())


_PRESS_WORDS = {"press", "pres", "presss", "pressing", "hit", "hitting"}


def _split_submit(ctx: _Ctx, toks: tuple[_Tok, ...]) -> tuple[tuple[_Tok, ...], bool]:
    """Cut ``and press 'Enter'`` off a type step: (tokens before it, submit)."""
    for k, t in enumerate(toks):
        if t.quoted:
            continue
        starts = t.low == "and" and k + 1 < len(toks) and not toks[k + 1].quoted and toks[k + 1].low in _PRESS_WORDS
        if starts or (t.low in _PRESS_WORDS and k > 0):
            j = k + 1 if starts else k
            key, _ = _key_value(_skip_lead(toks[j + 1:]))
            if key in ("Enter",):
                return toks[:k], True
            if key:
                return toks[:k], False
    return toks, False


_FOLLOWING_NOUNS = {"message", "text", "urls", "url", "content", "comment", "note", "title", "words", "sentence",
                    "address", "addresses", "description", "value", "query", "string", "lines", "links"}


def _colon_value(ctx: _Ctx, toks: tuple[_Tok, ...]) -> tuple[tuple[_Tok, ...], str | None]:
    """Split ``<target>: <value>`` at the first colon outside quotes."""
    for k, t in enumerate(toks):
        if t.punct == ":" and not t.quoted:
            value = ctx.s[t.end:].lstrip(": \t")
            return toks[: k + 1], _clean_value(value)
    return toks, None


def _fam_type(ctx: _Ctx) -> Action:
    rest, submit = _split_submit(ctx, ctx.rest)
    s = ctx.s
    # "Type the following message in ...", "Type instead: ..."
    k = 0
    if k + 2 < len(rest) and rest[k].low == "the" and rest[k + 1].low == "following":
        k += 2
        if k < len(rest) and rest[k].low in _FOLLOWING_NOUNS and not rest[k].quoted:
            k += 1
    while k < len(rest) and not rest[k].quoted and rest[k].low in ("instead", "out"):
        k += 1  # "Type instead: 'x'", "Type out 'x'"
    rest = rest[k:]
    if ctx.context:
        # "In the 'Comment' textbox type: 'x'", "In the textbox paste: 'x'"
        value = _clean_value(s[rest[0].start: rest[-1].end]) if rest else ""
        return ctx.act("type", _context_obj(ctx).target(), value, submit)
    if not rest:
        return ctx.act("type", None, None, submit)
    first = rest[0]
    if first.quoted:
        after = rest[1:]
        # "Type 'x' in the 'y' textbox"; connectors may be doubled by typos ("to in the")
        obj = _parse_object(after) if after else _Obj()
        return ctx.act("type", obj.target(), first.text, submit)
    if first.low in ("in", "into", "inside", "on", "it") and len(rest) > 1:
        # "Type in the 'City' textbox 'San Francisco'", "Type in the 'X' textbox: '...'"
        tgt_toks, value = _colon_value(ctx, rest[1:])
        if value is None:
            obj = _parse_object(tgt_toks)
            # a quoted token after the object's role word is the value
            quoted = [t for t in tgt_toks if t.quoted]
            if len(quoted) >= 2 or (quoted and obj.name is None):
                value = quoted[-1].text
                if obj.name == value:
                    obj.name = None
            elif obj.tail and obj.tail[0].quoted:
                value = obj.tail[0].text
            if value is None and obj.role in _CLICKABLE:
                # "Type on the 'X' link": no text to type, the element is clicked
                return ctx.act("click", obj.target())
            return ctx.act("type", obj.target(), value, submit)
        obj = _parse_object(tgt_toks)
        return ctx.act("type", obj.target(), value, submit)
    if first.punct == ":" or (first.low.endswith(":")):
        return ctx.act("type", None, _clean_value(s[first.end:]), submit)
    # Unquoted or half-quoted value: "Type Gates Center' into the 'From' textbox", "Type real_space/urls.txt"
    for j in range(len(rest) - 1, 0, -1):
        t = rest[j]
        if not t.quoted and t.low in ("into", "in", "inside") and j + 1 < len(rest):
            nxt = rest[j + 1]
            if nxt.quoted or nxt.low in _ARTICLES:
                value = _clean_value(s[first.start: rest[j - 1].end])
                obj = _parse_object(rest[j + 1:])
                return ctx.act("type", obj.target(), value, submit)
    tgt_toks, value = _colon_value(ctx, rest)
    if value is not None:
        return ctx.act("type", _parse_object(tgt_toks).target(), value, submit)
    return ctx.act("type", None, _clean_value(s[first.start: rest[-1].end]), submit)


def _fam_search(ctx: _Ctx) -> Action:
    rest = ctx.rest
    if rest and rest[0].low in ("for",):
        rest = rest[1:]
    if rest and rest[0].quoted:
        tgt = Target(role="searchbox")
        after = rest[1:]
        if after and _connector_word(after[0]) in ("in", "into", "on", "using"):
            tgt = _parse_object(after[1:]).target()
        return ctx.act("type", tgt, rest[0].text, True)
    return ctx.act("note")


def _option_value(toks: tuple[_Tok, ...]) -> str | None:
    """The option named in ``the 'Canceled' option`` / ``'Year'`` / ``the blank option``."""
    toks = _skip_lead(toks)
    if not toks:
        return None
    for t in toks:
        if t.quoted:
            return t.text
    words = [t.low for t in toks]
    if words and words[0] in ("blank", "empty"):
        return ""
    if words and words[0] == "all":
        return "all"
    obj = _parse_object(toks)
    return obj.name


def _fam_select(ctx: _Ctx) -> Action:
    rest = ctx.rest
    # "Select the text", "select all": keyboard select-all
    plain = [t.low for t in rest if not t.quoted]
    if not any(t.quoted for t in rest) and plain and set(plain) <= {"the", "all", "text", "content", "contents", "everything", "of", "it"} and (
        "text" in plain or "all" in plain or "everything" in plain or "content" in plain
    ):
        return ctx.act("press", None, "Control+a")
    # "... and choose 'Year'" overrides the option
    override: str | None = None
    for k, t in enumerate(rest):
        if not t.quoted and t.low in ("and", "then") and k + 1 < len(rest):
            fam = _verb_family(rest[k + 1].low)
            if fam and fam[1] in ("select", "click"):
                override = _option_value(rest[k + 2:])
                rest = rest[:k]
                break
    obj = _parse_object(rest)
    if obj.role in _TOGGLES:
        return ctx.act("click", obj.target())
    if obj.role in _DROPDOWNS and obj.name is not None and override is not None:
        # "Select the 'Period' dropdown and choose 'Year'"
        return ctx.act("select", obj.target(), override)
    value = obj.name
    if value is None or not any(t.quoted for t in obj.head):
        value = _option_value(obj.head) if obj.head else value
    # the dropdown: after from/on/in/under/of, or from the context ("From the 'X' dropdown select 'Y'")
    tgt = Target()
    tail = obj.tail
    while tail:
        w = _connector_word(tail[0])
        if w in ("from", "on", "in", "under", "of", "within", "inside"):
            sub = _parse_object(tail[1:])
            if sub.name or sub.role:
                tgt = Target(name=sub.name, role=sub.role if sub.role else None)
                if tgt.role is None and sub.name is None:
                    tgt = Target(role="combobox")
            break
        if w in ("for", "before", "to", "and", "with", "next"):
            break
        tail = tail[1:]
    if ctx.context:
        c = _context_obj(ctx)
        if c.name or c.role:
            tgt = c.target()
    if override is not None:
        value = override
    if obj.role in _DROPDOWNS and obj.name is not None and value == obj.name and tgt.is_empty():
        # "Select the 'Status' dropdown" with nothing chosen: opening the dropdown
        return ctx.act("click", obj.target())
    if tgt.role == "option":
        tgt = Target(name=tgt.name)
    return ctx.act("select", tgt, value)


def _fam_check(ctx: _Ctx) -> Action:
    obj = _parse_object(ctx.rest)
    if ctx.verb in ("check", "verify", "confirm") and obj.role not in _TOGGLES and obj.role not in ("option",):
        # "Check the cart to confirm ...": looking, not ticking
        return ctx.act("note")
    return ctx.act("click", obj.target())


def _fam_clear(ctx: _Ctx) -> Action:
    obj = _parse_object(ctx.rest)
    if obj.role in _CLICKABLE and obj.role not in ("tab",):
        # "Remove the checkbox next to size L", "Delete the 'X' button": clicks
        return ctx.act("click", obj.target())
    head_words = {t.low for t in obj.head if not t.quoted}
    if obj.name is None or (head_words and not any(t.quoted for t in obj.head) and head_words <= _TEXTISH | _ARTICLES):
        # "Clear the content in the 'Search Gitlab' textbox"
        tail = obj.tail
        if tail and _connector_word(tail[0]) in ("in", "from", "of", "inside", "within"):
            sub = _parse_object(tail[1:])
            return ctx.act("type", sub.target(), "")
        if obj.role:
            return ctx.act("type", Target(role=obj.role), "")
        return ctx.act("type", None, "")
    return ctx.act("type", obj.target(), "")


def _fam_scroll(ctx: _Ctx) -> Action:
    direction = "down"
    for t in ctx.rest:
        if not t.quoted and t.low in _DIRECTIONS:
            direction = _DIRECTIONS[t.low]
            break
    tgt = Target()
    for k, t in enumerate(ctx.rest):
        if not t.quoted and t.low in ("in", "within", "inside", "on") and k + 1 < len(ctx.rest):
            sub = _parse_object(ctx.rest[k + 1:])
            if sub.name or sub.role:
                tgt = sub.target()
            break
        if not t.quoted and t.low in ("until", "untill", "till", "to"):
            break
    return ctx.act("scroll", tgt, direction)


def _fam_hover(ctx: _Ctx) -> Action:
    rest = ctx.rest
    if rest and rest[0].low in ("over", "on", "onto", "above", "at"):
        rest = rest[1:]
    if not rest:
        return ctx.act("hover")
    if not any(t.quoted for t in rest):
        # "Hover over Wendy's, 4001, Butler Street": an unquoted place name keeps its commas
        words = list(_skip_lead(rest))
        end = next((k for k in range(1, len(words)) if _is_connector(words, k)), len(words))
        words = words[:end]
        if any(t.punct == "," for t in words[:-1]):
            return ctx.act("hover", Target(name=_clean_name(ctx.s[words[0].start: words[-1].end].rstrip(".,;"))))
    return ctx.act("hover", _parse_object(rest).target())


def _ordinal_index(toks: tuple[_Tok, ...]) -> str | None:
    for t in toks:
        w = t.low
        if w in _ORDINALS and _ORDINALS[w] > 0:
            return str(_ORDINALS[w] - 1)
        m = re.fullmatch(r"(\d+)(?:st|nd|rd|th)?", w)
        if m:
            return str(int(m.group(1)) - 1)
    return None


def _tab_action(ctx: _Ctx, toks: tuple[_Tok, ...]) -> Action:
    idx = _ordinal_index(toks)
    if idx is not None:
        return ctx.act("tab_focus", None, idx)
    words = [t.text for t in toks if t.low not in _ARTICLES and t.low not in ("tab", "tabs", "to", "the", "browser")]
    return ctx.act("tab_focus", None, " ".join(words) or None)


def _place(ctx: _Ctx, toks: tuple[_Tok, ...]) -> str | None:
    """The URL or site named by ``toks`` (``http://x.org``, ``wikipedia.com``, ``"Reddit"``)."""
    toks = _skip_lead(toks)
    if not toks:
        return None
    if toks[0].quoted:
        return toks[0].text
    for t in toks:
        if _URLISH.match(t.text):
            return t.text.rstrip(".,;")
    head, _ = _split_head(toks)
    words = [t.text for t in head if t.low not in ("site", "website", "page", "homepage", "web")]
    return " ".join(words) or None


def _goto_or_click(ctx: _Ctx, toks: tuple[_Tok, ...]) -> Action:
    toks = _skip_lead(toks)
    if toks and toks[0].quoted:
        obj = _parse_object(toks)
        if obj.role is not None and not _URLISH.match(obj.name or ""):
            # "Go to the 'Issues' tab" names an element on the page
            return ctx.act("click", obj.target())
    if any("tab" == t.low for t in toks if not t.quoted) and not any(_URLISH.match(t.text) for t in toks):
        # "Go back to the gitlab tab": a browser tab
        return _tab_action(ctx, toks)
    return ctx.act("goto", None, _place(ctx, toks))


def _fam_go(ctx: _Ctx) -> Action:
    rest = ctx.rest
    first = rest[0].low if rest and not rest[0].quoted else ""
    if first in ("back", "backward", "backwards", "previous"):
        after = _skip_lead(rest[1:])
        if after and rest[1].low == "to":
            # "Go back to the gitlab tab", "Go back to openstreetmap.com"
            return _goto_or_click(ctx, after)
        return ctx.act("go_back")
    if first == "forward":
        return ctx.act("go_forward")
    if first in ("through", "over"):
        return ctx.act("note")
    if ctx.verb in ("return", "head") and not rest:
        return ctx.act("go_back")
    return _goto_or_click(ctx, rest)


def _fam_goto(ctx: _Ctx) -> Action:
    rest = ctx.rest
    if rest and not rest[0].quoted and rest[0].low == "back":
        return _fam_go(ctx)
    return _goto_or_click(ctx, rest)


def _fam_back(ctx: _Ctx) -> Action:
    return ctx.act("go_back")


def _fam_open(ctx: _Ctx) -> Action:
    rest = _skip_lead(ctx.rest)
    words = [t.low for t in rest if not t.quoted]
    if "tab" in words[:3] and ("new" in words[:2] or "another" in words[:2]):
        k = next(i for i, t in enumerate(rest) if t.low == "tab")
        after = rest[k + 1:]
        # "Open a new tab and navigate to 'Reddit'", "Open new tab to navigate to wilipedia.com"
        for j, t in enumerate(after):
            if not t.quoted and (_verb_family(t.low) or ("", ""))[1] in ("goto", "go") and j + 1 < len(after):
                return ctx.act("new_tab", None, _place(ctx, after[j + 1:]))
        if after and after[0].low in ("with", "at", "for", "to"):
            return ctx.act("new_tab", None, _place(ctx, after[1:]))
        return ctx.act("new_tab")
    if rest and not rest[0].quoted and _URLISH.match(rest[0].text):
        return ctx.act("goto", None, rest[0].text.rstrip(".,;"))
    obj = _parse_object(rest)
    if obj.role == "tab" and obj.name is None:
        return _tab_action(ctx, rest)
    return ctx.act("click", obj.target())


def _fam_switch(ctx: _Ctx) -> Action:
    rest = ctx.rest
    words = {t.low for t in rest if not t.quoted}
    if "tab" in words or "tabs" in words or "window" in words:
        return _tab_action(ctx, rest)
    obj = _parse_object(rest)
    return ctx.act("click", obj.target())


def _fam_change(ctx: _Ctx) -> Action:
    rest = ctx.rest
    low = [t.low for t in rest if not t.quoted]
    to_value: str | None = None
    for k in range(len(rest) - 1, -1, -1):
        if not rest[k].quoted and rest[k].low == "to" and k + 1 < len(rest):
            to_value = _clean_value(ctx.s[rest[k + 1].start:])
            break
    if "url" in low[:4] or "address" in low[:3]:
        return ctx.act("goto", None, to_value)
    obj = _parse_object(rest)
    if obj.role in _TOGGLES:
        return ctx.act("click", obj.target())
    if obj.role in ("textbox", "searchbox"):
        return ctx.act("type", obj.target(), to_value)
    if to_value is not None:
        return ctx.act("select", obj.target(), to_value)
    return ctx.act("click", obj.target())


def _fam_close(ctx: _Ctx) -> Action:
    words = [t.low for t in ctx.rest if not t.quoted]
    if "tab" in words or "window" in words:
        return ctx.act("close_tab")
    obj = _parse_object(ctx.rest)
    if obj.role == "dialog" or obj.name is None:
        # "Close the 'Welcome' popup": the popup's close button
        return ctx.act("click", Target(name="Close", role="button"))
    return ctx.act("click", obj.target())


def _fam_wait(ctx: _Ctx) -> Action:
    # only a duration is a value ("Wait 5 seconds"); "Wait for the page to load" is just a wait
    rest = _skip_lead(ctx.rest)
    text = " ".join(t.text for t in rest)
    return ctx.act("wait", None, text if re.search(r"\d", text) else None)


def _fam_note(ctx: _Ctx) -> Action:
    return ctx.act("note")


def _fam_add(ctx: _Ctx) -> Action:
    # "Add up the totals" is arithmetic; "Add the product to the cart" is the 'Add to Cart' click
    words = [t.low for t in ctx.rest if not t.quoted]
    if words[:1] == ["up"] or "sum" in words or "total" in words[:3] or "numbers" in words:
        return ctx.act("note")
    if "cart" in words:
        return ctx.act("click", Target(name="Add to Cart", role="button"))
    return ctx.act("other")


def _answer_value(ctx: _Ctx, toks: tuple[_Tok, ...]) -> str | None:
    if not toks:
        return None
    quoted = [t for t in toks if t.quoted]
    if len(quoted) == 1:
        # "Stop and answer 'Boston'", "Report 'N/A' as the answer"
        return quoted[0].text
    k = 0
    while k < len(toks) and not toks[k].quoted and (
        toks[k].low in ("with", "that", "the", "answer", "as", "is", "to", "user", "back", "and", "final")
        or (_verb_family(toks[k].low) or ("", ""))[1] == "answer"
    ):
        k += 1
        if toks[k - 1].punct == ":":
            break
    toks = toks[k:]
    if not toks:
        return None
    return _clean_value(ctx.s[toks[0].start:]).rstrip(".") or None


def _fam_answer(ctx: _Ctx) -> Action:
    return ctx.act("answer", None, _answer_value(ctx, ctx.rest))


def _fam_submit(ctx: _Ctx) -> Action:
    words = [t.low for t in ctx.rest if not t.quoted]
    if "answer" in words[:3] or "response" in words[:3]:
        return _fam_answer(ctx)
    obj = _parse_object(ctx.rest)
    return ctx.act("click", Target(name=obj.name or "Submit", role=obj.role or "button"))


_FAMILIES = {
    "click": _fam_click,
    "press": _fam_press,
    "type": _fam_type,
    "search": _fam_search,
    "select": _fam_select,
    "check": _fam_check,
    "clear": _fam_clear,
    "scroll": _fam_scroll,
    "hover": _fam_hover,
    "go": _fam_go,
    "goto": _fam_goto,
    "back": _fam_back,
    "open": _fam_open,
    "switch": _fam_switch,
    "change": _fam_change,
    "close": _fam_close,
    "wait": _fam_wait,
    "note": _fam_note,
    "add": _fam_add,
    "answer": _fam_answer,
    "submit": _fam_submit,
}


# --------------------------------------------------------------------------------------------------
# Entry point
# --------------------------------------------------------------------------------------------------


def _find_verb(toks: tuple[_Tok, ...]) -> tuple[int, str, str] | None:
    """(index, verb, family) of the step's verb, allowing a leading context phrase."""
    if not toks:
        return None
    first = toks[0]
    if not first.quoted:
        hit = _verb_family(first.low)
        # "Mouse over X"
        if hit is None and first.low == "mouse" and len(toks) > 1 and toks[1].low in ("over", "on"):
            return 0, "hover", "hover"
        if hit is not None and first.low not in _LEAD_PREPS:
            return 0, hit[0], hit[1]
        if first.low in _LEAD_PREPS:
            # "In the 'Comment' textbox type: ...": the verb is an exact word later on. Only action verbs
            # count here; words such as "record" or "change" are nouns in such phrases.
            for k in range(1, len(toks)):
                t = toks[k]
                if t.quoted:
                    continue
                w = t.low
                if w in _CONTEXT_VERBS or (w in ("input", "enter") and k + 1 < len(toks) and toks[k + 1].quoted):
                    return k, w, _VERBS[w]
    return None


def parse_gold_step(text: str) -> Action:
    """Parse one imperative English gold step into an Action; ``raw`` keeps the text verbatim.

    >>> a = parse_gold_step("Click on the 'Issues' link")
    >>> a.kind, a.target.name, a.target.role
    ('click', 'Issues', 'link')
    >>> a = parse_gold_step("Type '404 for many URLs' into the 'Title' textbox.")
    >>> a.kind, a.value, a.target.name
    ('type', '404 for many URLs', 'Title')
    >>> a = parse_gold_step("Select the 'Foot (OSRM)' option from the combobox.")
    >>> a.kind, a.value, a.target.role
    ('select', 'Foot (OSRM)', 'combobox')
    >>> parse_gold_step("Press enter").value, parse_gold_step("Clicl on the 'Go' button").kind
    ('Enter', 'click')
    >>> parse_gold_step("Sum the last 7 orders").kind, parse_gold_step("Go to http://wikipedia.com").value
    ('note', 'http://wikipedia.com')
    """
    raw = "" if text is None else str(text)
    s = re.sub(r"[ \t\u00a0]+", " ", raw.replace("\u00a0", " ")).strip()
    if not s:
        return Action(kind="other", raw=raw)
    toks = _tokens(s)
    found = _find_verb(toks)
    if found is None:
        words = [t.low for t in toks if not t.quoted]
        if words and words[0] in _STATEMENT_STARTS and len(toks) >= 4:
            # a recorded finding ("The current product ... has the lowest price per unit")
            return Action(kind="note", raw=raw)
        return Action(kind="other", raw=raw)
    k, verb, family = found
    ctx = _Ctx(s=s, raw=raw, verb=verb, rest=toks[k + 1:], context=toks[1:k] if k else ())
    return _FAMILIES[family](ctx)

"""The rule matcher of METRICS.md section 2: score a pair in [0, 1] and decide MATCH / NO_MATCH / UNSURE.

Three questions are decided here, all with evidence:
- ``match_step(agent_atom, gold_action)``: does the agent atom fulfil the gold step?
- ``match_repeat(previous, current)``: does an agent step immediately repeat the previous one?
- ``match_requirement(answer, requirement)``: does the final answer state the requirement?
and one exact comparison for element accuracy: ``same_action(planned, executed)``.
"""

from __future__ import annotations

import re
from typing import Any

from rapidfuzz import fuzz
from rapidfuzz.distance import Levenshtein

from ..model import Action
from .decision import Decision
from .normalize import norm_name, norm_url, norm_value, numbers_in, site_of

# --- Thresholds -----------------------------------------------------------------------------------
# Scores are in [0, 1]. A pair scoring >= MATCH_THRESHOLD is a MATCH, < REJECT_THRESHOLD a NO_MATCH,
# anything between is UNSURE (judge, or `unsure_policy`: `threshold` accepts from the midpoint, 0.70).
# How they were chosen: the rules score by evidence classes rather than raw fuzz ratios - exact after
# normalisation 1.0, a typo or another word order 0.8-0.9, a qualified value or a name the gold quotes
# only in part 0.72-0.75, one side adding words 0.6, other words <= 0.5 - and the thresholds separate the
# classes: MATCH from "typo-level", NO_MATCH below "adds words". Checked with `trajmetrics agreement` on
# the 40 labelled tasks of ../shared/data/labels (rules only): pair F1 0.948, step-success MAE 0.028,
# 30 UNSURE step pairs out of 2,761; most remaining disagreements are pairs reviewers marked `sure: false`.
MATCH_THRESHOLD = 0.85
REJECT_THRESHOLD = 0.55
POLICY_MIDPOINT = (MATCH_THRESHOLD + REJECT_THRESHOLD) / 2
# Partial names ("Hot" for "Sort by: Hot") and qualified values ("X, Pittsburgh, PA" for "X") sit just
# above the midpoint: without a judge they lean to MATCH, as the labels mostly do; a judge is asked when
# one is configured.
SUFFIX_NAME_SCORE = 0.72
QUALIFIED_VALUE_SCORE = 0.75

# Keys that submit a form: pressing them fulfils "click Search/Go" and vice versa.
_SUBMIT_KEYS = {"enter", "return", "numpadenter", "kp_enter"}
# Names of buttons whose click submits what was typed (a search or a form), compared normalised.
_SUBMIT_NAMES = {
    "go", "search", "submit", "find", "ok", "enter", "apply", "filter", "send", "post", "save",
    "confirm", "continue", "next", "done", "login", "log in", "sign in", "create", "update",
}
# Role nouns written into element names ("Go button", "Issues link").
_ROLE_NOUNS = {"button", "link", "tab", "textbox", "field", "box", "icon", "checkbox", "dropdown", "menu"}
# Roles of fields one types into.
_FIELD_ROLES = {"textbox", "searchbox", "combobox", "textarea", "input", "spinbutton"}
# Roles that make a click a choice in a list: clicking them ~ selecting that option.
_OPTION_ROLES = {"option", "menuitem", "menuitemradio", "listitem", "radio", "treeitem", "gridcell", "row"}


def _decide(score: float, rule: str, **evidence: Any) -> Decision:
    score = max(0.0, min(1.0, score))
    if score >= MATCH_THRESHOLD:
        verdict = "MATCH"
    elif score < REJECT_THRESHOLD:
        verdict = "NO_MATCH"
    else:
        verdict = "UNSURE"
    return Decision(verdict=verdict, score=round(score, 4), rule=rule, evidence=evidence)


_TOKEN_RE = re.compile(r"[^\W_]+(?:[.,'][^\W_]+)*", re.UNICODE)
# Two words are the same word when they differ by a typo at most ("blanck" ~ "blank", "Isues" ~ "Issues").
_WORD_TYPO_RATIO = 0.8


def _is_typo(a: str, b: str, ratio: float) -> bool:
    # One slip in a word of four letters or more ("Kark" ~ "Karl") is a typo; so is ratio >= 0.8.
    # Words under four letters are never typos of each other ("no" is not "not", "Go" is not "Got").
    if min(len(a), len(b)) < 4:
        return False
    return ratio >= _WORD_TYPO_RATIO or Levenshtein.distance(a, b) <= 1


def _tokens(text: str) -> list[str]:
    return _TOKEN_RE.findall(text)


def _is_number(token: str) -> bool:
    return any(c.isdigit() for c in token) and not any(c.isalpha() for c in token)


def _word_alignment(short: list[str], long_: list[str]) -> tuple[int, list[str]]:
    """Greedy one-to-one alignment of words (exact first, then typo-level); returns (matched, unmatched of long_)."""
    remaining = list(long_)
    matched = 0
    pending = []
    for w in short:
        if w in remaining:
            remaining.remove(w)
            matched += 1
        else:
            pending.append(w)
    for w in pending:
        if _is_number(w):
            continue  # numbers only match exactly ("Page 2" is not "Page 5")
        best, best_r = None, 0.0
        for cand in remaining:
            if _is_number(cand):
                continue
            r = fuzz.ratio(w, cand) / 100
            if r > best_r:
                best, best_r = cand, r
        if best is not None and _is_typo(w, best, best_r):
            remaining.remove(best)
            matched += 1
    return matched, remaining


def name_similarity(a: str | None, b: str | None, *, extras_in: str = "either") -> float:
    """Similarity of two element names in [0, 1] after normalisation; 0 when either is unknown.

    Word-level, because a name that differs by one word is another element ("Submit Comment" vs
    "Submit Shipment", "All Reviews" vs "Pending Reviews") while a typo is not ("Create blanck project").
    Three real patterns are forgiven: a count shown beside a name ("Issues 12", "2,320 Commits"), a
    description appended to a name ("Create blank project Create a blank project to store ..."), and
    word order. With ``extras_in="a"`` only ``a`` may carry those extras: an agent's element may show a
    count or a description the gold does not mention, but a gold name with a count ("2,320 Commits")
    is a different control from one without ("Commits").

    >>> name_similarity("Add to Cart...", "add to cart")
    1.0
    >>> name_similarity("Issues", "Issues 12"), name_similarity("Page 2", "Page 5") < 0.55
    (1.0, True)
    """
    na, nb = norm_name(a), norm_name(b)
    if not na or not nb:
        return 0.0
    if na == nb:
        return 1.0
    ta, tb = _tokens(na), _tokens(nb)
    if not ta or not tb:
        return fuzz.ratio(na, nb) / 100
    if len(ta) == 1 and len(tb) == 1:
        # One word each: a typo is the same word, anything else another word ("Orders" vs "Reports").
        r = fuzz.ratio(na, nb) / 100
        return r if _is_typo(na, nb, r) else min(r, 0.5)
    short, long_ = (ta, tb) if len(ta) <= len(tb) else (tb, ta)
    extras_allowed = extras_in == "either" or long_ is ta
    matched, extra = _word_alignment(short, long_)
    # A count beside a name is not part of it, when the other name has no number at all; nor is the
    # role noun some agents write into names ("Go button").
    if extras_allowed and not any(_is_number(w) for w in short):
        extra = [w for w in extra if not _is_number(w)]
    if extras_allowed:
        extra = [w for w in extra if w not in _ROLE_NOUNS]
    union = len(short) + len(extra)
    jaccard = matched / union if union else 0.0
    score = jaccard
    if matched == len(short) and extra and extras_allowed:
        if len(short) >= 2 and _word_alignment(short, long_[: len(short)])[0] == len(short):
            # An accessible name = the visible label + a description: the label is a prefix.
            score = max(score, 0.9)
        elif long_[-len(short):] == short:
            # The gold names the value a control shows ("Hot" for the button "Sort by: Hot", "Diana
            # Tights" for the link "Edit Diana Tights"): usually the same control, but not always.
            score = max(score, SUFFIX_NAME_SCORE)
    return score


def value_similarity(a: str | None, b: str | None) -> float:
    """Similarity of two typed values or options in [0, 1].

    Exact after normalisation (case, spaces, quotes, numbers, dates) is 1.0. The same words in another
    order is 0.9; a typo-level difference 0.8; extra qualifiers on one side ("Carnegie Mellon
    University, Pittsburgh, PA" vs "Carnegie Mellon University") 0.6 - another query, usually, but
    people disagree; anything else is a different value.

    >>> value_similarity("$1,200.50", "1200.5"), value_similarity("Niagara Falls Airport", "Buffalo Airport") < 0.55
    (1.0, True)
    """
    na, nb = norm_value(a), norm_value(b)
    if not na and not nb:
        return 1.0
    if not na or not nb:
        return 0.0
    if na == nb:
        return 1.0
    ta, tb = _tokens(na), _tokens(nb)
    if sorted(ta) == sorted(tb):
        return 0.9
    short, long_ = (ta, tb) if len(ta) <= len(tb) else (tb, ta)
    matched, extra = _word_alignment(short, long_)
    if matched == len(short) and not extra:
        return 0.8  # same words up to typos
    if matched == len(short) and short:
        # "Carnegie Mellon University, Pittsburgh, PA" for "Carnegie Mellon University": the same
        # place with a qualifier after a comma (map searches, address fields), not another query.
        long_text = na if len(ta) > len(tb) else nb
        head = long_text.split(",")
        for k in range(1, len(head)):
            head_words = _tokens(",".join(head[:k]))
            if len(head_words) == len(short) and _word_alignment(short, head_words)[0] == len(short):
                return QUALIFIED_VALUE_SCORE
        # One side adds words: another query more often than not, and clearly so when the additions
        # outweigh the shared words (a whole README typed where the gold typed a name).
        return 0.6 if len(long_) <= 2 * len(short) else 0.5
    return min(0.5, fuzz.ratio(na, nb) / 100 * 0.5)


def _is_submit_key(action: Action) -> bool:
    return action.kind == "press" and norm_name(action.value).replace(" ", "") in _SUBMIT_KEYS


def _is_submit_click(action: Action) -> bool:
    if action.kind != "click":
        return False
    name = norm_name(action.target.name)
    role = (action.target.role or "").lower()
    if role in _FIELD_ROLES:
        return False  # "Click inside the 'Search' textbox" focuses a field, it submits nothing
    if name in _SUBMIT_NAMES:
        return True
    # An unnamed button next to a search box is usually the magnifier icon.
    return role == "button" and not name and "search" in norm_name(action.raw)


def _target_names(action: Action) -> str:
    return action.target.name or ""


def match_step(agent: Action, gold: Action) -> Decision:
    """Does the agent atom fulfil the gold step? Rules only.

    >>> from trajmetrics.model import Target
    >>> g = Action(kind="click", target=Target(name="Issues", role="link"))
    >>> match_step(Action(kind="click", target=Target(name="Issues", role="link")), g).verdict
    'MATCH'
    >>> match_step(Action(kind="scroll", value="down"), g).verdict
    'NO_MATCH'
    """
    ak, gk = agent.kind, gold.kind
    handler = _STEP_RULES.get((ak, gk))
    if handler is not None:
        return handler(agent, gold)
    if ak == gk:
        return _same_kind_generic(agent, gold)
    return Decision(verdict="NO_MATCH", score=0.0, rule="kind-incompatible", evidence={"agent": ak, "gold": gk})


def _is_quoted(name: str, raw: str) -> bool:
    """Was the name written in quotes in the gold text ("Click the 'Go' button") or is it a
    description ("Mark 30 size in the Size section")?"""
    at = raw.casefold().find(name.casefold())
    return at > 0 and raw[at - 1] in _QUOTE_CHARS


_QUOTE_CHARS = "'\"`\u2018\u2019\u201c\u201d"


def _click_click(agent: Action, gold: Action) -> Decision:
    if not norm_name(gold.target.name):
        # The gold step names no element ("Click the first result"): rules cannot tell.
        return _decide(0.6, "click:gold-unnamed", name=None)
    if not norm_name(agent.target.name):
        # A click at coordinates may be on the gold's element: only a judge (or a screenshot) can tell.
        return _decide(0.6 if agent.target.x is not None else 0.3, "click:agent-unnamed", name_sim=0.0)
    sim = name_similarity(agent.target.name, gold.target.name, extras_in="a")
    ev = {"name_sim": round(sim, 4), "agent_name": norm_name(agent.target.name),
          "gold_name": norm_name(gold.target.name)}
    if sim < QUALIFIED_VALUE_SCORE and gold.raw and not _is_quoted(gold.target.name or "", gold.raw) \
            and _names_overlap(agent.target.name, gold.target.name):
        # An unquoted gold name describes the element ("30 size" for the checkbox '30'): the element's
        # name inside the description is as close as such a step gets.
        return _decide(QUALIFIED_VALUE_SCORE, "click:described", **ev)
    return _decide(sim, "click:name", **ev)


def _names_overlap(a: str | None, b: str | None) -> bool:
    """One name's words are all in the other's (a field called "Search" with the placeholder
    "Search entire store here")."""
    ta, tb = _tokens(norm_name(a)), _tokens(norm_name(b))
    short, long_ = (ta, tb) if len(ta) <= len(tb) else (tb, ta)
    return bool(short) and _word_alignment(short, long_)[0] == len(short)


def _type_type(agent: Action, gold: Action) -> Decision:
    vsim = value_similarity(agent.value, gold.value)
    gname = norm_name(gold.target.name)
    nsim = name_similarity(agent.target.name, gold.target.name) if gname and norm_name(agent.target.name) else None
    ev = {"value_sim": round(vsim, 4), "name_sim": None if nsim is None else round(nsim, 4),
          "agent_value": norm_value(agent.value), "gold_value": norm_value(gold.value)}
    # The typed text decides; the field name only lowers the score when both are known and clearly
    # different ("From" vs "To" with the same place typed into both is another step).
    if nsim is not None and nsim < REJECT_THRESHOLD and not _names_overlap(agent.target.name, gold.target.name):
        # Typed into another field ("To" where the gold typed into "Search"): another step, even with
        # the same text.
        return _decide(min(vsim, 0.45), "type:value-other-field", **ev)
    return _decide(vsim, "type:value", **ev)


def _select_select(agent: Action, gold: Action) -> Decision:
    vsim = value_similarity(agent.value, gold.value)
    return _decide(vsim, "select:option", value_sim=round(vsim, 4))


def _option_similarity(label: str | None, option: str | None) -> float:
    # An option is often labelled by its first words ("Foot" for "Foot (OSRM)").
    return max(name_similarity(label, option), value_similarity(label, option))


def _click_select(agent: Action, gold: Action) -> Decision:
    # Clicking an option in an open list, or the radio/label of a choice, ~ selecting it (METRICS.md 2).
    role = (agent.target.role or "").lower()
    sim = _option_similarity(agent.target.name, gold.value)
    name_words = _tokens(norm_name(agent.target.name))
    option_words = _tokens(norm_name(gold.value))
    # "Foot" labels the option "Foot (OSRM)": the label is the option's first word(s).
    if name_words and option_words[: len(name_words)] == name_words:
        sim = max(sim, 0.9)
    if role in _OPTION_ROLES or role in ("labeltext", "label", "") or sim >= 0.9:
        return _decide(sim, "click~select:option", option_sim=round(sim, 4), role=role)
    return _decide(min(sim, 0.4), "click~select:not-an-option", option_sim=round(sim, 4), role=role)


def _select_click(agent: Action, gold: Action) -> Decision:
    sim = _option_similarity(agent.value, gold.target.name)
    return _decide(sim, "select~click:option", option_sim=round(sim, 4))


def _press_press(agent: Action, gold: Action) -> Decision:
    same = norm_name(agent.value).replace(" ", "") == norm_name(gold.value).replace(" ", "")
    submit_both = _is_submit_key(agent) and _is_submit_key(gold)
    return _decide(1.0 if (same or submit_both) else 0.0, "press:key", agent_key=agent.value, gold_key=gold.value)


def _press_click(agent: Action, gold: Action) -> Decision:
    # Pressing Enter in a field submits it, as clicking the Search/Go button does.
    if _is_submit_key(agent) and _is_submit_click(gold):
        return _decide(0.9, "enter~submit-click", gold_name=norm_name(gold.target.name))
    return Decision(verdict="NO_MATCH", score=0.0, rule="kind-incompatible", evidence={"agent": "press", "gold": "click"})


def _click_press(agent: Action, gold: Action) -> Decision:
    if _is_submit_click(agent) and _is_submit_key(gold):
        return _decide(0.9, "submit-click~enter", agent_name=norm_name(agent.target.name))
    return Decision(verdict="NO_MATCH", score=0.0, rule="kind-incompatible", evidence={"agent": "click", "gold": "press"})


def _goto_goto(agent: Action, gold: Action) -> Decision:
    a, g = norm_url(agent.value), norm_url(gold.value)
    if not a or not g:
        return _decide(0.6, "goto:unknown-url", agent_url=a, gold_url=g)
    if a == g:
        return _decide(1.0, "goto:url", agent_url=a, gold_url=g)
    if "." not in g.split("/", 1)[0] and g in a:
        # The gold names only a part of the URL ("price=0-25", "/issues"): contained is the same page.
        return _decide(0.9, "goto:url-part", agent_url=a, gold_url=g)
    (a_labels, a_port), (g_labels, g_port) = site_of(a), site_of(g)
    same_port = a_port is None or g_port is None or a_port == g_port
    if a_labels and g_labels and same_port:
        if a_labels == g_labels:
            # Same site, top-level domain aside ("wikipedia.com" for "wikipedia.org"). A gold URL with a
            # path names a page, which the agent's other path may not be.
            return _decide(0.9 if "/" not in g else 0.7, "goto:site", agent_url=a, gold_url=g)
        if len(a_labels) > len(g_labels) and a_labels[-len(g_labels):] == g_labels:
            # A subdomain of the site the gold names ("en.wikipedia.org" for "wikipedia.com").
            return _decide(0.9 if "/" not in g else 0.7, "goto:subdomain", agent_url=a, gold_url=g)
        if len(g_labels) > len(a_labels) and g_labels[-len(a_labels):] == a_labels:
            # The parent site of the subdomain the gold names: maybe not there yet.
            return _decide(0.7, "goto:parent-site", agent_url=a, gold_url=g)
    return _decide(min(0.5, fuzz.ratio(a, g) / 100 * 0.6), "goto:url", agent_url=a, gold_url=g)


def _scroll_scroll(agent: Action, gold: Action) -> Decision:
    a, g = norm_name(agent.value), norm_name(gold.value)
    if not a or not g or a == g:
        return _decide(0.9, "scroll:direction", agent=a, gold=g)
    return _decide(0.3, "scroll:direction", agent=a, gold=g)


def _answer_answer(agent: Action, gold: Action) -> Decision:
    if not norm_value(gold.value):
        return _decide(0.9, "answer:gold-unspecified")
    return match_requirement(agent.value, gold.value).model_copy(update={"rule": "answer:value"})


def _hover_hover(agent: Action, gold: Action) -> Decision:
    return _click_click(agent, gold).model_copy(update={"rule": "hover:name"})


def _same_kind_generic(agent: Action, gold: Action) -> Decision:
    # go_back, go_forward, new_tab, close_tab, wait: the kind says it all.
    if agent.kind in ("go_back", "go_forward", "new_tab", "close_tab", "wait"):
        return _decide(1.0, f"{agent.kind}:kind")
    if agent.kind == "tab_focus":
        return _decide(0.9 if norm_name(agent.value) == norm_name(gold.value) else 0.6, "tab_focus")
    # note vs note, other vs other: only the text can tell, and rarely with certainty.
    a = norm_name(agent.value or agent.raw)
    g = norm_name(gold.value or gold.raw)
    sim = fuzz.token_set_ratio(a, g) / 100 if a and g else 0.0
    return _decide(0.55 + 0.3 * sim, f"{agent.kind}:text", text_sim=round(sim, 4))


_STEP_RULES = {
    ("click", "click"): _click_click,
    ("type", "type"): _type_type,
    ("select", "select"): _select_select,
    ("click", "select"): _click_select,
    ("select", "click"): _select_click,
    ("press", "press"): _press_press,
    ("press", "click"): _press_click,
    ("click", "press"): _click_press,
    ("goto", "goto"): _goto_goto,
    ("scroll", "scroll"): _scroll_scroll,
    ("answer", "answer"): _answer_answer,
    ("hover", "hover"): _hover_hover,
    ("answer", "note"): lambda agent, gold: _decide(
        # "Extract the price" is fulfilled by an answer that states it; only a judge can read that.
        0.6, "answer~note"),
    ("note", "note"): lambda agent, gold: _same_kind_generic(agent, gold),
}


def _is_submit(action: Action) -> bool:
    return _is_submit_key(action) or _is_submit_click(action)


# How far back a submit looks for the text it submits (type, then maybe a click on a suggestion).
_SUBMIT_LOOKBACK = 3


def _typed_before(actions: list[Action], index: int) -> list[Action]:
    """The type actions a submit at ``index`` submits: those since the previous submit, a few steps back."""
    typed = []
    for k in range(index - 1, max(-1, index - 1 - _SUBMIT_LOOKBACK), -1):
        if _is_submit(actions[k]):
            break  # what came before was already submitted
        if actions[k].kind == "type":
            typed.append(actions[k])
    return typed


def step_decisions(atoms: list[Action], gold: list[Action]) -> list[list[Decision]]:
    """Rule decisions for every (agent atom, gold step) pair, with the context rules applied.

    Context rule: a submit (Enter, or a click on Go/Search) fulfils a gold submit only when it submits
    the same text: "Click Go" after typing 'Hotels near X' is not the agent's Go after typing
    'Y, Pittsburgh'. Without this, every Go click of a run matches every Go step of the gold path.
    """
    out = [[match_step(a, g) for g in gold] for a in atoms]
    gold_typed = [_typed_before(gold, j) if _is_submit(g) else [] for j, g in enumerate(gold)]
    for i, a in enumerate(atoms):
        if not _is_submit(a):
            continue
        agent_typed = _typed_before(atoms, i)
        if not agent_typed:
            continue  # a pre-filled field, or a click on Go alone: nothing to compare
        for j in range(len(gold)):
            d = out[i][j]
            if d.verdict == "NO_MATCH" or not gold_typed[j]:
                continue
            # Field-aware: the same text typed into another field ("To" vs "Search") is another query.
            vsim = max(_type_type(x, y).score for x in agent_typed for y in gold_typed[j])
            if vsim < MATCH_THRESHOLD and vsim < d.score:
                out[i][j] = _decide(vsim, "submit:other-text", value_sim=round(vsim, 4), before=d.rule,
                                    submitted=[norm_value(x.value) for x in agent_typed],
                                    gold_submitted=[norm_value(y.value) for y in gold_typed[j]])
    return out


# --- Repeats (METRICS.md 3.2) ---------------------------------------------------------------------

def match_repeat(previous: Action, current: Action, *, previous_failed: bool = False) -> Decision:
    """Does ``current`` repeat ``previous`` (same kind, same target, same value)?

    Element ids may differ when the name is the same (the page re-rendered). When the previous action
    failed (``previous_failed``: a click that timed out), activating the same element another way
    (Enter on the button just clicked) is a retry, and a retry is a repeat.

    >>> from trajmetrics.model import Target
    >>> a = Action(kind="click", target=Target(id="12", name="Next"))
    >>> match_repeat(a, Action(kind="click", target=Target(id="40", name="Next"))).verdict
    'MATCH'
    """
    if previous.kind != current.kind:
        if previous_failed and {previous.kind, current.kind} <= {"click", "press"} and _same_element(previous, current):
            return _decide(1.0, "repeat:retry", prev_kind=previous.kind, kind=current.kind)
        return Decision(verdict="NO_MATCH", score=0.0, rule="repeat:kind")
    if previous.submit != current.submit:
        return Decision(verdict="NO_MATCH", score=0.0, rule="repeat:submit")
    vsame = norm_value(previous.value) == norm_value(current.value)
    if not vsame:
        vsim = value_similarity(previous.value, current.value)
        return _decide(min(vsim, 0.8) * 0.7, "repeat:value", value_sim=round(vsim, 4))
    pt, ct = previous.target, current.target
    pn, cn = norm_name(pt.name), norm_name(ct.name)
    if pn or cn:
        if pn == cn:
            return _decide(1.0, "repeat:name", name=pn)
        # The same words in the same order up to a typo ("Isues"/"Issues") may be one element; other
        # words, numbers or order are another ("Page 4"/"Page 5", "12 Reviews"/"Reviews (12)").
        pw, cw = _tokens(pn), _tokens(cn)
        same = len(pw) == len(cw) and all(
            x == y or (not _is_number(x) and not _is_number(y) and _is_typo(x, y, fuzz.ratio(x, y) / 100))
            for x, y in zip(pw, cw))
        return _decide(0.8 if same else 0.2, "repeat:name", prev_name=pn, name=cn)
    if pt.id is not None or ct.id is not None:
        return _decide(1.0 if pt.id == ct.id else 0.0, "repeat:id", prev_id=pt.id, cur_id=ct.id)
    if pt.x is not None and ct.x is not None:
        dist = ((pt.x - ct.x) ** 2 + ((pt.y or 0) - (ct.y or 0)) ** 2) ** 0.5
        # Within a few pixels is the same spot; tens of pixels may be a neighbouring element.
        score = 1.0 if dist <= 8 else (0.7 if dist <= 40 else 0.0)
        return _decide(score, "repeat:coordinates", distance=round(dist, 1))
    if pt.role or ct.role:
        # Only roles known ("<button> -> CLICK"): another role is another element; the same role may be.
        same_role = (pt.role or "").lower() == (ct.role or "").lower()
        return _decide(0.6 if same_role else 0.0, "repeat:role", prev_role=pt.role, role=ct.role)
    # No target on either side (goto, answer, go_back, scroll): kind and value decide.
    return _decide(1.0, "repeat:kind+value")


_UNIT_SPLIT_RE = re.compile(r"(?<=\d)(?=[^\W\d_])|(?<=[^\W\d_])(?=\d)")


def _unit_split(tokens: list[str]) -> list[str]:
    """ "4min" -> "4", "min": a number glued to its unit is two words."""
    out: list[str] = []
    for t in tokens:
        out.extend(p for p in _UNIT_SPLIT_RE.split(t) if p)
    return out


def _same_element(a: Action, b: Action) -> bool:
    if a.target.id is not None and a.target.id == b.target.id:
        return True
    return bool(norm_name(a.target.name)) and norm_name(a.target.name) == norm_name(b.target.name)


# --- Requirements (METRICS.md 3.4) ----------------------------------------------------------------



def match_requirement(answer: str | None, requirement: str | None) -> Decision:
    """Does the final answer state the requirement? Containment, then numbers (all required) and words
    (typo-tolerant coverage).

    >>> match_requirement("The total is $1,234.00.", "1234").verdict
    'MATCH'
    >>> match_requirement(None, "1234").verdict
    'NO_MATCH'
    """
    if answer is None or not norm_value(answer):
        return Decision(verdict="NO_MATCH", score=0.0, rule="requirement:no-answer")
    a, r = norm_value(answer), norm_value(requirement)
    if not r:
        return _decide(1.0, "requirement:empty")
    a_words = " ".join(_TOKEN_RE.findall(a))
    r_words = " ".join(_TOKEN_RE.findall(r))
    if not r_words:
        # A requirement made only of symbols ("€", "$"): stated only if it appears as it is.
        return _decide(1.0 if r in a else 0.0, "requirement:symbols")
    if r_words and f" {r_words} " in f" {a_words} ":
        return _decide(1.0, "requirement:contained")
    if not r.isascii() and r_words.replace(" ", "") in a_words.replace(" ", ""):
        # Scripts written without spaces (Chinese, Japanese) have no word boundaries to respect.
        return _decide(1.0, "requirement:contained")
    r_nums = numbers_in(requirement)
    a_nums = set(numbers_in(answer))
    if r_nums and not all(n in a_nums for n in r_nums):
        # A number the answer does not state ("November: 5 orders") is not met, whatever the words.
        return _decide(0.1, "requirement:numbers", required=r_nums, found=sorted(a_nums)[:20])
    all_r_tokens = _unit_split(_TOKEN_RE.findall(r))
    r_tokens = [t for t in all_r_tokens if not _is_number(t)]
    # Words before the first number label it ("walking: 16min"): the answer must name them.
    first_num = next((k for k, t in enumerate(all_r_tokens) if _is_number(t)), len(all_r_tokens))
    r_labels = all_r_tokens[:first_num] if r_nums else []
    a_tokens = _unit_split(_TOKEN_RE.findall(a))
    if not r_tokens:
        return _decide(1.0, "requirement:numbers", required=r_nums)
    # Words written together on one side ("LumaTech" for "Luma Tech") count as one word.
    a_set = set(a_tokens)
    merged: list[str] = []
    for tok in r_tokens:
        if merged and merged[-1] + tok in a_set and merged[-1] not in a_set:
            merged[-1] += tok
        else:
            merged.append(tok)
    r_tokens = merged
    # A unit right after a number may be abbreviated ("4min" for "4 minutes"): it is the word it starts.
    units = {t for k, t in enumerate(all_r_tokens) if k and _is_number(all_r_tokens[k - 1]) and not _is_number(t)}
    r_tokens = [next((w for w in a_tokens if t in units and t not in a_set and len(t) >= 2 and w.startswith(t)), t)
                for t in r_tokens]
    # Words of the requirement found in the answer, up to typos ("Feburary" ~ "February").
    found, _ = _word_alignment(r_tokens, a_tokens)
    coverage = found / len(r_tokens)
    ev = {"coverage": round(coverage, 4), "required_numbers": r_nums}
    if r_nums:
        if r_labels and _word_alignment(r_labels, a_tokens)[0] < len(r_labels):
            # "walking: 2min" is not stated by "Driving: 2 min".
            return _decide(min(0.6, 0.7 + 0.3 * coverage), "requirement:label-missing", **ev)
        # Every number and its label are stated; a missing unit word ("14" for "March: 14 orders") is
        # still the fact.
        return _decide(0.7 + 0.3 * coverage, "requirement:numbers+words", **ev)
    if len(r_tokens) == 1 and coverage < 1:
        return _decide(0.2, "requirement:word", **ev)
    return _decide(coverage, "requirement:words", **ev)


# --- Element accuracy (METRICS.md 3.5) ------------------------------------------------------------

def same_action(planned: Action | None, executed: Action) -> bool:
    """Planned equals executed: same kind, same element id (or, without ids, same name), same value.

    WebArena's optional ``[1]`` flag and descriptive suffixes are already stripped by the parsers.
    """
    if planned is None:
        return False
    if planned.kind != executed.kind:
        return False
    pid, eid = planned.target.id, executed.target.id
    if pid is not None and eid is not None:
        if str(pid).strip() != str(eid).strip():
            return False
    elif norm_name(planned.target.name) != norm_name(executed.target.name):
        if planned.target.name is not None and executed.target.name is not None:
            return False
    return norm_value(planned.value) == norm_value(executed.value)

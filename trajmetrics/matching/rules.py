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

from ..model import Action
from .decision import Decision
from .normalize import norm_name, norm_url, norm_value, numbers_in, url_host

# --- Thresholds -----------------------------------------------------------------------------------
# Scores are in [0, 1]. A pair scoring >= MATCH_THRESHOLD is a MATCH, < REJECT_THRESHOLD a NO_MATCH,
# anything between is UNSURE (judge, or `unsure_policy`: `threshold` accepts from the midpoint).
# Chosen on the 40 labelled tasks of ../shared/data/labels (see benchmarks/README.md, "agreement"):
# name similarities of true pairs sit at >= 0.9 after normalisation (truncation, case, glyphs), the
# false pairs that share a word ("Go" vs "Google") sit below 0.6; the band between is where people
# disagree too (reviewers marked most of those pairs `sure: false`).
MATCH_THRESHOLD = 0.85
REJECT_THRESHOLD = 0.55
POLICY_MIDPOINT = (MATCH_THRESHOLD + REJECT_THRESHOLD) / 2

# Keys that submit a form: pressing them fulfils "click Search/Go" and vice versa.
_SUBMIT_KEYS = {"enter", "return", "numpadenter", "kp_enter"}
# Names of buttons whose click submits what was typed (a search or a form), compared normalised.
_SUBMIT_NAMES = {
    "go", "search", "submit", "find", "ok", "enter", "apply", "filter", "send", "post", "save",
    "confirm", "continue", "next", "done", "login", "log in", "sign in", "create", "update",
}
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


def name_similarity(a: str | None, b: str | None) -> float:
    """Similarity of two element names in [0, 1] after normalisation; 0 when either is unknown.

    Token-set ratio forgives word order and extra words on one side ("Issues 12" vs "Issues"), but only
    when the shorter name is not a tiny fragment of a long one.

    >>> name_similarity("Add to Cart...", "add to cart")
    1.0
    """
    na, nb = norm_name(a), norm_name(b)
    if not na or not nb:
        return 0.0
    if na == nb:
        return 1.0
    full = fuzz.ratio(na, nb) / 100
    tset = fuzz.token_set_ratio(na, nb) / 100
    short, long_ = sorted((na, nb), key=len)
    # token_set_ratio is 100 whenever one side's words are a subset of the other's; discount that by
    # how much of the longer name is covered, so "Go" does not equal "Go to the top of the page".
    coverage = len(short) / max(len(long_), 1)
    subset = tset * (0.75 + 0.25 * coverage) if tset > full else tset
    return max(full, subset)


def value_similarity(a: str | None, b: str | None) -> float:
    """Similarity of two values (typed text, option, key) in [0, 1]; exact after normalisation is 1."""
    na, nb = norm_value(a), norm_value(b)
    if not na and not nb:
        return 1.0
    if not na or not nb:
        return 0.0
    if na == nb:
        return 1.0
    return fuzz.ratio(na, nb) / 100


def _is_submit_key(action: Action) -> bool:
    return action.kind == "press" and norm_name(action.value).replace(" ", "") in _SUBMIT_KEYS


def _is_submit_click(action: Action) -> bool:
    if action.kind != "click":
        return False
    name = norm_name(action.target.name)
    role = (action.target.role or "").lower()
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


def _click_click(agent: Action, gold: Action) -> Decision:
    sim = name_similarity(agent.target.name, gold.target.name)
    if not norm_name(gold.target.name):
        # The gold step names no element ("Click the first result"): rules cannot tell.
        return _decide(0.6, "click:gold-unnamed", name=None)
    if not norm_name(agent.target.name):
        return _decide(0.5 if agent.target.x is not None else 0.3, "click:agent-unnamed", name_sim=0.0)
    return _decide(sim, "click:name", name_sim=round(sim, 4),
                   agent_name=norm_name(agent.target.name), gold_name=norm_name(gold.target.name))


def _type_type(agent: Action, gold: Action) -> Decision:
    vsim = value_similarity(agent.value, gold.value)
    gname = norm_name(gold.target.name)
    nsim = name_similarity(agent.target.name, gold.target.name) if gname else None
    ev = {"value_sim": round(vsim, 4), "name_sim": None if nsim is None else round(nsim, 4),
          "agent_value": norm_value(agent.value), "gold_value": norm_value(gold.value)}
    if vsim >= 0.999:
        # Same text typed: the field name only matters when both are known and clearly different
        # ("From" vs "To" with the same place typed into both is a different step).
        if nsim is None or not norm_name(agent.target.name) or nsim >= 0.6:
            return _decide(1.0, "type:value", **ev)
        return _decide(0.6, "type:value-other-field", **ev)
    # Different text: a typo-level difference may still be the same step; otherwise it is not.
    score = vsim * (0.9 + 0.1 * (nsim if nsim is not None else 0.5))
    return _decide(score, "type:value", **ev)


def _select_select(agent: Action, gold: Action) -> Decision:
    vsim = value_similarity(agent.value, gold.value)
    return _decide(vsim, "select:option", value_sim=round(vsim, 4))


def _click_select(agent: Action, gold: Action) -> Decision:
    # Clicking an option in an open list ~ selecting it (METRICS.md section 2).
    role = (agent.target.role or "").lower()
    sim = value_similarity(agent.target.name, gold.value)
    if role in _OPTION_ROLES or sim >= 0.9:
        return _decide(sim, "click~select:option", option_sim=round(sim, 4), role=role)
    return _decide(min(sim, 0.4), "click~select:not-an-option", option_sim=round(sim, 4), role=role)


def _select_click(agent: Action, gold: Action) -> Decision:
    sim = value_similarity(agent.value, gold.target.name)
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
    ah, gh = url_host(a), url_host(g)
    if ah and ah == gh:
        # Same site (tld and path may differ: "wikipedia.com" vs "https://en.wikipedia.org/wiki/X").
        ga_path = "/" in g
        return _decide(0.9 if not ga_path else 0.7, "goto:host", agent_url=a, gold_url=g)
    return _decide(fuzz.ratio(a, g) / 100 * 0.6, "goto:url", agent_url=a, gold_url=g)


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
}


# --- Repeats (METRICS.md 3.2) ---------------------------------------------------------------------

def match_repeat(previous: Action, current: Action) -> Decision:
    """Does ``current`` repeat ``previous`` (same kind, same target, same value)?

    Element ids may differ when the name is the same (the page re-rendered).

    >>> from trajmetrics.model import Target
    >>> a = Action(kind="click", target=Target(id="12", name="Next"))
    >>> match_repeat(a, Action(kind="click", target=Target(id="40", name="Next"))).verdict
    'MATCH'
    """
    if previous.kind != current.kind:
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
        sim = name_similarity(pt.name, ct.name)
        return _decide(sim * 0.9, "repeat:name", name_sim=round(sim, 4))
    if pt.id is not None or ct.id is not None:
        return _decide(1.0 if pt.id == ct.id else 0.0, "repeat:id", prev_id=pt.id, cur_id=ct.id)
    if pt.x is not None and ct.x is not None:
        dist = ((pt.x - ct.x) ** 2 + ((pt.y or 0) - (ct.y or 0)) ** 2) ** 0.5
        # Within a few pixels is the same spot; tens of pixels may be a neighbouring element.
        score = 1.0 if dist <= 8 else (0.7 if dist <= 40 else 0.0)
        return _decide(score, "repeat:coordinates", distance=round(dist, 1))
    # No target on either side (goto, answer, go_back, scroll): kind and value decide.
    return _decide(1.0, "repeat:kind+value")


# --- Requirements (METRICS.md 3.4) ----------------------------------------------------------------

_WORD_RE = re.compile(r"[a-z0-9]+")


def match_requirement(answer: str | None, requirement: str | None) -> Decision:
    """Does the final answer state the requirement? Normalised containment, numbers, partial ratio.

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
    a_words = " ".join(_WORD_RE.findall(a))
    r_words = " ".join(_WORD_RE.findall(r))
    if r_words and f" {r_words} " in f" {a_words} ":
        return _decide(1.0, "requirement:contained")
    r_nums = numbers_in(requirement)
    if r_nums and len(r_words) <= 12:
        # A short numeric requirement ("$1,234", "12 items") is met when every number appears.
        a_nums = set(numbers_in(answer))
        hit = all(n in a_nums for n in r_nums)
        return _decide(1.0 if hit else 0.1, "requirement:numbers", required=r_nums, found=sorted(a_nums)[:20])
    partial = fuzz.partial_ratio(r_words, a_words) / 100 if r_words and a_words else 0.0
    if len(r_words) <= 3:
        # Very short requirements ("no", "yes", "0"): containment above is the only safe rule.
        return _decide(min(partial, 0.5), "requirement:short", partial=round(partial, 4))
    return _decide(partial, "requirement:partial", partial=round(partial, 4))


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

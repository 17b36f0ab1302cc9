"""Text normalisation shared by every rule: names, values, URLs, numbers, dates.

Each normaliser is idempotent (``f(f(x)) == f(x)``); the property tests pin that.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

# Quote characters of every kind: ASCII, typographic, backtick, guillemets.
_QUOTES = "'\"`\u2018\u2019\u201a\u201b\u201c\u201d\u201e\u201f\u00ab\u00bb\u2039\u203a"
_QUOTE_RE = re.compile(f"[{re.escape(_QUOTES)}]")
_SPACE_RE = re.compile(r"\s+")
_ELLIPSIS_RE = re.compile(r"(\.\.\.|\u2026)+")
_EDGE_PUNCT = " .,:;!?-_|/\\()[]{}<>*#~"


def _is_glyph(ch: str) -> bool:
    # Icon fonts (Font Awesome etc.) use the private-use area; emoji and arrows are "So"/"Sk".
    cat = unicodedata.category(ch)
    return cat in ("Co", "So", "Sk", "Cn", "Cs") or ch in "\ufe0f\u200b\u200c\u200d\u2060"


@lru_cache(maxsize=65536)
def norm_name(text: str | None) -> str:
    """Normalise an element name or free text for fuzzy comparison.

    Case, whitespace, quotes, ``...`` truncation and icon glyphs are removed.

    >>> norm_name("  \u201cIssues\u201d \ue62e ")
    'issues'
    >>> norm_name("Add to Cart...")
    'add to cart'
    """
    if not text:
        return ""
    # Glyphs go before NFKC too, which would turn "™" into the letters "TM".
    s = "".join(" " if _is_glyph(c) else c for c in str(text))
    s = unicodedata.normalize("NFKC", s)
    s = "".join(" " if _is_glyph(c) else c for c in s)
    s = _QUOTE_RE.sub("", s)
    s = _ELLIPSIS_RE.sub(" ", s)
    s = _SPACE_RE.sub(" ", s.casefold()).strip(_EDGE_PUNCT)
    # Removing a quote can bring a combining accent next to its letter: compose again.
    return unicodedata.normalize("NFKC", s)


# A number may carry a unit glued to it ("4min", "5.2km"): no letter or dot before it, any letter after.
_NUM_RE = re.compile(r"(?<![\w.])[-+]?\$?\d[\d,]*(?:\.\d+)?%?(?![\d])")
_DATE_RE = re.compile(r"\b(\d{1,2})/(\d{1,2})/(\d{2,4})\b")
_ISO_DATE_RE = re.compile(r"\b(\d{4})-(\d{1,2})-(\d{1,2})\b")


def _norm_number(match: re.Match[str]) -> str:
    raw = match.group(0)
    sign = "-" if raw.startswith("-") else ""
    digits = raw.lstrip("+-").replace("$", "").replace("%", "")
    pct = "%" if raw.endswith("%") else ""
    if "," in digits:
        if not re.fullmatch(r"\d{1,3}(,\d{3})+(\.\d+)?", digits):
            return raw  # "1,2" is a list, not a number
        digits = digits.replace(",", "")
    whole, _, frac = digits.partition(".")
    whole = whole.lstrip("0") or "0"
    frac = frac.rstrip("0")
    return f"{sign}{whole}{'.' + frac if frac else ''}{pct}"


def _norm_date(match: re.Match[str]) -> str:
    m, d, y = (int(g) for g in match.groups())
    if y < 100:
        y += 2000
    return f"{y:04d}-{m:02d}-{d:02d}"


def _norm_iso(match: re.Match[str]) -> str:
    y, m, d = (int(g) for g in match.groups())
    return f"{y:04d}-{m:02d}-{d:02d}"


@lru_cache(maxsize=65536)
def norm_value(text: str | None) -> str:
    """Normalise a typed value, option or answer: name normalisation plus numbers and dates.

    >>> norm_value("$1,200.50"), norm_value("1/5/2023"), norm_value("'Foo  Bar'")
    ('1200.5', '2023-01-05', 'foo bar')
    """
    if text is None:
        return ""
    s = norm_name(text)
    s = _NUM_RE.sub(_norm_number, s)
    s = _DATE_RE.sub(_norm_date, s)
    s = _ISO_DATE_RE.sub(_norm_iso, s)
    return s


_SCHEME_RE = re.compile(r"^[a-z][a-z0-9+.-]*://")


@lru_cache(maxsize=16384)
@lru_cache(maxsize=16384)
def norm_url(text: str | None) -> str:
    """Normalise a URL or a bare host: no scheme, no ``www.``, no trailing slash, lower case.

    >>> norm_url("https://www.Wikipedia.org/"), norm_url("wikipedia.com")
    ('wikipedia.org', 'wikipedia.com')
    """
    if not text:
        return ""
    s = str(text).strip().lower()
    while True:  # repeat until nothing changes, so the result is a fixed point
        before = s
        s = s.strip().strip(_QUOTES).strip()
        s = _SCHEME_RE.sub("", s)
        if s.startswith("www."):
            s = s[4:]
        s = s.rstrip("/")
        if s == before:
            return s


def site_of(text: str | None) -> tuple[tuple[str, ...], str | None]:
    """The site of a URL: its host labels without ``www.`` and without the top-level domain, and its
    port. WebArena serves different sites on one host with different ports, so the port counts.

    >>> site_of("http://www.wikipedia.com/wiki/X"), site_of("localhost:7780/admin")
    ((('wikipedia',), None), (('localhost',), '7780'))
    """
    host = norm_url(text).split("/", 1)[0].split("?", 1)[0]
    host, _, port = host.partition(":")
    labels = [p for p in host.split(".") if p]
    is_ip = bool(labels) and all(p.isdigit() for p in labels)
    if len(labels) >= 2 and not is_ip:
        labels = labels[:-1]
    return tuple(labels), (port or None)


def numbers_in(text: str | None) -> list[str]:
    """The normalised numbers appearing in a text, in order.

    >>> numbers_in("Total: $1,234.00 in 3 orders")
    ['1234', '3']
    """
    return [m.group(0) for m in _NUM_RE.finditer(norm_value(text))]

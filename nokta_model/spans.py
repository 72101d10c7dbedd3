"""Word spans in a line of text, with what is not prose recognised and skipped.

A word is a run of letters (combining marks included) that may carry apostrophe
suffixes (Ankara'dır, Türkiye’nin) and hyphenated parts (Sened-i). Tokens that are
URLs, e-mail addresses, paths, numbers, Roman numerals of two letters or more ((ii),
xiv.) or code-like identifiers (snake_case, camelCase, dotted.names) yield no words but
a suffix after an apostrophe (GitHub'ın, 8.40'ı: the suffix is a word); dotted initials
and abbreviations (M.O., G.Saray'ın, Doc.Dr.) and sentences glued at a full stop
(gelmisti.Sonra) are prose.
"""

from __future__ import annotations

import re
from functools import partial
from typing import NamedTuple

_LETTER = r"[^\W\d_]"
_MARK = r"[\u0300-\u036f]"
_RUN = rf"{_LETTER}(?:{_LETTER}|{_MARK})*"
_WORD_RE = re.compile(rf"{_RUN}(?:['’]{_RUN})*(?:-{_RUN}(?:['’]{_RUN})*)*")
_PART_RE = re.compile(rf"{_RUN}(?:['’]{_RUN})*")
#: Words as the evaluation protocol counts them (shared/bench/README.md): maximal letter
#: runs with apostrophe suffixes; hyphens and combining marks split them.
SCORED_WORD_RE = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*")

_NOT_PROSE_RE = re.compile(
    "|".join(
        (
            r"^[(<\[\"'“‘]*(?:[a-zA-Z][a-zA-Z0-9+.-]*://|[wW]{3}\.|mailto:)",  # URL
            r"[\w.+-]+@[\w-]+\.[\w.-]+",  # e-mail
            r"^[(\[\"'“‘]*(?:~|\.{1,2})?/\S|^[A-Za-z]:[\\/]",  # path
            r"[^\W_]_+[^\W_]|__\w|\w__",  # snake_case, __dunder__ (not _emphasis_)
            r"[a-zçğıöşü][A-ZÇĞİÖŞÜ]",  # camelCase
            r"\w\.\w",  # dotted.names, file.ext, 3.14
            r"[{}=<>#$^|`\\]",  # code or markup symbols inside a token
        )
    )
)
#: Each pattern above needs one of these characters or a camelCase pair (keep them in step):
#: a token without any is prose, found without trying every pattern at every place.
_MAYBE_NOT_PROSE_RE = re.compile(r"[:.@/\\_{}=<>#$^|`]|[a-zçğıöşü][A-ZÇĞİÖŞÜ]")
#: Roman numerals of i, v and x, two letters or more (a lone i is mostly the suffix ı
#: written apart: Kuran ı Kerim), in one case, bracketed or followed by punctuation.
_ROMAN_NUMERAL_RE = re.compile(
    r"[(\[]*(?=[ivx]{2}|[IVX]{2})(?:x{0,3}(?:ix|iv|v?i{1,3})|X{0,3}(?:IX|IV|V?I{1,3}))[,.;:!?)\]]*"
)
#: A Roman numeral (or the bracket before one) starts with one of these.
_ROMAN_FIRST = frozenset("([ivxIVX")
_PLAIN_TOKEN_RE = re.compile(r"[^\W\d_]+[,.;:!?)\"”]?")
#: The punctuation a plain token may end with: str.isalpha tells the letters before it, the
#: regular expression the rarer ones it does not take (² and ½ are letters to \w, not digits).
_PLAIN_END = frozenset(',.;:!?)"”')
# Dotted abbreviations and initials (M.O., M.O, T.C., G.Saray, Doc.Dr., Yrd.Doc.Dr.), with a suffix
# after an apostrophe (G.Saray'ın, T.C.'nin), and two sentences glued at a full stop (gelmisti.Sonra):
# prose, although they look like dotted names.
_INITIALS_RE = re.compile(
    r"[(\[\"“‘]*(?:[A-ZÇĞİÖŞÜ][a-zçğıöşü]{0,3}\.)+(?:[A-ZÇĞİÖŞÜ][a-zçğıöşü]*)?(?:['’][a-zçğıöşü]+)?[,.;:!?)\"”]*"
)
#: A suffix after an apostrophe glued to a token that is no word (an identifier, a number,
#: a file name, a currency symbol: GitHub'ın, useState'i, 8.40'ı, README.md'yi, $'lık): the
#: suffix is a word, the rest is skipped.
_GLUED_SUFFIX_RE = re.compile(r"(?<=[\w)\]$€£₺¥])['’]([a-zçğıöşü]*[aeıioöuü][a-zçğıöşü]*)[,.;:!?)\"”]*$")
_GLUED_SENTENCES_RE = re.compile(r"[(\[\"“‘]*[^\W\d_]*[a-zçğıöşü]{3}\.[A-ZÇĞİÖŞÜ][a-zçğıöşü]+[,.;:!?)\"”]*")
#: A sentence's last word glued at its full stop to a token that is no prose as a whole: a
#: capitalised word with a suffix (acikladi.NASA'da) or a bracket (cikartildi.(Cnnturk.com));
#: and a sentence's first word glued to a bracket before it ((config.yml).Diger).
_GLUED_AFTER_WORD_RE = re.compile(r"[(\[\"“‘]*([^\W\d_]*[a-zçğıöşü]{3})[.!?]+(?=\(|[A-ZÇĞİÖŞÜ][^\W\d_]*['’])")
_GLUED_BEFORE_WORD_RE = re.compile(r"(?<=[)\]\"”][.!?])([A-ZÇĞİÖŞÜ][a-zçğıöşü]+(?:['’][a-zçğıöşü]+)?)[,.;:!?)\"”]*$")


#: The genitive or the accusative written apart after a closing quote ("Faust" ı, "All of the
#: Lights" ın): a Turkish suffix, whatever English word it spells.
SUFFIX_AFTER_QUOTE_RE = re.compile(r'["”] (?:n?[iı]n|y?[iı])\b')
#: Stand-ins that prose masking writes for the last character of a masked token a suffix
#: follows (`Django`'nun, @nzakas'ın: ``prose.base.with_stem_standins``): the token is read
#: with back or front vowels. No letters, so nothing in them is restored.
BACK_STEM, FRONT_STEM = "\ue000", "\ue001"


class Span(NamedTuple):
    """A half-open range ``[start, end)`` of code points in a line."""

    start: int
    end: int


#: Span((start, end)) built in C: NamedTuple's own constructor is a Python function, slow
#: in word_spans' loop.
_new_span = partial(tuple.__new__, Span)


def is_prose_token(token: str) -> bool:
    """False for URLs, e-mails, paths, identifiers and code-like tokens."""
    return _MAYBE_NOT_PROSE_RE.search(token) is None or _NOT_PROSE_RE.search(token) is None


def word_spans(line: str) -> list[Span]:
    """Spans of the prose words of ``line``, left to right."""
    spans: list[Span] = []
    end = 0
    for text in line.split():  # the tokens, in order (split's whitespace is the same as \s)
        start = line.find(text, end)
        end = start + len(text)
        if text[0] in _ROMAN_FIRST and _ROMAN_NUMERAL_RE.fullmatch(text):
            continue
        letters = text[:-1] if text[-1] in _PLAIN_END else text
        plain = letters.isalpha() or _PLAIN_TOKEN_RE.fullmatch(text)
        if plain and (text.islower() or text.isupper() or text[1:].islower()):  # a word as it stands
            spans.append(_new_span((start, end - (not text[-1].isalpha()))))
        elif is_prose_token(text) or _INITIALS_RE.fullmatch(text) or _GLUED_SENTENCES_RE.fullmatch(text):
            spans.extend(_new_span((start + m.start(), start + m.end())) for m in _WORD_RE.finditer(text))
        else:
            spans.extend(_glued_token_spans(text, start))
    return spans


def _glued_token_spans(token: str, start: int) -> list[Span]:
    """The words of a token that is no prose as a whole (it starts at ``start``): a word glued
    at a full stop to a piece of another token, that piece read as a token of its own; else
    a suffix after an apostrophe (GitHub'ın)."""
    word = _GLUED_AFTER_WORD_RE.match(token)
    if word:
        return [_new_span((start + word.start(1), start + word.end(1))), *_piece_spans(token, word.end(), start)]
    word = _GLUED_BEFORE_WORD_RE.search(token)
    if word:
        return [*_piece_spans(token[: word.start()], 0, start), _new_span((start + word.start(1), start + word.end(1)))]
    suffix = _GLUED_SUFFIX_RE.search(token) if "'" in token or "’" in token else None
    return [_new_span((start + suffix.start(1), start + suffix.end(1)))] if suffix else []


def _piece_spans(token: str, offset: int, start: int) -> list[Span]:
    """The words of ``token[offset:]`` read as a token of its own."""
    return [_new_span((start + offset + s.start, start + offset + s.end)) for s in word_spans(token[offset:])]


def word_parts(word: str) -> list[Span]:
    """Spans of the hyphen-separated parts of a word (each with its suffixes)."""
    return [Span(m.start(), m.end()) for m in _PART_RE.finditer(word)]


def word_part_texts(word: str) -> list[str]:
    """The hyphen-separated parts of a word (each with its suffixes)."""
    return _PART_RE.findall(word)

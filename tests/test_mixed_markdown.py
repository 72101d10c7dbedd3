"""A README-like Markdown file of technical Turkish mixed with English, code, URLs and acronyms
(tests/data/mixed_readme.md, written for these tests and never tuned on), restored as the CLI
does (``pipeline.restore_lines`` with the markdown format): its prose restored, its code
blocks (bash, toml, python, unnamed and ````markdown fences) left as typed."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from nokta_model.backends import load_restorer
from nokta_model.evaluate import ascii_inputs, changed_words, score
from nokta_model.pipeline import restore_lines

GOLD = (Path(__file__).parent / "data" / "mixed_readme.md").read_text(encoding="utf-8").splitlines()
_FENCE_RE = re.compile(r"\s*(`{3,}|~{3,})")


def block_rows(lines: list[str]) -> set[int]:
    """The rows of the file's fenced code blocks, their fences included."""
    rows, closer = set(), ""
    for row, line in enumerate(lines):
        fence = _FENCE_RE.match(line)
        if closer or fence:
            rows.add(row)
        if fence and not closer:
            closer = fence.group(1)
        elif closer and line.strip() == closer:
            closer = ""
    return rows


BLOCKS = block_rows(GOLD)
PROSE = [row for row in range(len(GOLD)) if row not in BLOCKS]


@pytest.fixture(scope="module", params=["default", "ngram"])
def restored(request) -> tuple[list[str], list[str]]:
    """(the ASCII-folded file restored, the correct file restored as written)."""
    restorer = load_restorer(request.param, device="cpu")
    return restore_lines(restorer, ascii_inputs(GOLD), "markdown"), restore_lines(restorer, GOLD, "markdown")


def line_of(text: str) -> int:
    return next(index for index, line in enumerate(GOLD) if text in line)


@pytest.mark.parametrize(
    "text",
    [
        "yeni bir Issue açın ya da doğrudan bir pull request gönderin.",  # English terms keep their letters
        "Integer olması gereken bir değere metin",
    ],
)
def test_mixed_lines_are_restored(restored, text):
    row = line_of(text)
    assert restored[0][row] == GOLD[row]


@pytest.mark.parametrize(
    "text",
    [
        "# sanal ortamı oluşturup etkinleştiriyoruz",  # a comment in a ```bash fence
        "# imajı indirip çalıştırıyoruz, port değişmedi",  # a comment in a fence naming no language
        "# veritabanı dosyasının yolu; ilk çalıştırmada oluşturulur",  # ```toml
        "# başlık ve içerik zorunlu, etiketler isteğe bağlı",  # ```python
        '"Alışveriş"',  # a string value in a ```python fence
        "Bu değişiklik `notlari_getir` içinde sayfalamayı düzeltiyor",  # a ````markdown fence
    ],
)
def test_code_blocks_come_out_as_typed(restored, text):
    row = line_of(text)
    assert row in BLOCKS
    assert restored[0][row] == ascii_inputs(GOLD)[row] and restored[1][row] == GOLD[row]


@pytest.mark.parametrize(
    "text",
    [
        "https://example.com/gunluk/kurulum-rehberi",  # a URL, byte for byte
        "destek@ornek.com.tr",
        "Ayarlar `gunluk.toml` dosyasından",  # a code span
    ],
)
def test_urls_and_code_spans_stay_as_typed(restored, text):
    row = line_of(text)
    assert text in restored[0][row] and restored[1][row] == GOLD[row]


def test_the_prose_is_restored_nearly_whole_and_the_file_left_nearly_as_written(restored):
    from_ascii, as_written = restored
    assert score([GOLD[row] for row in PROSE], [from_ascii[row] for row in PROSE]).word_accuracy >= 0.98
    changed, words = changed_words(GOLD, as_written)
    assert changed <= 0.005 * words

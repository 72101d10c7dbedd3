"""A README-like Markdown file of technical Turkish mixed with English, code, URLs and acronyms
(tests/data/mixed_readme.md, written for these tests and never tuned on), restored as the CLI
does (``pipeline.restore_lines`` with the markdown format): each class of code and prose in it."""

from __future__ import annotations

from pathlib import Path

import pytest

from nokta_model.backends import load_restorer
from nokta_model.evaluate import ascii_inputs, changed_words, score
from nokta_model.pipeline import restore_lines

GOLD = (Path(__file__).parent / "data" / "mixed_readme.md").read_text(encoding="utf-8").splitlines()


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
        "# sanal ortamı oluşturup etkinleştiriyoruz",  # a comment in a ```bash fence
        "# imajı indirip çalıştırıyoruz, port değişmedi",  # a comment in a fence naming no language
        "# veritabanı dosyasının yolu; ilk çalıştırmada oluşturulur",  # ```toml
        "# başlık ve içerik zorunlu, etiketler isteğe bağlı",  # ```python
        '"Alışveriş"',  # a one-word value: prose
        '"süt, ekmek"',  # a string of words: prose
        "Bu değişiklik `notlari_getir` içinde sayfalamayı düzeltiyor",  # a ````markdown fence is Markdown
        "yeni bir Issue açın ya da doğrudan bir pull request gönderin.",  # English terms keep their letters
        "Integer olması gereken bir değere metin",
    ],
)
def test_prose_in_fences_strings_and_mixed_lines_is_restored(restored, text):
    row = line_of(text)
    assert restored[0][row] == GOLD[row]


@pytest.mark.parametrize(
    "text",
    [
        'for alan in ("baslik", "icerik", "olusturma"):',  # a list of one-word strings: field names
        'json={"baslik"',  # keys
        "https://example.com/gunluk/kurulum-rehberi",  # a URL, byte for byte
        "destek@ornek.com.tr",
        "Ayarlar `gunluk.toml` dosyasından",  # a code span
    ],
)
def test_code_keys_urls_and_code_spans_stay_as_typed(restored, text):
    row = line_of(text)
    assert text in restored[0][row] and restored[1][row] == GOLD[row]


def test_the_file_is_restored_nearly_whole_and_left_nearly_as_written(restored):
    from_ascii, as_written = restored
    assert score(GOLD, from_ascii).word_accuracy >= 0.98
    changed, words = changed_words(GOLD, as_written)
    assert changed <= 0.005 * words

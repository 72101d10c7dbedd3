"""The shipped models on technical Turkish mixed with English: each class of the per-word decision."""

import subprocess
import sys

import pytest

from nokta_model.backends import load_restorer


@pytest.fixture(scope="module", params=["default", "ngram"])
def shipped(request):
    return load_restorer(request.param, device="cpu")


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        # English words under a capital I keep it; the Turkish words around them are restored.
        (
            "Yeni bir Issue actim, Item listesi ve Index sayfasi bozuk.",
            "Yeni bir Issue açtım, Item listesi ve Index sayfası bozuk.",
        ),
        ("Integer deger aliyor.", "Integer değer alıyor."),
        # Acronyms keep their letters: no İİŞ, no İE.
        ("Bugun IIS ve IE ile calistik.", "Bugün IIS ve IE ile çalıştık."),
        # Lower-case English words keep their dotted i.
        ("Bir input alani ekledik, initial degeri bos.", "Bir input alanı ekledik, initial değeri boş."),
        # An English word the lexicon could spell with Turkish letters stays as typed.
        ("Guru dedigimiz kisi geldi.", "Guru dediğimiz kişi geldi."),
        # A mixed line: the English term stays, the Turkish words are restored.
        ("Framework 4.8 cikti! Hemen asagidaki linke bakin", "Framework 4.8 çıktı! Hemen aşağıdaki linke bakın"),
        # Words running text writes only under a capital I keep their dotted i in lower case.
        ("Bu api'leri ve mnist verisini kullandik.", "Bu api'leri ve mnist verisini kullandık."),
        # Turkish words with a capital I are still dotted where running text dots them.
        ("Istanbul'da yeni bir Isik festivali var.", "İstanbul'da yeni bir Işık festivali var."),
        # A hyphenated word's capital I is looked up on the part it is in: no CRİSPR, MNİST.
        (
            "CRISPR-Cas9 yontemini ve Fashion-MNIST verisini kullandik.",
            "CRISPR-Cas9 yöntemini ve Fashion-MNIST verisini kullandık.",
        ),
        # A slip on a line typed with Turkish letters: a capital I there may still be İ.
        ("İzmir'e gittik, sonra Istanbul'a döndük.", "İzmir'e gittik, sonra İstanbul'a döndük."),
    ],
)
def test_each_class_of_english_words_acronyms_and_mixed_lines(shipped, typed, meant):
    assert shipped.restore([typed]) == [meant]


def test_correct_mixed_text_fed_as_written_is_unchanged(shipped):
    line = "Bugün IIS ve IE ile bir input alanı ekledik, Integer değer alıyor."
    assert shipped.restore([line]) == [line]
    assert shipped.suggest([line]) == [[]]


def test_the_cli_restores_a_turkish_line_with_an_english_term():
    """The language guard before the restorer leaves the line to it (it took it for English)."""
    done = subprocess.run(
        [sys.executable, "-m", "nokta_model", "restore", "--backend", "ngram"],
        input="Framework 4.8 cikti! Hemen asagidaki linke bakin\n",
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout == "Framework 4.8 çıktı! Hemen aşağıdaki linke bakın\n"

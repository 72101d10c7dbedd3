"""`nokta restore` on technical Turkish: words with w, q or x and long words in capitals stay as typed."""

import subprocess
import sys

import pytest

TYPED_AND_MEANT = [
    # No Turkish word has a w, q or x: no wıp, no Twıtter.
    ("Bu degisiklik henuz wip, Twitter hesabinda paylastim.", "Bu değişiklik henüz wip, Twitter hesabında paylaştım."),
    ("wiki sayfasinda qemu ve xml ornekleri var.", "wiki sayfasında qemu ve xml örnekleri var."),
    # … unless running text writes it with Turkish letters.
    ("Lowenheim teoremi Wurttemberg'de", "Löwenheim teoremi Württemberg'de"),
    # A long word in capitals on a line not typed in capitals: no LİCENSE, no COPYİNG.
    (
        "LICENSE ve README dosyalarini COPYING ile birlikte ekledik.",
        "LICENSE ve README dosyalarını COPYING ile birlikte ekledik.",
    ),
    # … unless running text writes it with Turkish letters.
    (
        "DEGISKEN adini degistirdik, TUBITAK projeyi destekledi.",
        "DEĞİŞKEN adını değiştirdik, TÜBİTAK projeyi destekledi.",
    ),
]


def restore(text: str, *backend: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "nokta_model", "restore", *backend],
        input=text,
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    return done.stdout


@pytest.mark.parametrize("backend", [(), ("--backend", "ngram")], ids=["default", "ngram"])
def test_foreign_words_stay_as_typed_and_turkish_words_around_them_are_restored(backend):
    typed = "".join(f"{line}\n" for line, _ in TYPED_AND_MEANT)
    meant = "".join(f"{line}\n" for _, line in TYPED_AND_MEANT)
    assert restore(typed, *backend) == meant
    assert restore(meant, *backend) == meant

"""Language is decided per sentence, never per line: in ``Restorer.restore``, ``nokta restore``,
``nokta check`` and the language server alike (the real count-based backend)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from pytest_lsp import LanguageClient

from nokta_model.backends import load_restorer
from nokta_model.ngram.artifact import DEFAULT_ARTIFACT
from tests.lsp.client import REAL_SERVER, client_fixture, diagnostics_for, initialize, open_document

pytestmark = pytest.mark.skipif(not DEFAULT_ARTIFACT.exists(), reason="ngram artifact not built")

TYPED_AND_MEANT = [
    # A sentence that starts after a full stop inside a line starts afresh: no İssue.
    ("Tamam, anladim. Issue bugun kapandi.", "Tamam, anladım. Issue bugün kapandı."),
    ("Peki. Index sayfasini da guncelledim.", "Peki. Index sayfasını da güncelledim."),
    # A Turkish sentence and an English one on one line: the first restored, the second left.
    (
        "Sunum cuma gunu saat ikide. The slides are still not ready, sorry.",
        "Sunum cuma günü saat ikide. The slides are still not ready, sorry.",
    ),
    # A headline in capitals, an acronym written with Turkish letters, a Turkish word spelled like English.
    ("BELEDIYE BASKANI YENI KOPRUYU ACTI", "BELEDİYE BAŞKANI YENİ KÖPRÜYÜ AÇTI"),
    ("ODTU ogrencileri one cikti.", "ODTÜ öğrencileri öne çıktı."),
]
TYPED = "".join(f"{typed}\n" for typed, _ in TYPED_AND_MEANT)
MEANT = "".join(f"{meant}\n" for _, meant in TYPED_AND_MEANT)
#: (line, typed word) of each finding ``nokta check`` and the server make on TYPED.
FLAGGED = [
    *[(0, "anladim"), (0, "bugun"), (0, "kapandi"), (1, "sayfasini"), (1, "guncelledim"), (2, "gunu")],
    *[(3, "BELEDIYE"), (3, "BASKANI"), (3, "YENI"), (3, "KOPRUYU"), (3, "ACTI")],
    *[(4, "ODTU"), (4, "ogrencileri"), (4, "one"), (4, "cikti")],
]


def nokta(*args: str, stdin: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "nokta_model", *args], input=stdin, capture_output=True, text=True, timeout=300
    )
    assert done.stderr == ""
    return done.stdout


@pytest.mark.parametrize("backend", ["ngram", "default"])
def test_restorer_restore_decides_each_sentence_of_a_line(backend):
    restorer = load_restorer(backend, device="cpu")
    assert restorer.restore([typed for typed, _ in TYPED_AND_MEANT]) == [meant for _, meant in TYPED_AND_MEANT]


def test_nokta_restore_decides_each_sentence_of_a_line():
    assert nokta("restore", "--backend", "ngram", stdin=TYPED) == MEANT
    assert nokta("restore", "--backend", "ngram", stdin=MEANT) == MEANT


def test_nokta_check_flags_only_the_turkish_sentences_words():
    findings = json.loads(nokta("check", "--backend", "ngram", "--output-format", "json", "-", stdin=TYPED))
    lines = TYPED.splitlines()
    assert [(f["line"] - 1, f["word"]) for f in findings] == FLAGGED
    assert all(lines[f["line"] - 1][f["column"] - 1 : f["end_column"] - 1] == f["word"] for f in findings)


client = client_fixture(REAL_SERVER)


async def test_the_server_flags_only_the_turkish_sentences_words(client: LanguageClient):
    await initialize(client, {"backend": "ngram"})
    open_document(client, "file:///sentences.txt", TYPED)
    diagnostics = await diagnostics_for(client, "file:///sentences.txt", 1, timeout=120)
    lines = TYPED.splitlines()
    flagged = [
        (d.range.start.line, lines[d.range.start.line][d.range.start.character : d.range.end.character])
        for d in diagnostics
    ]
    assert flagged == FLAGGED


#: A full stop after a capital initial ends no sentence, and glued abbreviations are words.
INITIALS_TYPED_AND_MEANT = [
    (
        "Koc Holding A.S. ve Turk Telekom A.S. hisseleri yukseldi.",
        "Koç Holding A.Ş. ve Türk Telekom A.Ş. hisseleri yükseldi.",
    ),
    ("Yaklasik M.O. 3000 yilinda yapildi.", "Yaklaşık M.Ö. 3000 yılında yapıldı."),
    ("Doc.Dr. Ayse Yilmaz konustu.", "Doç.Dr. Ayşe Yılmaz konuştu."),
    ("The U.S. Senate voted on it.", "The U.S. Senate voted on it."),
]


@pytest.mark.parametrize("backend", ["ngram", "default"])
def test_a_capital_initial_ends_no_sentence(backend):
    restorer = load_restorer(backend, device="cpu")
    typed, meant = zip(*INITIALS_TYPED_AND_MEANT, strict=True)
    assert restorer.restore(list(typed)) == list(meant)

"""``restore_lines``: the CLI's restore path on lines in memory (what a Ray actor calls)."""

from __future__ import annotations

import pytest

from nokta_model.backends import load_restorer
from nokta_model.pipeline import restore_lines

from .test_cli_restore import run

NOTE = [
    "Detaylar icin [belgelere bakin](https://ornek.com/cok). @Ozlem bunu gordu.",
    "",
    "It is urgent and this sentence is English.",
    "```",  # a fence with no language: its code stays as typed (its # comments are restored)
    "kisi_sayisi = hesapla(gun)",
    "```",
    "cok guzel bir gun " * 5_000,  # longer than one piece: cut after a space and joined back
]


@pytest.fixture(scope="module")
def restorer():
    return load_restorer("ngram")


def test_lines_come_back_one_per_line_as_the_cli_restores_them(restorer, tmp_path):
    note = tmp_path / "note.md"
    note.write_text("\n".join(NOTE) + "\n", encoding="utf-8")
    from_cli = run(str(note)).stdout.decode()
    restored = restore_lines(restorer, NOTE, "markdown")
    assert len(restored) == len(NOTE)
    assert "\n".join(restored) + "\n" == from_cli
    assert restored[0] == "Detaylar için [belgelere bakın](https://ornek.com/cok). @Ozlem bunu gördü."
    assert restored[2:6] == NOTE[2:6]


def test_a_line_holding_line_ends_keeps_them(restorer):
    assert restore_lines(restorer, ["cok guzel\r\nbir gun\n", "", "kisi"]) == ["çok güzel\r\nbir gün\n", "", "kişi"]


def test_latex_arguments_are_restored(restorer):
    assert restore_lines(restorer, ["\\textbf{cok guzel} bir gun."], "latex") == ["\\textbf{çok güzel} bir gün."]

"""bench.autocorrect's in-process typist (``--tune``): the server's autocorrect typed piece by piece."""

from __future__ import annotations

from bench.autocorrect import InProcess, Score, pieces, typed_texts
from nokta_model.check.findings import SuggestionCache
from tests.lsp.fake_restorer import FakeRestorer


def test_the_in_process_typist_restores_as_the_server_does_and_is_scored():
    restorer, cache = FakeRestorer(), SuggestionCache()
    typed = ["Bugun hava cok guzel.", "ogrenci is cok"]
    intended = ["Bugün hava çok güzel.", "öğrenci iş çok"]
    assert len(typed_texts(typed, restorer, cache)) == sum(len(pieces(line)) for line in typed)
    final = InProcess(restorer, cache, 0.98).type_document(typed)
    assert final == ["Bugün hava çok güzel.", "öğrenci is çok"]  # "is" (0.97) is not sure enough, as in the server
    score = Score()
    for line in zip(typed, final, intended, strict=True):
        score.add(*line)
    assert (score.words, score.needing, score.restored, score.wrong) == (7, 6, 5, 0)
    assert score.summary()["recall"] == round(5 / 6, 4)

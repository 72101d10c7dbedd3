"""The restorer contract, on the shipped count-based backend."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nokta_model.alphabet import AMBIGUOUS, LOWER_TWIN, asciify, tr_lower
from nokta_model.backends import backend_for_path, load_restorer
from nokta_model.default import DefaultRestorer, Weights
from nokta_model.default.weights import write_weights

PAIRS = {**LOWER_TWIN, "C": "Ç", "G": "Ğ", "I": "İ", "O": "Ö", "S": "Ş", "U": "Ü"}


@pytest.fixture(scope="module")
def restorer():
    return load_restorer("ngram")


def test_restores_the_example_sentence(restorer):
    line = "Turkiye'nin baskenti Ankara'dir. ISTANBUL'da hava cok guzel."
    assert restorer.restore([line]) == ["Türkiye'nin başkenti Ankara'dır. İSTANBUL'da hava çok güzel."]


def test_keeps_case_with_turkish_rules(restorer):
    assert restorer.restore(["TURKIYE", "Istanbul", "ISIK"]) == ["TÜRKİYE", "İstanbul", "IŞIK"]


def test_skips_urls_identifiers_and_paths(restorer):
    line = "bak https://ornek.com/cok guzel_degisken /usr/bin/cicek"
    assert restorer.restore([line]) == ["bak https://ornek.com/cok guzel_degisken /usr/bin/cicek"]


def test_decomposed_input_keeps_its_positions(restorer):
    line = "bas\u0327ka cok"
    assert restorer.restore([line]) == ["bas\u0327ka çok"]


def test_suggest_reports_changed_words_with_alternatives(restorer):
    [suggestions] = restorer.suggest(["Bugun hava cok guzel."])
    found = {s.original: s for s in suggestions}
    assert set(found) == {"Bugun", "cok", "guzel"}
    cok = found["cok"]
    assert (cok.span.start, cok.span.end, cok.replacement) == (11, 14, "çok")
    assert 0.5 < cok.confidence <= 1.0
    assert cok.alternatives[0].text == "çok"
    assert sorted((a.score for a in cok.alternatives), reverse=True) == [a.score for a in cok.alternatives]


def test_rejects_non_text(restorer):
    with pytest.raises(TypeError):
        restorer.restore([b"bytes"])


def _check_contract(line: str, output: str) -> None:
    assert len(output) == len(line)
    for before, after in zip(line, output, strict=True):
        if before != after:
            assert before in AMBIGUOUS and after == PAIRS[before]


turkish_like = st.text(
    alphabet=st.sampled_from("abcçdefgğhıijklmnoöprsştuüvyzABCÇDEFGĞHIİJKLMNOÖPRSŞTUÜVYZ '’-.,\n"), max_size=80
)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.one_of(st.text(max_size=60), turkish_like), min_size=1, max_size=4))
def test_contract_on_arbitrary_unicode(restorer, lines):
    outputs = restorer.restore(lines)
    assert len(outputs) == len(lines)
    for line, output in zip(lines, outputs, strict=True):
        _check_contract(line, output)
    assert restorer.restore(outputs) == outputs


@settings(max_examples=100, deadline=None)
@given(turkish_like)
def test_typed_diacritics_are_kept(restorer, line):
    [output] = restorer.restore([line])
    for before, after in zip(line, output, strict=True):
        if before not in AMBIGUOUS:
            assert after == before


@settings(max_examples=50, deadline=None)
@given(st.text(alphabet=st.sampled_from("a🙂汉字\u0301\r\n\x00 cgiosu"), max_size=40))
def test_emoji_cjk_marks_crlf_nul_pass_through(restorer, line):
    [output] = restorer.restore([line])
    _check_contract(line, output)
    assert asciify(tr_lower(output)) == asciify(tr_lower(line))


def test_suggestions_on_a_line_with_turkish_letters_say_whether_the_spelling_is_attested(restorer):
    [suggestions] = restorer.suggest(["Şu cok gozlukculerimizdenmissiniz"])
    assert [(s.replacement, s.attested) for s in suggestions] == [
        ("çok", True),
        ("gözlükçülerimizdenmişsiniz", False),
    ]
    cok = suggestions[0]
    assert cok.count > 100 * cok.typed_count  # çok is written, cok (almost) never
    assert suggestions[1].typed_count == 0


def test_words_of_an_ascii_line_are_not_counted(restorer):
    # typed without Turkish letters, the typed forms are no evidence: nothing to count
    [suggestions] = restorer.suggest(["cok gozlukculerimizdenmissiniz"])
    assert [s.replacement for s in suggestions] == ["çok", "gözlükçülerimizdenmişsiniz"]
    assert all(s.count is None and s.typed_count is None and not s.attested for s in suggestions)


def test_a_capital_i_counts_as_dotless_on_a_line_with_turkish_letters(restorer):
    # a keyboard with İ types Iyi for ıyi, never written; on an ASCII line Iyi may mean İyi
    [typed, _], [_, ascii] = restorer.suggest(["Çok Iyi ve guzel", "Cok Iyi"])
    assert typed.replacement == ascii.replacement == "İyi"
    assert typed.typed_count < 1 < 100 < typed.count
    assert ascii.typed_count is None


def test_capitals_on_a_line_with_turkish_letters_stay_as_typed(restorer):
    # its writer could type İ: IYI there is an acronym as meant; on an ASCII line, İYİ
    typed, [_, ascii] = restorer.suggest(["Çok IYI", "COK IYI"])
    assert typed == []
    assert ascii.replacement == "İYİ"


@pytest.mark.parametrize(
    ("name", "backend"),
    [("ngram.npz", "ngram"), ("default.json", "default"), ("best.safetensors", "neural"), ("run", "neural")],
)
def test_model_files_map_to_their_backend(tmp_path, name, backend):
    path = tmp_path / name
    path.mkdir() if name == "run" else path.touch()
    assert backend_for_path(path).name == backend


def test_a_weights_file_loads_the_default_with_those_weights(tmp_path):
    weights = tmp_path / "mine.json"
    write_weights(Weights(context=2.0), weights, {})
    restorer = load_restorer(str(weights), device="cpu")
    assert isinstance(restorer, DefaultRestorer) and restorer.weights.context == 2.0


def test_suggest_is_the_same_with_every_word_fully_ranked(restorer, monkeypatch):
    """``suggest`` lets a backend leave empty the rankings of words it keeps as typed (capital
    I as ı): the suggestions are those it would make from every word's full ranking."""
    lines = [
        "Istanbul'da ISIK ve Isik, çok güzel bir gün",
        "Bugun hava cok guzel; IYI günler, Ismail",
        "Türkiye'nin başkenti Ankara'dır. İSTANBUL'da ılık",
        "sinir sınır sinif ISTE iste İşte",
    ]
    shortened = restorer.suggest(lines)
    full_rank = type(restorer).rank
    monkeypatch.setattr(
        type(restorer),
        "rank",
        lambda self, ls, spans, scores, typed=None, cased=None: full_rank(self, ls, spans, scores, cased=cased),
    )
    assert restorer.suggest(lines) == shortened

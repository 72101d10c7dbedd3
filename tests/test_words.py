"""Tokens as the count-based model sees them: keys and spelling masks."""

from hypothesis import given
from hypothesis import strategies as st

from nokta_model.alphabet import fold_key
from nokta_model.words import spelling_mask, token_key


@given(st.text(alphabet=st.characters(max_codepoint=127)))
def test_an_ascii_token_key_is_its_fold(token):
    assert token_key(token) == fold_key(token)


def test_token_keys_fold_case_diacritics_and_apostrophes():
    assert [token_key(t) for t in ("ISTANBUL'da", "İstanbul’da", "çağ")] == ["istanbul'da", "istanbul'da", "cag"]


def test_spelling_masks():
    assert spelling_mask("cag", "cag") == 0
    assert spelling_mask("cag", "çağ") == 0b101
    assert spelling_mask("cag", "cağ") == 0b100
    assert spelling_mask("i" * 70, "i" * 70) == 0
    assert spelling_mask("i" * 70, "i" * 65 + "ı" * 5) is None  # beyond the mask's bits

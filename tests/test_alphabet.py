from hypothesis import given
from hypothesis import strategies as st

from nokta_model.alphabet import (
    asciify,
    fold_key,
    nfc_with_offsets,
    restore_letters,
    tr_lower,
    tr_upper,
)


def test_asciify_maps_every_turkish_letter_and_circumflex():
    assert asciify("çğıöşü ÇĞİÖŞÜ âîû ÂÎÛ") == "cgiosu CGIOSU aiu AIU"


def test_turkish_case_keeps_length_and_dots():
    assert tr_lower("İSTANBUL IŞIK") == "istanbul ışık"
    assert tr_upper("istanbul ışık") == "İSTANBUL IŞIK"
    assert len(tr_lower("İ")) == 1


def test_fold_key_is_lower_ascii():
    assert fold_key("TÜRKİYE'NİN") == "turkiye'nin"


def test_restore_letters_keeps_case_with_turkish_rules():
    assert restore_letters("TURKIYE", "türkiye") == "TÜRKİYE"
    assert restore_letters("Istanbul", "istanbul") == "İstanbul"
    assert restore_letters("ISIK", "ışık") == "IŞIK"


def test_restore_letters_keeps_typed_diacritics_and_other_letters():
    assert restore_letters("güzel", "guzel") == "güzel"
    assert restore_letters("cab", "çäb") == "çab"


def test_nfc_offsets_point_into_the_decomposed_original():
    original = "bas\u0327ka"
    nfc, starts = nfc_with_offsets(original)
    assert nfc == "başka"
    assert [original[starts[i]] for i in range(len(nfc))] == ["b", "a", "s", "k", "a"]
    assert starts[-1] == len(original)


@given(st.text())
def test_case_mapping_keeps_length(text):
    assert len(tr_lower(text)) == len(text)
    assert len(tr_upper(text)) == len(text)
    assert len(asciify(text)) == len(text)


@given(st.text())
def test_nfc_offsets_are_monotonic_and_complete(text):
    nfc, starts = nfc_with_offsets(text)
    assert len(starts) == len(nfc) + 1
    assert list(starts) == sorted(starts) and starts[-1] == len(text)

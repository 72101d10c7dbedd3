"""Suffix harmony after an apostrophe or a number, and inside a suffix: the rules, then the
shipped default and `nokta restore` on sentences written for these tests."""

from __future__ import annotations

import subprocess
import sys

import pytest

from nokta_model.default.harmony import Suffix, disagreements, harmonious_masks, token_suffix
from nokta_model.lattice import Position
from nokta_model.reading import kept_suffix, number_vowel, stem_back
from nokta_model.spans import word_spans
from nokta_model.words import spell, spelling_mask


@pytest.mark.parametrize(
    ("number", "vowel"),
    [
        ("0", "ı"), ("3", "ü"), ("6", "ı"), ("40", "ı"), ("1990", "a"), ("100", "ü"), ("2000", "i"),
        ("5000000", "o"), ("8.40", "ı"), ("3,5", "e"), ("1.000", "i"), ("2,50", "i"),
    ],
)  # fmt: skip
def test_a_number_is_read_out_to_its_last_vowel(number, vowel):
    assert number_vowel(number) == vowel


@pytest.mark.parametrize(
    ("typed", "spelled", "back"),
    [
        ("PKK", "pkk", True),  # pe-ka-ka
        ("ABD", "abd", False),  # a-be-de
        ("AKP", "akp", False),  # a-ka-pe
        ("NATO", "nato", True),  # read as a word
        ("TUBITAK", "tübitak", True),
        ("YOK", "yök", False),
        ("DNA", "dna", True),
        ("x", "x", False),  # iks
        ("GB", "gb", True),  # gigabayt
        ("miRNA", "mirna", True),  # r-ne-a
        ("CRISPR", "crispr", None),  # re or ar: writers read it both ways
        ("XII", "xii", False),  # on iki
        ("XVI", "xvi", True),  # on altı
        ("Silverlight", "silverlight", True),  # ay
        ("Google", "google", True),  # ıl
        ("Harry", "harry", False),
        ("Moody's", "moody's", False),  # a name with its possessive
        ("iPhone", "iphone", True),
        ("Python", "python", True),
        ("GitHub", "github", True),
        ("Kafka", "kafka", True),
        ("Ankara", "ankara", True),
        ("İzmir", "izmir", False),
        ("Erdoğan", "erdoğan", True),
        ("Flaubert", "flaubert", None),  # an e: writers disagree
        ("Shakespeare", "shakespeare", None),
        ("Kemal", "kemal", None),  # a front l
        ("callback", "callback", None),  # the a of cat
    ],
)
def test_what_a_suffix_follows_is_read_as_it_is_pronounced(typed, spelled, back):
    assert stem_back(typed, spelled) is back


def test_a_stem_in_capitals_before_a_suffix_in_capitals_may_be_a_word():
    assert stem_back("TURK", "türk", shouted=True) is None  # TÜRK'ÜN: not tü-re-ka
    assert stem_back("ANKARA", "ankara", shouted=True) is True
    assert stem_back("TURK", "türk") is True  # with a suffix in lower case, an acronym: te-ü-re-ka


def spelled_masks(key: str, suffix: Suffix, typed: str, both: bool) -> list[str]:
    return [spell(key, mask) for mask in harmonious_masks(key, suffix, spelling_mask(key, typed) or 0, both)]


def test_the_vowels_of_a_suffix_agree_with_each_other():
    key = "component'lari"
    suffix = Suffix(key.index("'") + 1, "component")
    assert spelled_masks(key, suffix, "component'lari", both=True) == ["component'ları"]  # the a settles it
    key = "dosya'inin"
    suffix = Suffix(6, "dosya")
    assert spelled_masks(key, suffix, "dosya'ının", both=False) == ["dosya'ının"]
    assert spelled_masks(key, suffix, "dosya'ınin", both=True) == ["dosya'ının", "dosya'inin"]


def test_a_suffix_follows_a_stem_kept_as_typed_up_to_the_first_vowel_typed_otherwise():
    assert kept_suffix("Fagin", "fagın", "'ının", "'inin") == "'inin"
    assert kept_suffix("Fagin", "fagın", "'ınde", "'inde") == "'inde"
    assert kept_suffix("Fagin", "fagın", "'ından", "'indan") == "'ından"  # a typed a out of harmony: unchanged
    assert kept_suffix("Fagin", "fagın", "'ın", "'ın") == "'ın"  # a dotless ı typed is the writer's
    assert kept_suffix("Bach", "baç", "'ün", "'un") == "'un"


def test_a_suffix_is_left_where_the_stem_is_spelled_as_typed_or_its_reading_is_unsettled():
    assert kept_suffix("Fagin", "fagin", "'ın", "'in") == "'ın"
    assert kept_suffix("sâ", "sa", "'yın", "'yin") == "'yın"  # the restorer writes no circumflex
    assert kept_suffix("Impacts", "ımpacts", "'in", "'in") == "'in"  # nor a capital I's dot
    assert kept_suffix("Roosevelt", "rööşevelt", "'ın", "'in") == "'ın"  # an e: writers disagree


def test_unchanging_suffixes_keep_their_vowel_and_give_it_to_what_follows():
    key = "ankara'dakiler"
    assert spelled_masks(key, Suffix(7, "Ankara"), "ankara'dakiler", both=True) == ["ankara'dakiler"]
    key = "google'layabilir"
    assert spelled_masks(key, Suffix(7, "Google"), "google'layabılır", both=True) == ["google'layabilir"]
    key = "excel'liyor"  # the i before -yor follows the stem; -yor stays back
    assert spelled_masks(key, Suffix(6, "Excel"), "excel'liyör", both=False) == ["excel'liyor"]


def test_what_holds_an_o_or_two_vowels_together_is_no_suffix():
    assert spelled_masks("l'europe", Suffix(2, "l"), "l'europe", both=True) == ["l'europe"]


def test_a_number_or_an_identifier_before_the_apostrophe_settles_the_whole_token():
    line = "Her birine 6'sar tane, ProgressBar'in rengi"
    tokens = word_spans(line)
    assert [line[t.start : t.end] for t in tokens] == ["Her", "birine", "sar", "tane", "in", "rengi"]
    six = Suffix(0, fixed_back=True, distributive=True, after_number=True)  # altı
    assert token_suffix(line, tokens[2], "sar") == six
    assert token_suffix(line, tokens[4], "in") == Suffix(0, "Bar", fixed_back=True)
    assert spelled_masks("sar", Suffix(0, fixed_back=True, distributive=True), "sar", both=True) == ["şar"]
    assert token_suffix(line, tokens[1], "birine") is None
    line = "Tanesi 40 $'lik, bloklar 4 kB'lik"
    _, first, _, second = word_spans(line)
    assert token_suffix(line, first, "lik") == Suffix(0, fixed_back=True)  # dolar
    assert token_suffix(line, second, "lik") == Suffix(0, "kB", fixed_back=True)  # kilobayt


def test_spellings_out_of_harmony_with_the_stem_are_flagged():
    key = "pkk'yi"
    position = Position([3, 4], masks=[0, 1 << 5], key=key)  # pkk'yi, pkk'yı
    assert disagreements(position, Suffix(4, "PKK")) == [True, False]
    assert disagreements(position, Suffix(4, "pkk")) == [False, False]  # not an acronym: no vowel to go by


SENTENCES = [
    ("Yeni surumde ProgressBar'in rengi degisti.", "Yeni sürümde ProgressBar'ın rengi değişti."),
    ("Silverlight'in destegi bu yil bitiyor.", "Silverlight'ın desteği bu yıl bitiyor."),
    ("Bakan, PKK'yi kinadi.", "Bakan, PKK'yı kınadı."),
    ("Toplantida herkese 6'sar kalem dagittik.", "Toplantıda herkese 6'şar kalem dağıttık."),
    ("Kosuyu 16'nci sirada bitirdi.", "Koşuyu 16'ncı sırada bitirdi."),
    ("Butun component'lari tek tek guncelledik.", "Bütün component'ları tek tek güncelledik."),
    ("Yeni surum README.md'sinde anlatiliyor.", "Yeni sürüm README.md'sinde anlatılıyor."),
    ("Fiyatlar yuzde 8.40'i asti.", "Fiyatlar yüzde 8.40'ı aştı."),
    ("Satir(lar)in yuksekligini ayarla.", "Satır(lar)ın yüksekliğini ayarla."),
    # a suffix written apart after a title in quotes, as the title's last word is read (layts)
    (
        'Sarki "All of the Lights" in albumun ikinci single\'i oldu.',
        'Şarkı "All of the Lights" ın albümün ikinci single\'ı oldu.',
    ),
    # after a number the reading settles the vowel, whatever the words around favour
    ("Ogrencilerin 164’u 15 yasinda, 334’u 16 yasinda.", "Öğrencilerin 164’ü 15 yaşında, 334’ü 16 yaşında."),
]


@pytest.mark.parametrize(("typed", "meant"), SENTENCES)
def test_the_shipped_default_spells_suffixes_in_harmony(typed, meant):
    from nokta_model.backends import load_restorer

    assert load_restorer("default", device="cpu").restore([typed]) == [meant]


def test_nokta_restore_spells_suffixes_in_harmony():
    typed = "\n".join(typed for typed, _ in SENTENCES) + "\n"
    command = [sys.executable, "-m", "nokta_model", "restore", "--format", "plain"]
    result = subprocess.run(command, input=typed.encode(), capture_output=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert result.stdout.decode().splitlines() == [meant for _, meant in SENTENCES]


def test_nokta_restore_spells_a_suffix_after_masked_code_or_a_mention_in_harmony():
    typed = "Bunu `Flask`'in belgelerinde, @nzakas'in yazisinda ve `git`'in kaynaginda okudum.\n"
    command = [sys.executable, "-m", "nokta_model", "restore", "--format", "markdown"]
    result = subprocess.run(command, input=typed.encode(), capture_output=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert (
        result.stdout.decode() == "Bunu `Flask`'ın belgelerinde, @nzakas'ın yazısında ve `git`'in kaynağında okudum.\n"
    )

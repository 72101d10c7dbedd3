"""Issue 46, item 4: the smaller classes of wrong output, each a rule, on sentences of our own."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from nokta_model.backends import load_restorer
from nokta_model.prose import masker_for
from nokta_model.reading import number_back
from nokta_model.restorer import Restorer


def prose_words(format_name: str, text: str) -> list[str]:
    """The prose left of each line of ``text`` masked as ``format_name``, spaces squeezed."""
    return [re.sub(r"\s+", " ", line).strip() for line in masker_for(format_name).mask_lines(text.split("\n"))]


IDE_LINES = (
    '<span style="color:#0000ff">public</span> <span style="color:#0000ff">class</span> '
    '<span style="color:#2b91af">Ogrenci</span>\n'
    '&nbsp;&nbsp;<span style="color:blue;">string</span>&nbsp;ad&nbsp;=&nbsp;'
    '<span style="color:#a31515;">"ogrenci adi"</span>;<br>\n'
    "<font color=\"#7f0055\"><b>int</b></font> sayi = <font color='#990000'>5</font>;"
)


@pytest.mark.parametrize("format_name", ["markdown", "html"])
def test_code_coloured_span_by_span_is_not_prose(format_name):
    assert prose_words(format_name, IDE_LINES) == ["", "", ""]


@pytest.mark.parametrize("format_name", ["markdown", "html"])
def test_words_in_colour_inside_a_sentence_stay_prose(format_name):
    sentence = (
        'Bu <span style="color: #ff0000;">cok onemli</span> bir nokta, <span style="color:red">dikkat</span> edin.'
    )
    assert prose_words(format_name, sentence) == ["Bu cok onemli bir nokta, dikkat edin."]
    assert prose_words(format_name, 'Tek <span style="color:#a31515">"renkli kelime"</span>;') == [
        'Tek "renkli kelime" ;'
    ]


@pytest.mark.parametrize("format_name", ["markdown", "html"])
def test_attribute_values_are_not_prose(format_name):
    line = 'Formda <input type="text" value="kullanici adi" class="giris kutusu"> var.'
    assert prose_words(format_name, line) == ["Formda var."]


def test_a_hard_break_leaves_the_word_before_it_prose():
    text = "Satir sonu guzel\\\nyeni satir cok guzel\\  \n# Baslik guzel\\"
    assert prose_words("markdown", text) == ["Satir sonu guzel", "yeni satir cok guzel", "# Baslik guzel"]


@pytest.fixture(scope="module")
def shipped() -> Restorer:
    return load_restorer("default")


#: Words the count models have not seen or leave in doubt, so the network reads them.
BATCHED = [
    "Zirzopgiller kulubunun uyeleri dun aksam sahilde bulustu.",
    "Kuzenim Cagdasin getirdigi cicekleri vazoya koydum.",
    "Fistikcibasi dukkanini kapatip koyune dondu, orada bag bozumu yapiyor.",
    "Sinav sonuclari aciklaninca ogrenciler sevincten cigliklar atti.",
    "Yasli balikci aglarini ozenle katlayip kayigina yukledi.",
    "Mustesarligin yeni genelgesi okullara gonderildi.",
]


def test_a_line_is_restored_alike_whatever_lines_share_its_batch(shipped):
    alone = [shipped.suggest([line])[0] for line in BATCHED]
    assert shipped.suggest(BATCHED) == alone  # confidences too, to the last bit
    assert shipped.suggest(BATCHED[::-1]) == alone[::-1]


def test_a_file_standard_input_and_the_api_restore_alike(shipped, tmp_path):
    source = tmp_path / "metin.txt"
    source.write_text("\n".join(BATCHED) + "\n", encoding="utf-8")
    command = [sys.executable, "-m", "nokta_model", "restore"]
    from_file = subprocess.run([*command, str(source)], capture_output=True, text=True, timeout=300, check=True)
    piped = subprocess.run(command, input=source.read_text(), capture_output=True, text=True, timeout=300, check=True)
    assert from_file.stdout == piped.stdout == "\n".join(shipped.restore(BATCHED)) + "\n"


def test_a_lone_o_ending_a_sentence_is_the_pronoun(shipped):
    lines = ["Bunu soyleyen o.", "Suclu olan o! Gordugun kisi o? Kapida bekleyen o..."]
    assert shipped.restore(lines) == ["Bunu söyleyen o.", "Suçlu olan o! Gördüğün kişi o? Kapıda bekleyen o..."]


def test_the_o_of_died_in_a_lifes_dates_stays_the_letter(shipped):
    lines = ["Ahmet Bey (d. 1758 - o. 1809) buyuk sairdi.", "Sair Mehmet (d. 1890 Izmir o."]
    assert shipped.restore(lines) == ["Ahmet Bey (d. 1758 - ö. 1809) büyük şairdi.", "Şair Mehmet (d. 1890 İzmir ö."]


def test_a_half_is_read_as_its_suffix_says(shipped):
    line = "Oranin 1,5'u bizim, 2.5'luk dilim ve 4,5'unu aldik; 3,5'i yeter, 2,5'lik oran, 0,75'i ve 3,14'u kaldi."
    assert shipped.restore([line]) == [
        "Oranın 1,5'u bizim, 2.5'luk dilim ve 4,5'unu aldık; 3,5'i yeter, 2,5'lik oran, 0,75'i ve 3,14'ü kaldı."
    ]


def test_number_back_reads_a_half_two_ways():
    assert number_back("1,5", "u") and number_back("21.5", "luk")  # bir buçuğu, yirmi bir buçukluk
    assert not number_back("3,5", "i") and not number_back("2,5", "lik")  # üç virgül beşi, beşlik
    assert not number_back("1,25", "u") and not number_back("1.500", "u")  # yirmi beş, bin beş yüz


def test_a_suffix_typed_in_lower_case_after_capitals_follows_the_stem(shipped):
    line = "KITAPi okudum, PKKnin saldirisi, TURKIYEnin gelecegi, ISTANBULi gordum"
    assert shipped.restore([line]) == ["KİTAPı okudum, PKKnın saldırısı, TÜRKİYEnin geleceği, İSTANBULi gördüm"]


def test_a_word_with_q_w_or_x_keeps_its_capital_i(shipped):
    line = "WXYI ve QIS kodlari, XIAOMI telefonu ve SQLITE dosyasi"
    assert shipped.restore([line]) == ["WXYI ve QIS kodları, XIAOMI telefonu ve SQLITE dosyası"]

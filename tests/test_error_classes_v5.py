"""Issue 46, item 4: the smaller classes of wrong output, each a rule, on sentences of our own."""

from __future__ import annotations

import re

import pytest

from nokta_model.prose import masker_for


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

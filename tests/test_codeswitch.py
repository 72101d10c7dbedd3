"""Per-word code-switching: the language guard leaves mixed lines to the restorer."""

from nokta_model.prose import keep_turkish


def test_the_language_guard_leaves_a_turkish_line_with_an_english_term_to_the_restorer():
    line = "Framework 4.8 cikti! Hemen asagidaki linke bakin"
    assert keep_turkish([line]) == [line]
    assert keep_turkish(["We went to the park and it was great."])[0].strip() == ""

"""The suffix-harmony bench: its counts on sentences written for the test."""

from bench.suffix_harmony import markdown, measure

LINES = [
    "Bakan PKK'yı ve ABD'nin raporunu okudu.",  # by the letters: ka, de
    "1990'lı yıllarda GitHub'ın ilk sürümü yoktu.",  # a number; a word's last vowel
    "NBA'in yıldızı Flaubert'in romanını okudu.",  # en-bi-ey: against the letters; an e: unsettled
    "Yeni component'lari ekledik.",  # vowels that disagree inside the suffix
]


def test_each_rule_counts_the_suffixes_written_as_it_says_against_it_or_unsettled():
    report = measure(LINES)
    rules = report["rules"]
    assert rules["acronym by its letters"] | {"against_examples": None} == {
        "agree": 2, "against": 1, "unsettled": 0, "against_examples": None,
    }  # fmt: skip
    assert rules["acronym by its letters"]["against_examples"] == [("NBA'in", 1)]
    assert rules["number"]["agree"] == 1
    assert rules["last vowel"] == {"agree": 1, "against": 0, "unsettled": 1, "against_examples": []}
    assert report["suffixes"] == 6  # component'lari: its first vowel is an a
    assert report["disagreeing_inside"] == 1 and report["disagreeing_examples"] == [("lari", 1)]
    table = markdown(report | {"date": "d", "machine": "m"})
    assert "| acronym by its letters | 3 | 2 (66.7%) | 1 | 0 | NBA'in ×1 |" in table

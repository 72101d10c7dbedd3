"""Each sentence's language is its own (issue 48 item 2, issue 46): `nokta restore` keeps an
English sentence byte for byte and restores a Turkish one beside it, on the same line or
the next, with or without a blank line between, in either order; no language is carried
from one sentence onto the next."""

from __future__ import annotations

import subprocess
import sys

import pytest

from nokta_model.backends import load_restorer
from nokta_model.codeswitch import SENTENCE_FEATURES, read_guard, shipped_guard
from nokta_model.pipeline import restore_lines
from nokta_model.spans import word_spans

NOKTA = [sys.executable, "-m", "nokta_model", "restore"]

#: (typed, meant) Turkish sentences, most of whose words no hand list held, and English
#: sentences (typed as meant), as commit messages, chats and release notes mix them.
TURKISH = {
    "commit": (
        "Onbellek bosken uygulama cokuyordu, bunu duzelttim.",
        "Önbellek boşken uygulama çöküyordu, bunu düzelttim.",
    ),
    "revenue": ("Sirketin cirosu artti.", "Şirketin cirosu arttı."),
    "install": ("Kurulum sirasinda cikan hata giderildi.", "Kurulum sırasında çıkan hata giderildi."),
    "logs": ("Gunluklere baktim, sorun agda.", "Günlüklere baktım, sorun ağda."),
    "dinner": ("Aksam yemegine geliyor musun?", "Akşam yemeğine geliyor musun?"),
    "theme": ("Karanlik tema destegi eklendi.", "Karanlık tema desteği eklendi."),
    "meeting": ("Toplantiyi yarin ogleden sonraya erteledik.", "Toplantıyı yarın öğleden sonraya erteledik."),
}
ENGLISH = {
    "commit": "Fix the crash when the cache is empty.",
    "build": "The build failed again.",
    "logs": "Did you see the logs?",
    "sure": "Sure, I will look into it tonight.",
    "one": "One more thing: the tests are flaky on Windows.",
    "theme": "Added support for dark mode.",
    "python": "Dropped support for Python 3.8.",
}


def nokta(text: str, *args: str) -> str:
    done = subprocess.run([*NOKTA, *args], input=text, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout


def arrangements(english: str, typed: str, meant: str) -> list[tuple[list[str], list[str]]]:
    """(typed lines, meant lines) of the two sentences: on one line, on two, and with a
    blank line between, in both orders."""
    found = []
    for first, second in ((english, (typed, meant)), ((typed, meant), english)):
        pair = [(part, part) if isinstance(part, str) else part for part in (first, second)]
        (a_typed, a_meant), (b_typed, b_meant) = pair
        found += [
            ([f"{a_typed} {b_typed}"], [f"{a_meant} {b_meant}"]),
            ([a_typed, b_typed], [a_meant, b_meant]),
            ([a_typed, "", b_typed], [a_meant, "", b_meant]),
        ]
    return found


def test_every_english_sentence_stays_and_every_turkish_one_is_restored_in_every_arrangement():
    """One standard input holding every pair of sentences in every arrangement: what comes
    before a sentence, on its line or above it, never decides its language."""
    typed, meant = [], []
    for english in ENGLISH.values():
        for turkish_typed, turkish_meant in TURKISH.values():
            for typed_lines, meant_lines in arrangements(english, turkish_typed, turkish_meant):
                typed += [*typed_lines, ""]
                meant += [*meant_lines, ""]
    assert nokta("\n".join(typed) + "\n").split("\n") == [*meant, ""]


def test_the_reported_case():
    assert (
        nokta("The build failed again.\nSirketin cirosu artti.\n")
        == "The build failed again.\nŞirketin cirosu arttı.\n"
    )
    assert (
        nokta("The build failed again. Sirketin cirosu artti.\n") == "The build failed again. Şirketin cirosu arttı.\n"
    )


@pytest.mark.parametrize("blank_line", [True, False])
def test_commit_messages_with_an_english_subject_and_a_turkish_body_and_the_reverse(tmp_path, blank_line):
    between = [""] if blank_line else []
    messages = [
        (
            ["Fix the crash when the cache is empty", *between, TURKISH["commit"][0], TURKISH["logs"][0]],
            ["Fix the crash when the cache is empty", *between, TURKISH["commit"][1], TURKISH["logs"][1]],
        ),
        (
            ["Kurulum sirasinda cikan hata giderildi", *between, ENGLISH["build"] + " " + ENGLISH["sure"]],
            ["Kurulum sırasında çıkan hata giderildi", *between, ENGLISH["build"] + " " + ENGLISH["sure"]],
        ),
    ]
    comment = "# Please enter the commit message for your changes. Lines starting"
    for number, (typed, meant) in enumerate(messages):
        path = tmp_path / str(number) / ".git" / "COMMIT_EDITMSG"
        path.parent.mkdir(parents=True)
        path.write_text("\n".join([*typed, comment]) + "\n", encoding="utf-8")
        assert nokta("", str(path)) == "\n".join([*meant, comment]) + "\n"


def test_a_chat_log_alternating_languages_line_by_line():
    typed = [
        ENGLISH["logs"],
        TURKISH["logs"][0],
        ENGLISH["sure"],
        TURKISH["dinner"][0],
        "Thanks, merging it now.",
        TURKISH["meeting"][0] + " " + ENGLISH["one"],
        ENGLISH["build"] + " " + TURKISH["revenue"][0],
    ]
    meant = [
        ENGLISH["logs"],
        TURKISH["logs"][1],
        ENGLISH["sure"],
        TURKISH["dinner"][1],
        "Thanks, merging it now.",
        TURKISH["meeting"][1] + " " + ENGLISH["one"],
        ENGLISH["build"] + " " + TURKISH["revenue"][1],
    ]
    assert nokta("\n".join(typed) + "\n") == "\n".join(meant) + "\n"


def test_release_notes_in_markdown_an_english_list_with_a_turkish_bullet_and_paragraphs_of_each(tmp_path):
    typed = (
        "## 2.4.0\n\n"
        f"- {ENGLISH['theme']}\n- {TURKISH['theme'][0]}\n- {ENGLISH['python']}\n\n"
        f"{ENGLISH['build']} {ENGLISH['sure']}\n\n"
        f"{TURKISH['install'][0]} {TURKISH['revenue'][0]}\n\n"
        f"{TURKISH['meeting'][0]}\n"
        f"{ENGLISH['one']}\n"
    )
    meant = (
        "## 2.4.0\n\n"
        f"- {ENGLISH['theme']}\n- {TURKISH['theme'][1]}\n- {ENGLISH['python']}\n\n"
        f"{ENGLISH['build']} {ENGLISH['sure']}\n\n"
        f"{TURKISH['install'][1]} {TURKISH['revenue'][1]}\n\n"
        f"{TURKISH['meeting'][1]}\n"
        f"{ENGLISH['one']}\n"
    )
    notes = tmp_path / "NOTES.md"
    notes.write_text(typed, encoding="utf-8")
    assert nokta("", str(notes)) == meant
    reversed_notes = tmp_path / "NOTLAR.md"
    reversed_notes.write_text("\n\n".join(reversed(typed.split("\n\n"))), encoding="utf-8")
    assert nokta("", str(reversed_notes)) == "\n\n".join(reversed(meant.split("\n\n")))


# --- the decision, on the restorer ---------------------------------------------------------


@pytest.fixture(scope="module")
def restorer():
    return load_restorer("default", device="cpu")


#: English sentences, kept byte for byte: words English shares with Turkish (is/iş,
#: one/öne, sure/süre), a suffix-like "in" after a closing quote, capitals, apostrophes.
KEPT = [
    'They called it "Tonga" in English; the one we need is sure to work.',
    "We went to İstanbul with the team and it was great.",
    "WITHOUT ANY WARRANTY of MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.",
    'He said "we need the key" and left.',
    "However, it is what it is, and we go.",
    "The user's file isn't there, it's Bob's.",
]
#: (typed, meant): Turkish sentences with English terms, names, titles and clauses, and
#: beside English sentences.
RESTORED = [
    ("Ama bu cok iyi. This is the sure thing on the table.", "Ama bu çok iyi. This is the sure thing on the table."),
    ("Bugun geldim. This is the thing on the table.", "Bugün geldim. This is the thing on the table."),
    ("Toplanti yarin saat ucte, it is urgent though.", "Toplantı yarın saat üçte, it is urgent though."),
    ("Framework 4.8 cikti! Hemen asagidaki linke bakin", "Framework 4.8 çıktı! Hemen aşağıdaki linke bakın"),
    (
        "# baglanti adresi; PostgreSQL icin postgresql:// ile baslayan bir URL yazin",
        "# bağlantı adresi; PostgreSQL için postgresql:// ile başlayan bir URL yazın",
    ),
    (
        "Ingilizceye genelde Turkish War of Independence veya Turkish War of Liberation seklinde cevrilir.",
        "İngilizceye genelde Turkish War of Independence veya Turkish War of Liberation şeklinde çevrilir.",
    ),
    (
        'Yankovic "White and Nerdy" klibinde Atlantic Records sayfasini parodi amaciyla kullandi.',
        'Yankovic "White and Nerdy" klibinde Atlantic Records sayfasını parodi amacıyla kullandı.',
    ),
    (
        'Sarki "All of the Lights" in albumun bir sonraki single\'i olacagini da yazdi.',
        'Şarkı "All of the Lights" ın albümün bir sonraki single\'ı olacağını da yazdı.',
    ),
    (
        "Bu davranisin istenmedigi noktada, --verbatim-files-from secenegi kullanilarak devre disi birakilabilir.",
        "Bu davranışın istenmediği noktada, --verbatim-files-from seçeneği kullanılarak devre dışı bırakılabilir.",
    ),
]


def test_english_sentences_stay_and_turkish_ones_with_english_in_them_are_restored(restorer):
    typed = [*KEPT, *(line for line, _ in RESTORED)]
    assert restore_lines(restorer, typed) == [*KEPT, *(line for _, line in RESTORED)]


def test_the_shipped_guard_decides_sentences_on_their_own_words(restorer):
    lines = ["The build failed again. Sirketin cirosu artti.", "SHALL THE COPYRIGHT HOLDER BE LIABLE"]
    spans = [word_spans(line) for line in lines]
    english = shipped_guard().in_english_sentence(*restorer.ngram.guard_inputs(lines, spans)).tolist()
    assert english == [True] * 4 + [False] * 3 + [True] * 6


def test_a_licence_in_capitals_keeps_its_letters(restorer):
    line = "IMPLIED WARRANTIES OF MERCHANTABILITY AND FITNESS FOR A PARTICULAR PURPOSE ARE DISCLAIMED."
    assert restore_lines(restorer, [line]) == [line]


def test_the_shipped_guard_file_names_its_sentence_fit():
    guard, provenance = read_guard()
    assert guard.sentence_weights.shape == (len(SENTENCE_FEATURES),)
    assert provenance["sentences"] > provenance["english_sentences_fitted"] > 0

"""The shipped models on technical Turkish mixed with English: each class of the per-word decision."""

import subprocess
import sys

import pytest

from nokta_model.backends import load_restorer


@pytest.fixture(scope="module", params=["default", "ngram"])
def shipped(request):
    return load_restorer(request.param, device="cpu")


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        # English words under a capital I keep it; the Turkish words around them are restored.
        (
            "Yeni bir Issue actim, Item listesi ve Index sayfasi bozuk.",
            "Yeni bir Issue açtım, Item listesi ve Index sayfası bozuk.",
        ),
        ("Integer deger aliyor.", "Integer değer alıyor."),
        # Acronyms keep their letters: no İİŞ, no İE.
        ("Bugun IIS ve IE ile calistik.", "Bugün IIS ve IE ile çalıştık."),
        # Lower-case English words keep their dotted i.
        ("Bir input alani ekledik, initial degeri bos.", "Bir input alanı ekledik, initial değeri boş."),
        # An English word the lexicon could spell with Turkish letters stays as typed.
        ("Guru dedigimiz kisi geldi.", "Guru dediğimiz kişi geldi."),
        # A mixed line: the English term stays, the Turkish words are restored.
        ("Framework 4.8 cikti! Hemen asagidaki linke bakin", "Framework 4.8 çıktı! Hemen aşağıdaki linke bakın"),
        # Words running text writes only under a capital I keep their dotted i in lower case.
        ("Bu api'leri ve mnist verisini kullandik.", "Bu api'leri ve mnist verisini kullandık."),
        # Turkish words with a capital I are still dotted where running text dots them.
        ("Istanbul'da yeni bir Isik festivali var.", "İstanbul'da yeni bir Işık festivali var."),
        # A hyphenated word's capital I is looked up on the part it is in: no CRİSPR, MNİST.
        (
            "CRISPR-Cas9 yontemini ve Fashion-MNIST verisini kullandik.",
            "CRISPR-Cas9 yöntemini ve Fashion-MNIST verisini kullandık.",
        ),
        # A slip on a line typed with Turkish letters: a capital I there may still be İ.
        ("İzmir'e gittik, sonra Istanbul'a döndük.", "İzmir'e gittik, sonra İstanbul'a döndük."),
    ],
)
def test_each_class_of_english_words_acronyms_and_mixed_lines(shipped, typed, meant):
    assert shipped.restore([typed]) == [meant]


#: Each class of issue 38's guard errors, in sentences of our own: (typed, meant).
GUARD_CLASSES = [
    # A Turkish word whose ASCII form is English: restored in a Turkish sentence …
    ("Bu konu gundemde one cikti.", "Bu konu gündemde öne çıktı."),
    ("Is yerinde super bir gun gecirdik, sure de yetti.", "İş yerinde süper bir gün geçirdik, süre de yetti."),
    # … and kept in an English one.
    ("This is the one we need, I am sure it is super.", "This is the one we need, I am sure it is super."),
    # A headline in capitals is Turkish text, not a row of acronyms.
    ("BELEDIYE BASKANI YENI KOPRUYU ACTI", "BELEDİYE BAŞKANI YENİ KÖPRÜYÜ AÇTI"),
    # Acronyms running text writes with Turkish letters.
    ("ODTU ve ITU ogrencileri yarin bulusacak.", "ODTÜ ve İTÜ öğrencileri yarın buluşacak."),
    ("TUBITAK destegiyle OSYM sinavi yapildi.", "TÜBİTAK desteğiyle ÖSYM sınavı yapıldı."),
    ("AIHM karari bu hafta aciklanacak.", "AİHM kararı bu hafta açıklanacak."),
    # An English word with a Turkish suffix after its apostrophe keeps its letters; the suffix is restored.
    ("Dun acilan Issue'yu bugun kapattim.", "Dün açılan Issue'yu bugün kapattım."),
    # A name kept as typed takes its own suffix, not the one of the Turkish spelling it was not given.
    ("Dickens'in romaninda Fagin'in evi karanlikti.", "Dickens'in romanında Fagin'in evi karanlıktı."),
]


@pytest.mark.parametrize(("typed", "meant"), GUARD_CLASSES)
def test_words_english_spells_acronyms_and_headlines_are_decided_in_their_sentence(shipped, typed, meant):
    assert shipped.restore([typed]) == [meant]


def test_nokta_restore_decides_the_same():
    done = subprocess.run(
        [sys.executable, "-m", "nokta_model", "restore", "--backend", "ngram"],
        input="".join(f"{typed}\n" for typed, _ in GUARD_CLASSES),
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout == "".join(f"{meant}\n" for _, meant in GUARD_CLASSES)


def test_correct_mixed_text_fed_as_written_is_unchanged(shipped):
    line = "Bugün IIS ve IE ile bir input alanı ekledik, Integer değer alıyor."
    assert shipped.restore([line]) == [line]
    assert shipped.suggest([line]) == [[]]


def test_the_cli_restores_a_turkish_line_with_an_english_term():
    """Its first sentence, an English word and a number, is no English sentence (``test_language_per_sentence``)."""
    done = subprocess.run(
        [sys.executable, "-m", "nokta_model", "restore", "--backend", "ngram"],
        input="Framework 4.8 cikti! Hemen asagidaki linke bakin\n",
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout == "Framework 4.8 çıktı! Hemen aşağıdaki linke bakın\n"

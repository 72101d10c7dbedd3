from nokta_model.spans import word_part_texts, word_parts, word_spans


def words(line):
    return [line[s.start : s.end] for s in word_spans(line)]


def test_words_keep_apostrophe_suffixes_and_hyphens():
    assert words("Turkiye'nin baskenti Ankara'dir. Sened-i Ittifak, Türkiye’nin") == [
        "Turkiye'nin",
        "baskenti",
        "Ankara'dir",
        "Sened-i",
        "Ittifak",
        "Türkiye’nin",
    ]


def test_not_prose_tokens_are_skipped():
    line = (
        "bak https://ornek.com/cok ya da foo@bar.com /usr/bin/gorsel snake_case camelCase os.path.join 3.14 C:\\dosya"
    )
    assert words(line) == ["bak", "ya", "da"]


def test_roman_numerals_of_two_letters_or_more_are_not_words():
    assert words("(ii) ve iv. madde, xiv. yuzyil, Louis XIV, XIX. yuzyil, Kuran i Kerim, mi, vi, Ivi") == [
        "ve", "madde", "yuzyil", "Louis", "yuzyil", "Kuran", "i", "Kerim", "mi", "Ivi",
    ]  # fmt: skip


def test_number_suffixes_are_words():
    assert words("1808'de ve 3'u") == ["de", "ve", "u"]


def test_word_parts_split_hyphens():
    word = "Sened-i"
    assert [word[s.start : s.end] for s in word_parts(word)] == ["Sened", "i"]


def test_dotted_initials_and_glued_sentences_are_words():
    assert words("M.O. 300 yilinda, (T.C. Anayasasi) G.Saray kazandi") == [
        "M",
        "O",
        "yilinda",
        "T",
        "C",
        "Anayasasi",
        "G",
        "Saray",
        "kazandi",
    ]
    assert words("istemistir.Gunes de dosya.txt ornek.com.tr") == ["istemistir", "Gunes", "de"]
    assert words("M.O 300, T.C Anayasasi") == ["M", "O", "T", "C", "Anayasasi"]  # last dot left out
    short_forms = "G.Saray'in F.Bahce'yi yendi, T.C.'nin"
    assert words(short_forms) == ["G", "Saray'in", "F", "Bahce'yi", "yendi", "T", "C", "nin"]
    assert words("os.path'i ve a.b'c") == ["i", "ve"]  # a dotted name is code, a suffix after it a word
    assert words("Doc.Dr. Ayse, Yrd.Doc.Dr. Ali") == ["Doc", "Dr", "Ayse", "Yrd", "Doc", "Dr", "Ali"]


def test_a_word_glued_at_a_full_stop_to_a_token_that_is_no_prose_is_a_word():
    assert words("bunu acikladi.NASA'da calisan") == ["bunu", "acikladi", "NASA'da", "calisan"]
    assert words("karar cikartildi.(Cnnturk.com) -- yeni") == ["karar", "cikartildi", "yeni"]
    assert words("(app/config/config.yml).Diger servisler") == ["Diger", "servisler"]
    # dotted names stay code, whatever their capitals
    assert words("React.Component.render ve System.Console.WriteLine") == ["ve"]


def test_word_part_texts_are_the_texts_of_word_parts():
    for word in ("kitap", "Ankara'dır", "Türkiye’nin", "bas\u0327ka", "Sened-i", "x1-y", ""):
        assert word_part_texts(word) == [word[s.start : s.end] for s in word_parts(word)]

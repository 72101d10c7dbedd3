"""The prose layer: which characters of a document are Turkish prose, per format."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from nokta_model import prose
from nokta_model.prose import (
    FORMATS,
    format_for_path,
    mask_lines,
    masker_for,
    with_code_comments,
    with_rules,
)
from nokta_model.spans import BACK_STEM, FRONT_STEM


def masked(format_name: str, text: str, code_comments: bool = False) -> list[str]:
    """``text`` masked as ``format_name`` (with ``code_comments``: the server's
    ``checkCodeComments`` view, code blocks' comments and strings kept), spaces squeezed."""
    lines = text.split("\n")
    masker = masker_for(format_name)
    out = (with_code_comments(masker) if code_comments else masker).mask_lines(lines)
    assert [len(line) for line in out] == [len(line) for line in lines]
    return [re.sub(r"\s+", " ", line).strip() for line in out]


def test_markdown_skips_code_links_front_matter_and_html():
    text = (
        "---\ntitle: cok\n---\nBugun `kod` [guzel](http://x/cok) <https://a.b> <b>kalin</b>\n"
        "```\ncok\n```\nson <!-- not\ncok --> bitti\n\n[id]: http://x"
    )
    assert masked("markdown", text) == ["", "", "", "Bugun [guzel] kalin", "", "", "", "son", "bitti", "", ""]


def test_markdown_html_blocks_open_only_where_commonmark_says():
    assert masked("markdown", "\\<!-- yorum degil\nbu satir") == ["\\<!-- yorum degil", "bu satir"]
    assert masked("markdown", "Duz `<!--` metin\nsonra") == ["Duz metin", "sonra"]  # in a code span
    assert masked("markdown", "# Baslik <!-- acik\nalti") == ["# Baslik <!-- acik", "alti"]  # a heading ends
    # An HTML block of kind 2 (a line starting <!--) runs to -->, past blank lines.
    assert masked("markdown", "<!--\ngizli\n\ngizli\n--> sonra\nmetin") == ["", "", "", "", "sonra", "metin"]
    # A comment opened in a paragraph and not closed there masks that paragraph only.
    assert masked("markdown", "Bir <!-- acik\nayni\n\nyeni paragraf") == ["Bir", "", "", "yeni paragraf"]
    assert masked("markdown", "Bir <!-- gizli\ngizli --> acik") == ["Bir", "acik"]
    # Kind 6 (a <div>) ends at a blank line and its text is prose; kind 1 (<pre>) runs to </pre>.
    assert masked("markdown", '<div align="c">\nOrta <b>yazi</b>\n\n*vurgu*') == ["", "Orta yazi", "", "*vurgu*"]
    assert masked("markdown", "<pre>\nkod\n\nkod\n</pre>\nsonra") == ["", "", "", "", "", "sonra"]
    # A lone tag (kind 7) cannot interrupt a paragraph: the line after it stays prose.
    assert masked("markdown", "Paragraf\n<span>\nicerik") == ["Paragraf", "", "icerik"]


def test_markdown_html_pre_and_code_are_code_in_blocks_and_inside_paragraphs():
    # <pre> opens an HTML block of kind 1 anywhere a block may start, here inside a list item.
    assert masked("markdown", "- adim\n  <pre>sonuc = 1\n  sonuc</pre> bitti") == ["- adim", "", "bitti"]
    # Inline <code> and <pre> are raw HTML whose content is code; one left open runs on to the
    # paragraph's end, and a heading ends it.
    assert masked("markdown", "Deger <code>sonuc</code> olur, <pre>kod</pre> son") == ["Deger olur, son"]
    assert masked("markdown", "Ac <code>sonuc\nsonuc</code> bitti\n\nyeni") == ["Ac", "bitti", "", "yeni"]
    assert masked("markdown", "Ac <code>sonuc\n\nyeni paragraf") == ["Ac", "", "yeni paragraf"]
    assert masked("markdown", "# Baslik <code>kod\nmetin") == ["# Baslik", "metin"]
    assert masked("markdown", "Bos <code/> metin <code:adres> son") == ["Bos metin son"]  # no content; an autolink
    # A blank line ends a <div> block, but not a <pre> open in it: a browser shows what follows inside it.
    div = "<div>\n<pre>\nsonuc\n\nsonuc\n</pre>\n</div>\nmetin\n\nsonra"
    assert masked("markdown", div) == ["", "", "", "", "", "", "", "metin", "", "sonra"]


def test_html_raw_elements_with_a_tag_over_two_lines():
    assert masked("html", '<pre\n class="kod">sonuc\n</pre> metin <code/> son') == ["", "", "metin son"]
    assert masked("html", "<p>Deger <code>sonuc</code> olur</p>") == ["Deger olur"]


def test_code_blocks_are_code_whole_in_every_document_format():
    fences = '```python\n# dosyayi ac\ndosya = ac("veri")\n```\n~~~js\n// yorum\n~~~\n```\n# yorum\n```\nson'
    assert masked("markdown", fences) == [""] * 10 + ["son"]
    assert masked("markdown", "````markdown\nBir ornek metin\n````\n\n    # girintili\nson") == [""] * 5 + ["son"]
    assert masked("org", "#+begin_src python\n# yorum\n#+end_src\nson") == ["", "", "", "son"]
    assert masked("asciidoc", '[source,python]\n----\nx = "metin"\n----\nson') == ["", "", "", "", "son"]
    assert masked("rst", ".. code-block:: python\n\n   # yorum\n\nson") == ["", "", "", "", "son"]
    latex = "\\begin{lstlisting}\n% yorum\n\\end{lstlisting}\n\\begin{minted}{python}\n# yorum\n\\end{minted} son"
    assert masked("latex", latex) == ["", "", "", "", "", "son"]
    assert masked("latex", "\\verb|kod metin| ve \\lstinline!kod! ve \\mintinline{py}{'kod'} son") == ["ve ve son"]
    assert masked("html", "<pre>\n# yorum\n</pre> son") == ["", "", "son"]
    assert masked("gitcommit", "Duzelt\n\ndiff --git a/x b/x\n+# yorum") == ["Duzelt", "", "", ""]
    # The directives' layer goes over the masker that leaves code blocks whole.
    assert with_rules(masker_for("markdown")).mask_lines(["```python", "# yorum", "```"]) == [" " * 9, " " * 7, " " * 3]


def test_code_comments_view_keeps_a_blocks_comments_and_strings_and_only_a_documents():
    assert with_code_comments(masker_for("plain")) is masker_for("plain")
    assert with_code_comments(masker_for("code-hash")) is masker_for("code-hash")
    viewed = with_code_comments(masker_for("markdown"))
    assert with_code_comments(masker_for("markdown")) == viewed and with_code_comments(viewed) is viewed
    with pytest.raises(ValueError, match="before with_rules"):
        with_code_comments(with_rules(masker_for("markdown")))


def test_markdown_fences_with_a_language_are_masked_as_its_code():
    text = '```python\n# dosyayi ac\ndosya = ac("veri")\n```\n~~~js\n// yorum\nf(x) /* blok\nsurer */\n~~~\nson'
    out = ["", "dosyayi ac", "veri", "", "", "yorum", "blok", "surer", "", "son"]
    assert masked("markdown", text, code_comments=True) == out
    assert masked("markdown", "```unknown\n# yorum\n```", code_comments=True) == [""] * 3
    assert masked("markdown", "```kod``` ve metin") == ["ve metin"]  # a code span, not a fence
    quoted = "> ```python\n> # yorum\nmetin"
    assert masked("markdown", quoted, code_comments=True) == [">", "yorum", "metin"]  # the quote ends it
    assert masked("markdown", quoted) == [">", "", "metin"]


def test_a_markdown_fence_without_a_language_keeps_only_its_comment_lines():
    text = "```\n# imaji indirip calistiriyoruz\ndocker run --rm kuyruk # bu kod\n  // girintili yorum\n#!/bin/sh\n```"
    out = ["", "imaji indirip calistiriyoruz", "", "girintili yorum", "", ""]
    assert masked("markdown", text, code_comments=True) == out


def test_a_markdown_fence_holding_markdown_is_masked_as_markdown():
    text = "````markdown\n`kuyruga_ekle` icinde kontrol **iki** kez\n```python\nx = 1  # yorum\n```\n````\nson"
    out = ["", "icinde kontrol **iki** kez", "", "yorum", "", "", "son"]
    assert masked("markdown", text, code_comments=True) == out


def test_an_xml_fence_keeps_only_its_comments():
    text = '```xml\n<!-- tum istekleri yonlendiriyoruz -->\n<rule name="Panel">metin</rule>\n<!-- uzun\nyorum -->\n```'
    out = ["", "tum istekleri yonlendiriyoruz", "", "uzun", "yorum", ""]
    assert masked("markdown", text, code_comments=True) == out
    assert format_for_path("web.xml") == "code-xml"


def test_code_blocks_with_a_language_in_org_rst_and_asciidoc():
    block = '# dosyayi ac\nx = ac("veri")'
    org = f"#+begin_src python\n{block}\n#+end_src\n#+begin_src\n# kod\n#+end_src\nmetin"
    assert masked("org", org, code_comments=True) == ["", "dosyayi ac", "veri", "", "", "", "", "metin"]
    rst = f".. code-block:: python\n   :linenos:\n\n   {block.replace(chr(10), chr(10) + '   ')}\n\nSonra::\n\n   # kod"
    assert masked("rst", rst, code_comments=True) == ["", "", "", "dosyayi ac", "veri", "", "Sonra::", "", ""]
    adoc = f"[source,python]\n----\n{block}\n----\nmetin\n----\n# kod\n----"
    assert masked("asciidoc", adoc, code_comments=True) == ["", "", "dosyayi ac", "veri", "", "metin", "", "", ""]


def test_markdown_lists_and_indented_code():
    text = "- madde\n  devam\n\n      kod\n- iki\n\nParagraf\n\n    kod\n1.  bir\n\n    > alinti"
    out = ["- madde", "devam", "", "", "- iki", "", "Paragraf", "", "", "1. bir", "", "> alinti"]
    assert masked("markdown", text) == out
    assert masked("markdown", "[id]: /yol 'baslik'\n[^1]: Dipnot metni.") == ["", "[^1]: Dipnot metni."]


def test_urls_and_email_addresses_are_blanked_in_every_format():
    line = "bkz https://example.com/guzel-sayfa, www.ornek.com/cok, github.com/ali/guzel, ali@guzel.com.tr adresleri"
    for name, masker in FORMATS.items():
        text = f"<!-- {line} -->" if name == "code-xml" else f'x = "{line}"' if masker.code else line
        out = masker.mask_lines([text])[0]
        assert "bkz" in out and "adresleri" in out, name
        assert not re.search(r"guzel|ornek|cok|ali|veli|github", out), (name, out)
    assert mask_lines("plain", ["ve/veya A/B testi, km/saat"]) == ["ve/veya A/B testi, km/saat"]


def test_code_strings_blank_shell_variables():
    assert masked("code-hash", 'echo "kuruluyor $AD ${YOL}"') == ["kuruluyor"]


def test_latex_skips_commands_math_comments_and_environments():
    text = (
        "Bugun \\textbf{cok} guzel $x cok$ \\cite{key} % yorum\n"
        "\\begin{equation}\na = cok\n\\end{equation} sonra \\(y\\) \\ref{abc}"
    )
    assert masked("latex", text) == ["Bugun cok guzel", "", "", "sonra"]


def test_html_rst_gitcommit_org_and_asciidoc():
    assert masked("html", '<p class="x">Bugun <b>cok</b> &amp;</p><script>\nvar cok;\n</script>son') == [
        "Bugun cok",
        "",
        "son",
    ]
    rst = (
        "Metin ``kod`` :func:`f` `bag <http://x>`_\n\n.. code-block:: python\n\n   kod = 1\n\n"
        "Son::\n\n   literal\n\nbitti\n.. note:: bu guzel"
    )
    assert masked("rst", rst) == ["Metin `bag `_", "", "", "", "", "", "Son::", "", "", "", "bitti", "bu guzel"]
    assert masked("gitcommit", "Duzelt cok\n\n# comment\nSigned-off-by: A <a@b.c>\n# ------ >8 ------\nguzel") == [
        "Duzelt cok",
        "",
        "",
        "",
        "",
        "",
    ]
    assert masked("org", "#+title: x\nBugun =kod= [[http://x][guzel]]\n#+begin_src\ncok\n#+end_src\nson") == [
        "",
        "Bugun [guzel]",
        "",
        "",
        "",
        "son",
    ]
    assert masked("asciidoc", ":toc:\nBugun `kod` guzel\n----\ncok\n----\nson") == [
        "",
        "Bugun guzel",
        "",
        "",
        "",
        "son",
    ]


def test_code_comments_and_strings():
    assert masked("code-hash", 'x = "cok\\n"  # guzel\ns = """uzun\nmetin"""') == ["cok guzel", "uzun", "metin"]
    assert masked("code-c", "let a = 1; /* cok\nguzel */ b('x') // son") == ["cok", "guzel x son"]


def test_strings_that_hold_data_are_code_and_messages_are_prose():
    # Keys, subscripts and lists of one-word strings name fields and columns: code.
    assert masked("code-hash", 'yazici.writerow(["tarih", "urun", "adet"])  # basliklar') == ["basliklar"]
    assert masked("code-hash", 'for alan in ("baslangic", "bitis"):') == [""]
    assert masked("code-hash", 'veri = {"alici": "Ayse Cicek"}; x = istek["baslangic"]') == ["Ayse Cicek"]
    assert masked("code-hash", 'json={"baslik": "Alisveris", "icerik": "sut"}') == ["Alisveris sut"]
    assert masked("code-hash", """curl -d '{"baslangic": "2024", "bitis": "x"}'""") == [""]
    # A lone one-word string, or words with spaces, is a message: prose.
    assert masked("code-hash", 'Dugme("Iptal"); hata(f"{alan} eksik, lutfen girin")') == ["Iptal eksik, lutfen girin"]


def test_mentions_and_hashtags_are_masked_in_every_format():
    line = "Bugun @Ozlem ile #guzelgunler yazdik, ozlem@site.com ve C# dersi."
    for name in FORMATS:
        text = f"// {line}" if name == "code-c" else f"# {line}" if name == "code-hash" else line
        if name.startswith("code-") and name not in ("code-c", "code-hash"):
            continue
        out = mask_lines(name, [text])[0]
        assert "Ozlem" not in out and "guzelgunler" not in out, name
        assert "Bugun" in out and "yazdik" in out, name


def test_a_masked_token_a_suffix_follows_keeps_a_stand_in_for_how_it_is_read():
    [line] = mask_lines("markdown", ["`Django`'nin, @nzakas'in, `git`'in, `React`'in"])
    # back for Django and nzakas, front for git; React is read two ways: blank
    assert (
        line
        == " " * 7
        + BACK_STEM
        + "'nin, "
        + " " * 6
        + BACK_STEM
        + "'in, "
        + " " * 4
        + FRONT_STEM
        + "'in, "
        + " " * 7
        + "'in"
    )
    # an apostrophe after an opening bracket or inside prose is no suffix; code files have none
    assert mask_lines("plain", ["print('merhaba') ve Ali'nin"]) == ["print('merhaba') ve Ali'nin"]
    assert not {BACK_STEM, FRONT_STEM} & set(mask_lines("code-hash", ["x = f'kullanici adi'  # @ali'nin"])[0])


def test_registry_by_name_path_and_language_id():
    assert list(FORMATS)[:8] == ["plain", "markdown", "latex", "html", "rst", "org", "asciidoc", "gitcommit"]
    assert format_for_path("notes/NOT.MD") == "markdown"
    assert format_for_path("/repo/.git/COMMIT_EDITMSG") == "gitcommit"
    assert format_for_path("paper.tex") == "latex" and format_for_path("a.py") == "code-hash"
    assert format_for_path("README") == "plain" and format_for_path("x.unknown") == "plain"
    assert prose.masker_for_language_id("plaintex") is FORMATS["latex"]
    assert prose.masker_for_language_id("nope") is None
    with pytest.raises(ValueError, match="unknown format 'word'; expected one of plain, markdown"):
        masker_for("word")


def test_states_are_typed_not_strings():
    for masker in FORMATS.values():
        state = masker.start
        for line in ("```", "<!-- x", "\\begin{equation}", "/* a", "#+begin_src", "----", "Son::", '"""'):
            _, state = masker.mask_line(state, line)
            assert not isinstance(state, str), masker.name
            hash(state)


def test_masked_lines_blank_markup_and_leave_each_sentence_to_the_restorer():
    """An English sentence is prose here: the restorer decides its language (``test_language_per_sentence``)."""
    lines = ["Bugun `kod` cok guzel.", "This is the thing we want."]
    assert mask_lines("markdown", lines) == ["Bugun       cok guzel.", lines[1]]


@given(st.sampled_from(list(FORMATS)), st.lists(st.text(max_size=40), max_size=8))
def test_every_masker_keeps_lengths_and_only_blanks(name, lines):
    lines = [line.replace("\n", " ").replace("\r", " ") for line in lines]
    for line, out in zip(lines, mask_lines(name, lines), strict=True):
        assert len(out) == len(line)
        assert all(o == c or o in " \t" for o, c in zip(out, line, strict=True))


def test_prose_needs_neither_the_protocol_nor_torch():
    code = "import sys, nokta_model.prose; print(sorted({'pygls', 'lsprotocol', 'torch'} & set(sys.modules)))"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout == "[]\n"

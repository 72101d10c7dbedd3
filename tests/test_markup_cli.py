"""`nokta restore` on a Markdown file: CommonMark's blocks; fenced code and URLs as written."""

from __future__ import annotations

import subprocess
import sys

NOKTA = [sys.executable, "-m", "nokta_model", "restore", "--backend", "ngram"]

NOTE = """# Kurulum

\\<!-- bu bir yorum degil, Bugun cok guzel bir gun.

Metin <!-- kapanmayan yorum
ayni paragraf

Yeni paragraf: hava cok guzel.

<!--
gizli not: cok guzel
-->
Sonra gelen satir guzel.

```python
# dosyayi ac
dosya = ac("cok_guzel.txt")
```

Adres: https://example.com/guzel-bir-sayfa ve yaz: guzel@ornek.com.tr
"""


def test_markdown_file_is_restored_by_commonmark_blocks(tmp_path):
    note = tmp_path / "note.md"
    note.write_text(NOTE, encoding="utf-8")
    result = subprocess.run([*NOKTA, str(note)], capture_output=True, timeout=300)
    assert result.returncode == 0, result.stderr
    restored = result.stdout.decode().split("\n")
    assert restored[2] == "\\<!-- bu bir yorum değil, Bugün çok güzel bir gün."  # an escaped < opens nothing
    assert restored[4:6] == NOTE.split("\n")[4:6]  # a comment left open masks its paragraph only
    assert restored[7] == "Yeni paragraf: hava çok güzel."
    assert restored[10] == "gizli not: cok guzel"  # an HTML block runs to -->
    assert restored[12] == "Sonra gelen satır güzel."
    assert restored[14:18] == NOTE.split("\n")[14:18]  # a code block, comments and strings too, as written
    assert restored[19] == "Adres: https://example.com/guzel-bir-sayfa ve yaz: guzel@ornek.com.tr"
    assert len(restored) == len(NOTE.split("\n"))


RAW_HTML_NOTE = """Sonuc <code>sonuc = hesapla()</code> satirinda cok guzel.

<pre>
sonuc = ogrenci_sayisi
</pre>

<div>
<pre>
sonuc

sonuc
</pre>
</div>
"""
RAW_HTML_PAGE = '<p>Sonuc <code>sonuc</code> cok guzel.</p>\n<pre\n class="kod">sonuc = ogrenci\n</pre> cok guzel\n'


def test_html_pre_and_code_are_code_in_markdown_and_html_files(tmp_path):
    note, page = tmp_path / "note.md", tmp_path / "page.html"
    note.write_text(RAW_HTML_NOTE, encoding="utf-8")
    page.write_text(RAW_HTML_PAGE, encoding="utf-8")
    result = subprocess.run([*NOKTA, str(note), str(page)], capture_output=True, timeout=300)
    assert result.returncode == 0, result.stderr
    restored = result.stdout.decode()
    note_lines = RAW_HTML_NOTE.split("\n")
    expected_note = ["Sonuç <code>sonuc = hesapla()</code> satırında çok güzel.", *note_lines[1:]]
    expected_page = ["<p>Sonuç <code>sonuc</code> çok güzel.</p>", *RAW_HTML_PAGE.split("\n")[1:3], "</pre> çok güzel"]
    assert restored.split("\n") == expected_note[:-1] + expected_page + [""]
    check = subprocess.run(
        [sys.executable, "-m", "nokta_model", "check", "--backend", "ngram", str(note), str(page)],
        capture_output=True,
        timeout=300,
    )
    assert check.returncode == 1, check.stderr
    findings = [line.split(": ", 1) for line in check.stdout.decode().splitlines()]
    flagged = [(where.rsplit("/", 1)[-1].rsplit(":", 1)[0], finding.split(" -> ")[0]) for where, finding in findings]
    assert flagged == [("note.md:1", word) for word in ("Sonuc", "satirinda", "cok", "guzel")] + [
        ("page.html:1", "Sonuc"), ("page.html:1", "cok"), ("page.html:1", "guzel"),
        ("page.html:4", "cok"), ("page.html:4", "guzel"),
    ]  # fmt: skip

"""`nokta restore` on a Markdown file: CommonMark's blocks, fenced code as its language, URLs as written."""

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
    assert restored[15:17] == ["# dosyayı aç", 'dosya = ac("cok_guzel.txt")']  # a comment, not the code
    assert restored[19] == "Adres: https://example.com/guzel-bir-sayfa ve yaz: guzel@ornek.com.tr"
    assert len(restored) == len(NOTE.split("\n"))

"""Which language a sentence is in is not decided here, and never carried from line to line.

The prose layer once blanked sentences it took for English, by counting words of two
hand-made lists and carrying the language of the last sentence with such a word onto
the sentences after it: a Turkish sentence none of whose words were on the lists
(``Sirketin cirosu artti.``) took the language of an English line above it and stayed
unrestored. The restorer now decides each sentence's language on that sentence's own
words, with the evidence its counts hold of every word (``nokta_model.codeswitch``: the
learned guard's sentence decision); the prose layer only masks what is not prose.

``turkish_line`` keeps the shape the language server's line state threads through
(``nokta_lsp.analysis.incremental``, ``nokta_lsp.analysis.autocorrect``): it blanks nothing and reports
every line with text as decided, so no line waits on the lines around it.
"""

from __future__ import annotations


def turkish_line(line: str, turkish: bool | None) -> tuple[str, bool | None, bool | None]:
    """``line`` as it is; after it, True (its sentences are the restorer's to decide) if it
    has text, else the language before it; and no document-wide decision."""
    return line, True if line.strip() else turkish, None

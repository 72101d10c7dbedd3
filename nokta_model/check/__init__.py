"""What ``nokta check`` and the language server flag: lines -> findings (``findings``),
ignored words (``words``)."""

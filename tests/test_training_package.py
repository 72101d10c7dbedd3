"""nokta train without the training extra: one line naming what to install, nothing written."""

from __future__ import annotations

import sys

import pytest

from nokta_model.app.cli import main


@pytest.mark.parametrize(("backend", "module"), [("neural", "torch"), ("ngram", "wordfreq")])
def test_a_trainer_whose_package_is_missing_names_the_extra(backend, module, tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, module, None)  # as if not installed: importing it raises ImportError
    output = tmp_path / "out"
    assert main(["train", "--backend", backend, "--output", str(output), "--corpus", str(tmp_path)]) == 1
    error = capsys.readouterr().err
    assert error == f"nokta: error: nokta train --backend {backend} needs {module}: pip install 'nokta[train]'\n"
    assert not output.exists()

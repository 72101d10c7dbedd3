"""End to end: Emacs with eglot, set up by ``editors/snippets/eglot.el`` only, talks to the real
``nokta-lsp --stdio``. Runs where Emacs and eglot are installed (Debian: emacs-nox elpa-eglot).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from nokta_model.ngram.artifact import DEFAULT_ARTIFACT

ROOT = Path(__file__).resolve().parents[1]
SNIPPET = ROOT / "editors" / "snippets" / "eglot.el"
EMACS = shutil.which("emacs")


def has_eglot() -> bool:
    if EMACS is None:
        return False
    probe = subprocess.run([EMACS, "--batch", "--eval", "(require 'eglot)"], capture_output=True)
    return probe.returncode == 0


pytestmark = [
    pytest.mark.skipif(not has_eglot(), reason="no Emacs with eglot (Debian: apt-get install emacs-nox elpa-eglot)"),
    pytest.mark.skipif(not DEFAULT_ARTIFACT.exists(), reason="ngram model not built: nokta train --backend ngram"),
]

# The snippet is loaded as a user's init.el would; the test only swaps in the fast backend.
TRANSCRIPT = r""";;; -*- lexical-binding: t -*-
(require 'eglot)
(require 'json)
(defvar seen nil)
(defun note (key value) (push (cons key value) seen))
(defun wait-until (what seconds predicate)
  (let ((deadline (+ (float-time) seconds)))
    (while (and (not (funcall predicate)) (< (float-time) deadline))
      (accept-process-output nil 0.05))
    (unless (funcall predicate) (error "timed out waiting for %s" what))))
(defun words ()
  (mapcar (lambda (d) (buffer-substring-no-properties (flymake-diagnostic-beg d) (flymake-diagnostic-end d)))
          (sort (flymake-diagnostics) (lambda (a b) (< (flymake-diagnostic-beg a) (flymake-diagnostic-beg b))))))
(condition-case err
    (progn
      (load SNIPPET nil t)
      (setq-default eglot-workspace-configuration '(:nokta (:backend "ngram" :debounceMs 0)))
      (find-file "note.txt")
      (note 'mode (symbol-name major-mode))
      (run-hooks 'post-command-hook)    ; eglot-ensure connects after the next command
      (wait-until "eglot" 60 #'eglot-current-server)
      (flymake-start)
      (wait-until "diagnostics" 120 #'flymake-diagnostics)
      (note 'before (words))
      (let ((fixed nil))
        (while (and (flymake-diagnostics) (< (length fixed) 10))
          (let* ((word (car (words)))
                 (diagnostic (car (sort (flymake-diagnostics)
                                        (lambda (a b) (< (flymake-diagnostic-beg a) (flymake-diagnostic-beg b))))))
                 (count (length (flymake-diagnostics)))
                 (actions (eglot-code-actions (flymake-diagnostic-beg diagnostic)
                                              (flymake-diagnostic-end diagnostic) "quickfix"))
                 (preferred (cl-find-if (lambda (a) (plist-get a :isPreferred)) actions)))
            (unless preferred (error "no preferred fix for %s" word))
            (eglot--read-execute-code-action (list preferred) (eglot-current-server) "quickfix")
            ;; Batch Emacs is never idle: do what eglot's and flymake's idle timers would.
            (eglot--signal-textDocument/didChange)
            (flymake-start)
            (wait-until "diagnostics after the fix" 20 (lambda () (< (length (flymake-diagnostics)) count)))
            (push word fixed)))
        (note 'fixed (nreverse fixed)))
      (note 'text (buffer-substring-no-properties (point-min) (point-max))))
  (error (note 'error (error-message-string err))))
(let ((coding-system-for-write 'utf-8))
  (with-temp-file RESULT (insert (json-encode seen))))
(kill-emacs 0)
"""


def test_eglot_snippet_fixes_a_buffer(tmp_path: Path) -> None:
    (tmp_path / "note.txt").write_text("Bugun hava cok guzel.\n", encoding="utf-8")
    result = tmp_path / "seen.json"
    script = tmp_path / "transcript.el"
    script.write_text(
        TRANSCRIPT.replace("SNIPPET", json.dumps(str(SNIPPET))).replace("RESULT", json.dumps(str(result))),
        encoding="utf-8",
    )
    # nokta-lsp is installed beside this Python, as pip puts console scripts
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
           "HOME": str(tmp_path)}  # fmt: skip
    process = subprocess.run([EMACS, "--batch", "-l", str(script)], cwd=tmp_path, env=env,
                             capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL)  # fmt: skip
    assert result.exists(), f"emacs wrote no result\n{process.stdout}\n{process.stderr}"
    seen = json.loads(result.read_text(encoding="utf-8"))
    assert seen.get("error") is None, f"{seen['error']}\n{process.stderr[-3000:]}"
    assert seen["mode"] == "text-mode"
    assert seen["before"] == ["Bugun", "cok", "guzel"]
    assert seen["fixed"] == ["Bugun", "cok", "guzel"]
    assert seen["text"] == "Bugün hava çok güzel.\n"

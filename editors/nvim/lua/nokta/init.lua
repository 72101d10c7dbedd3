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

return M

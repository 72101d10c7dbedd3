---@brief
---
--- nokta-lsp: finds Turkish words typed without ç ğ ı ö ş ü İ and restores them.
---
--- Install the server from a nokta checkout with `pip install .` (it provides `nokta-lsp`), put this file
--- in `lsp/` on your 'runtimepath' (or add the nokta `editors/nvim` folder to it), then:
--- ```lua
--- vim.lsp.enable('nokta')
--- ```
---
--- Settings go under `settings.nokta` (keys as in docs/settings.md: `severity`, `backend`,
--- `ignoreWords`, ...); they are also sent as `init_options` when those are not set:
--- ```lua
--- vim.lsp.config('nokta', {
---   settings = { nokta = { severity = 'hint', ignoreWords = { 'Istanbul' } } },
--- })
--- ```
---
--- Buffers get `:NoktaRestore` (whole buffer) and `:NoktaRestoreSelection` (a range,
--- `:'<,'>NoktaRestoreSelection`). A key map applying the preferred fix at the cursor:
--- ```lua
--- vim.keymap.set('n', '<leader>n', function()
---   vim.lsp.buf.code_action({ apply = true, filter = function(a) return a.isPreferred end })
--- end, { desc = 'nokta: restore diacritics' })
--- ```

---@type vim.lsp.Config
return {
  cmd = { 'nokta-lsp', '--stdio' },
  filetypes = { 'text', 'markdown', 'gitcommit', 'tex', 'plaintex', 'rst', 'html', 'asciidoc', 'org' },
  root_markers = { '.nokta-words.txt', '.git' },
  settings = { nokta = vim.empty_dict() },
  before_init = function(params, config)
    if params.initializationOptions == nil then
      params.initializationOptions = config.settings and config.settings.nokta
    end
  end,
  on_attach = function(client, bufnr)
    local function run(command, argument)
      local params = { command = command, arguments = { argument } }
      local function report(err)
        if err then
          vim.notify('nokta: ' .. err.message, vim.log.levels.ERROR)
        end
      end
      if vim.fn.has('nvim-0.11') == 1 then
        client:request('workspace/executeCommand', params, report, bufnr)
      else -- 0.10: methods without self
        client.request('workspace/executeCommand', params, report, bufnr)
      end
    end
    vim.api.nvim_buf_create_user_command(bufnr, 'NoktaRestore', function()
      run('nokta.restoreDocument', { uri = vim.uri_from_bufnr(bufnr) })
    end, { desc = 'nokta: restore Turkish diacritics in the buffer' })
    vim.api.nvim_buf_create_user_command(bufnr, 'NoktaRestoreSelection', function(args)
      local last = vim.api.nvim_buf_get_lines(bufnr, args.line2 - 1, args.line2, true)[1]
      local range = { -- whole lines, the end in the client's position encoding
        start = { line = args.line1 - 1, character = 0 },
        ['end'] = {
          line = args.line2 - 1,
          character = vim.lsp.util.character_offset(bufnr, args.line2 - 1, #last, client.offset_encoding),
        },
      }
      run('nokta.restoreSelection', { uri = vim.uri_from_bufnr(bufnr), range = range })
    end, { range = true, desc = 'nokta: restore Turkish diacritics in the selected lines' })
  end,
}

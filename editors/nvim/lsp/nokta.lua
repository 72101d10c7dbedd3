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
--- `:'<,'>NoktaRestoreSelection`); `:NoktaPause`, `:NoktaResume` and `:NoktaStatus` pause,
--- resume and show checking (the state is kept in `vim.g.nokta_status`, and a `User NoktaStatus`
--- autocommand fires when the server says it changed). Inlay hints `→ güzel`:
--- `vim.lsp.inlay_hint.enable()`. `:NoktaCheckWorkspace` checks the files of the root that are not
--- open (then `vim.diagnostic.setqflist()`). A key map applying the preferred fix at the cursor:
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
  -- asks the server for its `nokta/status` notification
  capabilities = vim.tbl_deep_extend('force', vim.lsp.protocol.make_client_capabilities(), {
    experimental = { noktaStatus = true },
  }),
  handlers = {
    ['nokta/status'] = function(_, status)
      vim.g.nokta_status = status
      vim.api.nvim_exec_autocmds('User', { pattern = 'NoktaStatus', modeline = false })
    end,
  },
  before_init = function(params, config)
    if params.initializationOptions == nil then
      params.initializationOptions = config.settings and config.settings.nokta
    end
  end,
  on_attach = function(client, bufnr)
    local function request(method, params, handler, buf)
      if vim.fn.has('nvim-0.11') == 1 then
        client:request(method, params, handler, buf)
      else -- 0.10: methods without self
        client.request(method, params, handler, buf)
      end
    end
    local function run(command, argument, on_result)
      request('workspace/executeCommand', { command = command, arguments = { argument } }, function(err, result)
        if err then
          vim.notify('nokta: ' .. err.message, vim.log.levels.ERROR)
        elseif on_result then
          on_result(result)
        end
      end, bufnr)
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
    local function show(status)
      vim.g.nokta_status = status
      local model = status.model ~= vim.NIL and status.model
      vim.notify(('nokta: %s%s'):format(status.state, model and (' (' .. model .. ')') or ''))
    end
    vim.api.nvim_buf_create_user_command(bufnr, 'NoktaPause', function()
      run('nokta.pause', vim.empty_dict(), function(status)
        show(status) -- and the diagnostics shown go: Neovim is not asked to pull them again
        vim.diagnostic.reset(vim.lsp.diagnostic.get_namespace(client.id, true))
        vim.diagnostic.reset(vim.lsp.diagnostic.get_namespace(client.id, false))
      end)
    end, { desc = 'nokta: pause checking and autocorrect' })
    vim.api.nvim_buf_create_user_command(bufnr, 'NoktaResume', function()
      run('nokta.resume', vim.empty_dict(), function(status)
        show(status)
        for buf in pairs(client.attached_buffers) do -- pulled again (pushed again by the server)
          request('textDocument/diagnostic', { textDocument = vim.lsp.util.make_text_document_params(buf) }, nil, buf)
        end
      end)
    end, { desc = 'nokta: resume checking and autocorrect' })
    vim.api.nvim_buf_create_user_command(bufnr, 'NoktaStatus', function()
      run('nokta.status', vim.empty_dict(), show)
    end, { desc = 'nokta: the state of checking' })
    vim.api.nvim_buf_create_user_command(bufnr, 'NoktaCheckWorkspace', function()
      run('nokta.checkWorkspace', vim.empty_dict(), function(counts)
        vim.notify(('nokta: %d files checked, %d findings in %d'):format(counts.files, counts.findings, counts.filesWithFindings))
      end)
    end, { desc = "nokta: check the workspace's files (vim.diagnostic.setqflist() lists them)" })
  end,
}

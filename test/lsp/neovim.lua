-- A real LSP client: Neovim's own (0.7+, headless). Opens a skill with a known problem, waits for Skillflow's
-- diagnostic, asks for a hover and the code actions, applies the preferred quick fix, writes the buffer and quits.
-- Driven by test/unit/lsp/neovim.test.ts, which checks the file on disk and the JSON this writes to SKILLFLOW_OUT.
-- Environment: SKILLFLOW_NODE, SKILLFLOW_CLI (the CLI bundle), SKILLFLOW_ROOT, SKILLFLOW_FILE, SKILLFLOW_OUT.
local result = {}

local function finish(code)
  local f = io.open(vim.env.SKILLFLOW_OUT, 'w')
  f:write(vim.fn.json_encode(result))
  f:close()
  vim.cmd((code == 0 and 'qall!') or 'cquit! ' .. code)
end

local function run()
  vim.cmd('edit ' .. vim.fn.fnameescape(vim.env.SKILLFLOW_FILE))
  local buf = vim.api.nvim_get_current_buf()
  -- The setup docs/editors.md gives for Neovim 0.7 (0.8+ can use vim.lsp.start with the same table).
  local client_id = vim.lsp.start_client({
    name = 'skillflow',
    cmd = { vim.env.SKILLFLOW_NODE, vim.env.SKILLFLOW_CLI, 'lsp', '--stdio' },
    root_dir = vim.env.SKILLFLOW_ROOT,
  })
  vim.lsp.buf_attach_client(buf, client_id)

  result.diagnosed = vim.wait(15000, function() return #vim.diagnostic.get(buf) > 0 end, 50)
  if not result.diagnosed then return finish(3) end
  local diags = vim.diagnostic.get(buf)
  result.codes = {}
  for _, d in ipairs(diags) do table.insert(result.codes, d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code)) end
  local uri = vim.uri_from_bufnr(buf)

  local hover = vim.lsp.buf_request_sync(buf, 'textDocument/hover', { textDocument = { uri = uri }, position = { line = 2, character = 3 } }, 5000)
  for _, r in pairs(hover or {}) do if r.result then result.hover = r.result.contents.value end end

  -- The diagnostics as the server sent them, for the code action request's context.
  local lnum = diags[1].lnum
  local lsp_diags = vim.lsp.diagnostic.get_line_diagnostics(buf, lnum)
  local params = {
    textDocument = { uri = uri },
    range = { start = { line = lnum, character = 0 }, ['end'] = { line = lnum, character = 0 } },
    context = { diagnostics = lsp_diags },
  }
  local actions = vim.lsp.buf_request_sync(buf, 'textDocument/codeAction', params, 5000)
  result.actions = {}
  local preferred
  for _, r in pairs(actions or {}) do
    for _, a in ipairs(r.result or {}) do
      table.insert(result.actions, a.title)
      if a.isPreferred then preferred = a end
    end
  end
  if not preferred then return finish(4) end
  local client = vim.lsp.get_client_by_id(client_id)
  vim.lsp.util.apply_workspace_edit(preferred.edit, client.offset_encoding or 'utf-16')
  vim.cmd('write')
  -- The server re-validates the changed buffer: the fixed problem goes.
  result.cleared = vim.wait(10000, function()
    for _, d in ipairs(vim.diagnostic.get(buf)) do
      if (d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code)) == result.codes[1] then return false end
    end
    return true
  end, 50)
  vim.lsp.stop_client(client_id)
  finish(0)
end

local ok, err = pcall(run)
if not ok then
  result.error = tostring(err)
  finish(5)
end

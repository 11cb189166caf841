-- A smoke test of `pytea-ci lsp` in Neovim (>= 0.7, built-in client, no plugins): run it in a folder
-- holding a program with a shape error, e.g. the one of tests/lsp/test_server.py saved as train.py:
--   PYTEA_CI=pytea-ci FILE=train.py nvim --headless -u NONE -c "luafile editors/neovim/smoke.lua"
-- It prints pytea-ci's diagnostics for the file and a hover on line 12 (`h = self.fc1(x)`), then OK or TIMEOUT.
local exe = os.getenv("PYTEA_CI") or "pytea-ci"
local file = os.getenv("FILE") or "train.py"
local client_id = vim.lsp.start_client({
  name = "pytea-ci", cmd = { exe, "lsp" }, root_dir = vim.fn.getcwd(),
  init_options = { ["pytea-ci"] = { debounceMs = 50 } },
})
vim.cmd("edit " .. file)
vim.lsp.buf_attach_client(0, client_id)
local ok = vim.wait(60000, function() return #vim.diagnostic.get(0) > 0 end, 100)
for _, d in ipairs(vim.diagnostic.get(0)) do
  print(string.format("diagnostic line %d [%s] %s", d.lnum + 1, tostring(d.code), d.message:gsub("\n.*", "")))
end
local client = vim.lsp.get_client_by_id(client_id)
local res = client.request_sync("textDocument/hover", {
  textDocument = { uri = vim.uri_from_fname(vim.fn.fnamemodify(file, ":p")) }, position = { line = 11, character = 8 },
}, 10000, 0)
if res and res.result then print("hover: " .. res.result.contents.value:gsub("\n", " ")) end
client.stop()
vim.wait(5000, function() return client.is_stopped() end, 100)
print(ok and "OK" or "TIMEOUT")
vim.cmd("qa!")

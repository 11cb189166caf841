// Drives a real VS Code (code-server's workbench) in headless Chromium through playwright-core, with the
// pytea-ci extension installed, then checks the LSP traffic its server saw. Run by run-in-vscode.sh:
//   node drive.js URL PROJECT_DIR LOG_DIR CHROMIUM SCREENSHOT_DIR
// In the editor: open train.py from the Explorer, wait for the red squiggle, read the Problems view, hover
// `h` (line 12); open the quick-fix menu (Ctrl+.) on the finding: the server's proven fix
// (`Fix: in_features 64 -> 128`) must be its first, focused action; Enter applies it (line 9 reads
// Linear(128, 10), the finding goes), undo; Auto Fix (Shift+Alt+., which applies only a fix the server
// marked preferred) applies it again, undo; the second action adds `# pytea: ignore[PT001]` (the finding
// goes), undo; then type the fix into the unsaved buffer (Linear(64, 10) -> Linear(128, 10)), wait until
// the squiggle and the problem are gone and hover `h` again. Then the JSON-RPC logs written by the server
// wrapper must show initialize from code-server, didOpen/didChange of train.py, the diagnostics published
// for it (PT001, last none) and every code-action answer offering the fix as preferred with the edit
// 64 -> 128. Prints a transcript; exits 1 on the first failed expectation.
"use strict";
const fs = require("fs");
const path = require("path");
const { chromium } = require("playwright-core");

const [url, project, logDir, chromiumPath, shots] = process.argv.slice(2);
const FILE = "train.py";
const FIX = "Fix: in_features 64 -> 128"; // the proven fix's code action, as the server titles it
const BUGGY_LINE = "self.fc2 = nn.Linear(64, 10)";
const FIXED_LINE = "self.fc2 = nn.Linear(128, 10)";
const T = 120000; // generous: the build machine is shared and often loaded

function fail(msg) {  // caught at the top, after a screenshot of the editor (vscode-failure.png)
  throw new Error(msg);
}

async function openFile(page) {
  await page.waitForSelector(".monaco-workbench", { timeout: T });
  const row = page.locator(".explorer-folders-view .monaco-list-row", { hasText: FILE }).first();
  await row.waitFor({ timeout: T });
  await row.click();
  await page.locator(".tab.active", { hasText: FILE }).waitFor({ timeout: T });
  console.log(`editor: opened ${FILE} from the Explorer`);
}

async function problemsText(page) {
  const panel = page.locator(".markers-panel");
  if (!(await panel.isVisible())) await page.keyboard.press("Control+Shift+M");
  await panel.waitFor({ timeout: T });
  return (await panel.innerText()).replace(/\s*\n\s*/g, " | ");
}

async function goTo(page, line, column) {
  await page.locator(".monaco-editor textarea").first().focus();
  await page.keyboard.press("Control+G");
  await page.locator(".quick-input-widget input").waitFor({ timeout: T });
  await page.keyboard.type(`${line}:${column}`);
  await page.keyboard.press("Enter");
  await page.locator(".quick-input-widget").waitFor({ state: "hidden", timeout: T });
  await page.locator(".statusbar", { hasText: `Ln ${line}, Col ${column}` }).waitFor({ timeout: T });
}

async function lineText(page, line) {  // the rendered text of an editor line (lines are absolutely placed)
  return page.evaluate((n) => {
    const rows = [...document.querySelectorAll(".monaco-editor .view-lines .view-line")];
    const tops = [...new Set(rows.map((r) => parseFloat(r.style.top)))].sort((a, b) => a - b);
    const row = rows.find((r) => parseFloat(r.style.top) === tops[n - 1]);
    return row ? row.textContent.replace(/\u00a0/g, " ") : "";
  }, line);
}

async function waitProblemsGone(page) {
  const deadline = Date.now() + T;
  let text = "";
  while (Date.now() < deadline) {
    text = await problemsText(page);
    if (!/PT001/.test(text) && (await page.locator(".squiggly-error").count()) === 0) return text;
    await page.waitForTimeout(250);
  }
  fail(`PT001 is still listed after the fix: ${text}`);
}

async function hoverAt(page, line, column, shot) {
  await goTo(page, line, column);
  await page.keyboard.press("Control+K");
  await page.keyboard.press("Control+I");
  const hover = page.locator(".monaco-hover-content", { hasText: "[" }).first();
  await hover.waitFor({ timeout: T });
  const text = (await hover.innerText()).replace(/\s*\n\s*/g, " | ");
  if (shot) {
    await page.waitForTimeout(500); // let the hover fade in
    await page.screenshot({ path: path.join(shots, shot) });
  }
  await page.keyboard.press("Escape");
  return text;
}

async function waitLine(page, line, want) {
  let text = "";
  for (const deadline = Date.now() + T; Date.now() < deadline; await page.waitForTimeout(100)) {
    text = (await lineText(page, line)).trim(); // the view renders an edit a moment later
    if (want(text)) return text;
  }
  fail(`line ${line} never became as expected: \`${text}\``);
}

async function quickFixMenu(page, shot) {  // Ctrl+. on the finding: the menu's actions, the focused one first
  const rows = page.locator(".action-widget .monaco-list-row.action");
  // a loaded machine showed Ctrl+. right after an undo open no menu (the actions were asked before the
  // finding was back): ask again, within the same overall limit, until the menu shows
  for (const deadline = Date.now() + T; ; ) {
    await goTo(page, 13, 16);
    await page.keyboard.press("Control+.");
    const left = deadline - Date.now();
    if (left <= 0) fail("Ctrl+. on line 13 never opened the quick fix menu");
    const shown = await page.locator(".action-widget .monaco-list-row.action.focused")
      .waitFor({ timeout: Math.min(15000, left) }).then(() => true, () => false);
    if (shown) break;
    await page.keyboard.press("Escape");
  }
  // keys go to the menu only once it holds the keyboard focus (a loaded machine showed them reach the editor)
  await page.waitForFunction(() => !!document.activeElement?.closest(".action-widget"), null, { timeout: T });
  if (shot) await page.screenshot({ path: path.join(shots, shot) });
  const titles = (await rows.locator(".title").allInnerTexts()).map((t) => t.trim());
  const focused = (await page.locator(".action-widget .monaco-list-row.action.focused .title").innerText()).trim();
  return { titles, focused };
}

async function undoTo(page, line, text) {  // Ctrl+Z in the editor until `line` reads `text`, the finding back
  await page.locator(".monaco-editor textarea").first().focus();
  await page.keyboard.press("Control+Z");
  await waitLine(page, line, (t) => t === text);
  await page.waitForSelector(".squiggly-error", { timeout: T });
}

async function autoFix(page) {  // Shift+Alt+. on the finding until line 9 reads the fix, within T
  // CI (stop 35) saw one Shift+Alt+. right after an undo apply nothing for 120 s: VS Code drops a manual
  // code-action trigger when the file's diagnostics change under it (the server publishes again after the
  // undo), and an empty answer shows only "No auto fixes available". Ask again, never while the line is fixed
  // (the test counts the edits VS Code sent: exactly one here)
  for (const deadline = Date.now() + T; ; ) {
    if ((await lineText(page, 9)).trim() === FIXED_LINE) break;
    const left = deadline - Date.now();
    if (left <= 0) fail(`Shift+Alt+. on line 13 never applied the fix: line 9 is \`${(await lineText(page, 9)).trim()}\``);
    await goTo(page, 13, 16);
    await page.keyboard.press("Shift+Alt+Period");
    const until = Date.now() + Math.min(30000, left);
    while (Date.now() < until && (await lineText(page, 9)).trim() !== FIXED_LINE) await page.waitForTimeout(100);
  }
  return (await lineText(page, 9)).trim();
}

async function provenFix(page) {  // the server's proven fix: first and focused in the menu, Enter applies it
  const { titles, focused } = await quickFixMenu(page, "vscode-quickfix.png");
  console.log(`quick fix menu on line 13: ${titles.join(" | ")}`);
  if (focused !== FIX) fail(`the focused (first) action is \`${focused}\`, not \`${FIX}\``);
  if (titles[0] !== FIX) fail(`the first action of the menu is \`${titles[0]}\`, not \`${FIX}\``);
  await page.keyboard.press("Enter");
  const line = await waitLine(page, 9, (t) => t === FIXED_LINE);
  console.log(`proven fix applied (Enter on \`${focused}\`): line 9 is now \`${line}\``);
  console.log(`problems after the proven fix: ${await waitProblemsGone(page)}`);
  await page.screenshot({ path: path.join(shots, "vscode-applied.png") });
  await undoTo(page, 9, BUGGY_LINE);
  console.log("proven fix undone: the squiggle is back");
  // Auto Fix (Shift+Alt+.) applies a fix only if the server marked it preferred (isPreferred)
  const auto = await autoFix(page);
  console.log(`auto fix (Shift+Alt+., preferred fixes only): line 9 is now \`${auto}\``);
  console.log(`problems after the auto fix: ${await waitProblemsGone(page)}`);
  await undoTo(page, 9, BUGGY_LINE);
  console.log("auto fix undone: the squiggle is back");
}

async function ignoreFix(page) {  // the server's code action adds the ignore comment; undone afterwards
  await quickFixMenu(page);
  await page.keyboard.press("ArrowDown"); // the second action, after the proven fix
  const focused = page.locator(".action-widget .monaco-list-row.action.focused");
  await focused.filter({ hasText: "Ignore PT001 on this line" }).waitFor({ timeout: 15000 }).catch(async () =>
    fail(`ArrowDown in the menu focused \`${await focused.innerText().catch(() => "nothing")}\``));
  await page.keyboard.press("Enter");
  const line = await waitLine(page, 13, (t) => t.includes("# pytea: ignore[PT001]"));
  console.log(`quick fix: line 13 is now \`${line}\``);
  console.log(`problems with the ignore comment: ${await waitProblemsGone(page)}`);
  await undoTo(page, 13, "return self.fc2(h)");
  console.log("quick fix undone: the squiggle is back");
}

async function inEditor(browser) {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  try {
    await steps(page);
  } catch (e) {
    await page.screenshot({ path: path.join(shots, "vscode-failure.png") }).catch(() => {});
    throw e;
  }
}

async function steps(page) {
  await page.goto(url);
  await openFile(page);
  await page.waitForSelector(".squiggly-error", { timeout: T });
  console.log("editor: red squiggle shown");
  const problems = await problemsText(page);
  console.log(`problems: ${problems}`);
  if (!/PT001/.test(problems) || !/Ln 13/.test(problems)) fail("the Problems view lacks PT001 at line 13");
  await page.screenshot({ path: path.join(shots, "vscode-finding.png") });
  const hover = await hoverAt(page, 12, 9);
  console.log(`hover h (line 12): ${hover}`);
  if (!hover.includes("[32, 128]")) fail("the hover on h does not show [32, 128]");
  await provenFix(page);
  await ignoreFix(page);
  await goTo(page, 9, 30); // `        self.fc2 = nn.Linear(64, 10)`: the 6 of 64
  await page.keyboard.press("Delete");
  await page.keyboard.press("Delete");
  await page.keyboard.insertText("128");
  const edited = await waitLine(page, 9, (t) => t === FIXED_LINE);
  console.log(`editor: line 9 is now \`${edited}\` (typed, not saved)`);
  console.log(`problems after the edit: ${await waitProblemsGone(page)}`);
  const fixedHover = await hoverAt(page, 12, 9, "vscode-fixed.png");
  console.log(`hover h (line 12) after the fix: ${fixedHover}`);
  if (!fixedHover.includes("[32, 128]")) fail("after the fix, the hover on h does not show [32, 128]");
}

function messages(file) {
  const buf = fs.existsSync(file) ? fs.readFileSync(file) : Buffer.alloc(0);
  const out = [];
  let at = 0;
  while (at < buf.length) {
    const headerEnd = buf.indexOf("\r\n\r\n", at);
    if (headerEnd < 0) break;
    const m = /Content-Length: (\d+)/i.exec(buf.subarray(at, headerEnd).toString());
    if (!m) break;
    const start = headerEnd + 4;
    out.push(JSON.parse(buf.subarray(start, start + Number(m[1])).toString()));
    at = start + Number(m[1]);
  }
  return out;
}

function checkLogs() {
  const uri = "file://" + path.join(project, FILE);
  const sent = messages(path.join(logDir, "client-to-server.jsonrpc"));
  const got = messages(path.join(logDir, "server-to-client.jsonrpc"));
  const init = sent.find((m) => m.method === "initialize");
  if (!init) fail("the server never received initialize");
  const reply = got.find((m) => m.id === init.id && m.result);
  console.log(`lsp: initialize from ${init.params.clientInfo.name} ${init.params.clientInfo.version}, ` +
    `answered by ${reply ? (reply.result.serverInfo || {}).name || "a server without serverInfo" : "nobody"}`);
  if (!reply) fail("the server did not answer initialize");
  const opened = sent.some((m) => m.method === "textDocument/didOpen" && m.params.textDocument.uri === uri);
  const changed = sent.filter((m) => m.method === "textDocument/didChange" && m.params.textDocument.uri === uri);
  const pubs = got.filter((m) => m.method === "textDocument/publishDiagnostics" && m.params.uri === uri);
  const codes = pubs.map((p) => p.params.diagnostics.map((d) => `${d.code}@${d.range.start.line + 1}`).join(",") || "none");
  console.log(`lsp: didOpen ${opened}, didChange x${changed.length}, publishDiagnostics for ${FILE}: ${codes.join(" ; ")}`);
  if (!opened || changed.length === 0) fail("didOpen/didChange of the file missing");
  if (!codes.includes("PT001@13")) fail("PT001 at line 13 was never published");
  if (codes[codes.length - 1] !== "none") fail("the last diagnostics for the file are not empty");
  checkCodeActions(sent, got, uri);
}

function checkCodeActions(sent, got, uri) {  // the answers to code-action requests: the proven fix, preferred
  const asked = new Set(sent.filter((m) => m.method === "textDocument/codeAction").map((m) => m.id));
  const answers = got.filter((m) => asked.has(m.id) && Array.isArray(m.result));
  const fixes = answers.map((m) => m.result.find((a) => a.title === FIX)).filter(Boolean);
  const preferred = fixes.filter((a) => a.isPreferred === true && a.kind === "quickfix");
  const edits = preferred.length ? (preferred[0].edit.changes || {})[uri] || [] : [];
  const shown = edits.map((e) => `line ${e.range.start.line + 1} ` +
    `${e.range.start.character}-${e.range.end.character} -> "${e.newText}"`).join(", ");
  console.log(`lsp: codeAction x${asked.size}, answered x${answers.length}, with "${FIX}" x${fixes.length} ` +
    `(preferred x${preferred.length}): ${shown || "no edit"}`);
  if (!preferred.length || preferred.length !== fixes.length) fail(`"${FIX}" was not always offered as preferred`);
  if (edits.length !== 1 || edits[0].newText !== "128" || edits[0].range.start.line !== 8) fail("the fix's edit is not 64 -> 128 on line 9");
}

(async () => {
  const browser = await chromium.launch({ executablePath: chromiumPath, args: ["--no-sandbox"] });
  console.log(`browser: ${chromiumPath} ${browser.version()}`);
  try {
    await inEditor(browser);
  } finally {
    await browser.close();
  }
  checkLogs();
  console.log("OK");
})().catch((e) => {
  console.log(`FAIL: ${e.message.split("\n")[0]}`);
  process.exit(1);
});

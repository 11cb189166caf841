// Starts `pytea-ci lsp` (stdio) for Python files and restarts it when its executable setting changes.
// Everything else — findings, hovers, code actions, inlay hints — comes from the server.
import * as vscode from "vscode";
import { LanguageClient, LanguageClientOptions, ServerOptions } from "vscode-languageclient/node";

let client: LanguageClient | undefined;

function settings(): { executable: string; inlayHints: boolean; debounceMs: number } {
  const cfg = vscode.workspace.getConfiguration("pytea-ci");
  return {
    executable: cfg.get<string>("executable", "pytea-ci"),
    inlayHints: cfg.get<boolean>("inlayHints", false),
    debounceMs: cfg.get<number>("debounceMs", 250),
  };
}

async function start(): Promise<void> {
  const s = settings();
  const server: ServerOptions = { command: s.executable, args: ["lsp"] };
  const options: LanguageClientOptions = {
    // YAML and JSON too: editing a config a program reads re-checks that program
    documentSelector: ["python", "yaml", "json"].map((language) => ({ scheme: "file", language })),
    initializationOptions: { "pytea-ci": { inlayHints: s.inlayHints, debounceMs: s.debounceMs } },
    synchronize: { configurationSection: "pytea-ci" },
  };
  client = new LanguageClient("pytea-ci", "pytea-ci", server, options);
  try {
    await client.start();
  } catch (e) {
    void vscode.window.showErrorMessage(
      `pytea-ci: could not start \`${s.executable} lsp\` (${e}). Install it with pip install 'pytea-ci[lsp]' ` +
        "or set pytea-ci.executable.");
  }
}

async function stop(): Promise<void> {
  if (client !== undefined) {
    const c = client;
    client = undefined;
    await c.stop();
  }
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  context.subscriptions.push(
    vscode.commands.registerCommand("pytea-ci.restart", async () => {
      await stop();
      await start();
    }),
    vscode.workspace.onDidChangeConfiguration(async (e) => {
      if (e.affectsConfiguration("pytea-ci.executable")) {
        await stop();
        await start();
      }
    }),
  );
  await start();
}

export async function deactivate(): Promise<void> {
  await stop();
}

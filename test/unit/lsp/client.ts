// A JSON-RPC client for the language server's protocol tests: builds the CLI bundle and the server bundle into a
// temp folder (fresh from src, as `node esbuild.mjs` would), starts `skillflow lsp --stdio` there and talks LSP over
// its stdin/stdout with vscode-jsonrpc (the library every LSP client in Node uses).
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';
import { createMessageConnection, type MessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';

let built: string | undefined;

/** The folder holding skillflow.js (the CLI) and lsp.js (the server), built once per test process. */
export function buildServer(): string {
  if (built) return built;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skillflow-lsp-build-'));
  const common = { bundle: true, platform: 'node', target: 'node20', format: 'cjs', logLevel: 'warning', alias: { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' } } as const;
  esbuild.buildSync({ ...common, entryPoints: ['src/cli/bin.ts'], outfile: path.join(dir, 'skillflow.js') });
  esbuild.buildSync({ ...common, entryPoints: ['src/lsp/main.ts'], outfile: path.join(dir, 'lsp.js') });
  built = dir;
  return dir;
}

export const uriOf = (file: string) => pathToFileURL(file).href;

export interface Diag { range: { start: { line: number; character: number }; end: { line: number; character: number } }; severity: number; code: string; source: string; message: string }

export class LspClient {
  readonly rpc: MessageConnection;
  readonly child: ChildProcess;
  readonly diagnostics = new Map<string, Diag[]>();
  stderr = '';
  private waiters: Array<() => void> = [];
  exited: number | null | undefined = undefined;

  constructor(env: Record<string, string> = {}) {
    const dir = buildServer();
    this.child = spawn(process.execPath, [path.join(dir, 'skillflow.js'), 'lsp', '--stdio'], { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stderr!.on('data', (d: Buffer) => { this.stderr += d.toString(); });
    this.child.on('exit', (code) => { this.exited = code; });
    this.rpc = createMessageConnection(new StreamMessageReader(this.child.stdout!), new StreamMessageWriter(this.child.stdin!));
    this.rpc.onNotification('textDocument/publishDiagnostics', (p: { uri: string; diagnostics: Diag[] }) => {
      this.diagnostics.set(p.uri, p.diagnostics);
      for (const w of this.waiters.splice(0)) w();
    });
    this.rpc.onRequest('client/registerCapability', () => null);
    this.rpc.onRequest('workspace/diagnostic/refresh', () => null);
    this.rpc.onRequest('workspace/applyEdit', () => ({ applied: true }));
    this.rpc.listen();
  }

  async initialize(root: string, capabilities: object = {}, initializationOptions: object = {}): Promise<{ capabilities: Record<string, unknown> }> {
    const r = await this.rpc.sendRequest('initialize', { processId: process.pid, rootUri: uriOf(root), workspaceFolders: [{ uri: uriOf(root), name: 'ws' }], capabilities, initializationOptions });
    await this.rpc.sendNotification('initialized', {});
    return r as { capabilities: Record<string, unknown> };
  }

  open(file: string, text: string, version = 1): Promise<void> {
    return this.rpc.sendNotification('textDocument/didOpen', { textDocument: { uri: uriOf(file), languageId: 'markdown', version, text } });
  }

  change(file: string, text: string, version: number): Promise<void> {
    return this.rpc.sendNotification('textDocument/didChange', { textDocument: { uri: uriOf(file), version }, contentChanges: [{ text }] });
  }

  /** Waits until the diagnostics pushed for `file` satisfy `ok` (or fails after `ms`). */
  async waitFor(file: string, ok: (d: Diag[]) => boolean, ms = 5000): Promise<Diag[]> {
    const uri = uriOf(file);
    const deadline = Date.now() + ms;
    for (;;) {
      const d = this.diagnostics.get(uri);
      if (d && ok(d)) return d;
      if (Date.now() > deadline) throw new Error(`no matching diagnostics for ${file}: ${JSON.stringify(d)}\n${this.stderr}`);
      await new Promise<void>((resolve) => { this.waiters.push(resolve); setTimeout(resolve, 100); });
    }
  }

  request<T>(method: string, params: unknown): Promise<T> {
    return this.rpc.sendRequest(method, params) as Promise<T>;
  }

  async shutdown(): Promise<number | null> {
    await this.rpc.sendRequest('shutdown');
    await this.rpc.sendNotification('exit');
    const code = await new Promise<number | null>((resolve) => {
      if (this.exited !== undefined) resolve(this.exited);
      else this.child.on('exit', (c) => resolve(c));
    });
    this.rpc.dispose();
    return code;
  }
}

/** A workspace in a temp folder from `files` (relative path → text), with an empty home beside it. */
export function workspace(files: Record<string, string>): { root: string; home: string; file: (rel: string) => string; cleanup: () => void } {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'skillflow-lsp-')));
  const root = path.join(base, 'ws');
  const home = path.join(base, 'home');
  fs.mkdirSync(home, { recursive: true });
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
  return { root, home, file: (rel) => path.join(root, rel), cleanup: () => fs.rmSync(base, { recursive: true, force: true }) };
}

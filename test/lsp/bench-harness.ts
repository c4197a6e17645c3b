// The language server's bench (scripts/bench-lsp.mjs bundles and runs this with --expose-gc): the server in this
// process over in-memory streams, a pulling client, N edits of one SKILL.md, each followed by a diagnostic pull.
// Prints the core time of each re-validation (median, p95; target < 1 ms) and the heap after every quarter of the
// edits (flat = no growth per edit). Also prints one JSON line (`BENCH {...}`) for tests to read.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PassThrough } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { createConnection } from 'vscode-languageserver/node';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';
import { startServer } from '../../src/lsp/server';

const edits = Number(process.argv[2] ?? 10_000);
const gc = (globalThis as { gc?: () => void }).gc;

function heapMb(): number {
  gc?.();
  return process.memoryUsage().heapUsed / 1024 / 1024;
}

async function main(): Promise<void> {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'skillflow-bench-lsp-'));
  const skill = path.join(base, 'ws', '.claude', 'skills', 'deploy', 'SKILL.md');
  fs.mkdirSync(path.join(path.dirname(skill), 'references'), { recursive: true });
  fs.writeFileSync(path.join(path.dirname(skill), 'references', 'steps.md'), 'steps\n');
  const body = Array.from({ length: 60 }, (_, i) => `${i + 1}. Step ${i + 1}: run the check and read [the steps](references/steps.md) before you go on.`).join('\n');
  const text = (i: number) => `---\nname: deploy\ndescription: Deploys the app to staging and production; use it when asked to ship (edit ${i})\nallowed-tools: Read, Bash(git:*)\nmodel: sonnet\n---\n\n# Deploy\n\n${body}\n`;
  fs.writeFileSync(skill, text(0));

  const toServer = new PassThrough();
  const toClient = new PassThrough();
  const core: number[] = [];
  const server = createConnection(new StreamMessageReader(toServer), new StreamMessageWriter(toClient));
  startServer(server, { home: path.join(base, 'home'), env: {}, onValidated: (_file, ms) => core.push(ms) });
  const client = createMessageConnection(new StreamMessageReader(toClient), new StreamMessageWriter(toServer));
  client.listen();
  const root = pathToFileURL(path.join(base, 'ws')).href;
  await client.sendRequest('initialize', { processId: null, rootUri: root, workspaceFolders: [{ uri: root, name: 'ws' }], capabilities: { textDocument: { diagnostic: {} } } });
  await client.sendNotification('initialized', {});
  const uri = pathToFileURL(skill).href;
  await client.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'markdown', version: 1, text: text(0) } });
  await client.sendRequest('textDocument/diagnostic', { textDocument: { uri } });

  const heap: Array<[number, number]> = [[0, heapMb()]];
  const started = performance.now();
  for (let i = 1; i <= edits; i++) {
    await client.sendNotification('textDocument/didChange', { textDocument: { uri, version: i + 1 }, contentChanges: [{ text: text(i) }] });
    const report = await client.sendRequest('textDocument/diagnostic', { textDocument: { uri } }) as { items: unknown[] };
    if (report.items.length !== 0) throw new Error(`edit ${i}: unexpected problems ${JSON.stringify(report.items)}`);
    if (i % Math.max(1, Math.floor(edits / 4)) === 0) heap.push([i, heapMb()]);
  }
  const wall = performance.now() - started;
  const sorted = core.slice(1).sort((a, b) => a - b);
  const q = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
  const median = q(0.5);
  console.log(`language server: ${edits} edits of one SKILL.md (${text(0).length} chars), each pulled`);
  console.log(`  core time per re-validation  median ${median.toFixed(3)} ms, p95 ${q(0.95).toFixed(3)} ms; target < 1 ms: ${median < 1 ? 'met' : 'NOT met'}`);
  console.log(`  round trip per edit (JSON-RPC, in-process)  ${(wall / edits).toFixed(3)} ms`);
  console.log(`  heap used${gc ? ' after gc' : ''}  ${heap.map(([n, mb]) => `${n}: ${mb.toFixed(1)} MB`).join(', ')}`);
  console.log(`BENCH ${JSON.stringify({ edits, medianMs: median, p95Ms: q(0.95), heap })}`);
  client.dispose();
  fs.rmSync(base, { recursive: true, force: true });
  process.exit(0);
}

void main().catch((e) => { console.error(e); process.exit(1); });

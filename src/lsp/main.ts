/**
 * `dist/lsp.js`: the language server over stdio (`skillflow lsp --stdio` starts it). Bad input never ends the
 * process: an exception in a handler is answered as an error by the connection, and anything that escapes it is
 * logged to stderr (the client's log), not thrown.
 */
import { createConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-languageserver/node';
import { startServer } from './server';

process.on('uncaughtException', (e) => { process.stderr.write(`skillflow lsp: ${e instanceof Error ? e.stack ?? e.message : String(e)}\n`); });
process.on('unhandledRejection', (e) => { process.stderr.write(`skillflow lsp: ${e instanceof Error ? e.stack ?? e.message : String(e)}\n`); });

const connection = createConnection(new StreamMessageReader(process.stdin), new StreamMessageWriter(process.stdout));
startServer(connection);

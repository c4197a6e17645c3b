/**
 * The rules page: a read-only webview that shows one rule's section of docs/rules.md rendered (what it checks, the
 * fix, its severity per profile), then the whole document. A diagnostic's code links here through a command URI,
 * so clicking `yaml-syntax` in Problems or a hover lands on that rule, never on an editable file inside the extension.
 */
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { SHOW_RULE_COMMAND } from '../adapters/ranges';

const VIEW_TYPE = 'skillflow.rule';

/** One rule's parts of docs/rules.md: its section (anchor to the next anchor) and its row of the severity table. */
export function ruleSection(doc: string, code: string): { section: string; severityRow?: string; tableHead?: string } | undefined {
  const anchor = `<a id="${code}"></a>`;
  const start = doc.indexOf(anchor);
  if (start < 0) return undefined;
  const next = doc.indexOf('<a id="', start + anchor.length);
  const section = doc.slice(start + anchor.length, next < 0 ? undefined : next).trim();
  const lines = doc.split('\n');
  const severityRow = lines.find((l) => l.startsWith(`| [\`${code}\`]`));
  const headAt = lines.findIndex((l) => l.startsWith('| code |'));
  const tableHead = headAt >= 0 ? `${lines[headAt]}\n${lines[headAt + 1]}` : undefined;
  return { section, severityRow, tableHead };
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export class RulesPage implements vscode.Disposable {
  private current: vscode.WebviewPanel | undefined;
  private shownCode: string | undefined;
  private doc: string | undefined;

  constructor(private readonly extensionUri: vscode.Uri, private readonly log: vscode.LogOutputChannel) {}

  get panel(): vscode.WebviewPanel | undefined { return this.current; }
  get code(): string | undefined { return this.shownCode; }

  register(): vscode.Disposable {
    return vscode.commands.registerCommand(SHOW_RULE_COMMAND, (code?: string) => this.show(code));
  }

  /** Opens (or reuses) the page on `code`'s section; an unknown code shows the whole document with a note. */
  async show(code?: string): Promise<vscode.WebviewPanel> {
    this.doc ??= new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(this.extensionUri, 'docs', 'rules.md')));
    const doc = this.doc;
    const parts = code ? ruleSection(doc, code) : undefined;
    if (code && !parts) this.log.warn(`no section for rule ${code} in docs/rules.md`);
    const top = parts
      ? `${parts.section}\n\n${parts.tableHead && parts.severityRow ? `${parts.tableHead}\n${parts.severityRow}\n` : ''}`
      : code ? `## ${code}\n\nNo section for this code in the rules document.\n` : '';
    const [topHtml, docHtml] = await Promise.all([this.render(top), this.render(doc)]);
    if (!this.current) {
      this.current = vscode.window.createWebviewPanel(VIEW_TYPE, 'Skillflow Rules', { viewColumn: vscode.ViewColumn.Active, preserveFocus: false }, {
        enableScripts: false, enableFindWidget: true, localResourceRoots: [],
      });
      this.current.iconPath = vscode.Uri.joinPath(this.extensionUri, 'media', 'skillflow.svg');
      this.current.onDidDispose(() => { this.current = undefined; this.shownCode = undefined; });
    } else {
      this.current.reveal(undefined, false);
    }
    this.current.title = code ? `Rule: ${code}` : 'Skillflow Rules';
    this.current.webview.html = this.html(this.current.webview, topHtml, docHtml, code);
    this.shownCode = code;
    return this.current;
  }

  /** Markdown to HTML with the workbench's own Markdown renderer (the built-in Markdown extension); plain text without it. */
  private async render(markdown: string): Promise<string> {
    if (!markdown) return '';
    try {
      const html = await vscode.commands.executeCommand<string>('markdown.api.render', markdown);
      if (typeof html === 'string') return html;
    } catch (err) {
      this.log.debug(`markdown.api.render unavailable: ${String(err)}`);
    }
    return `<pre>${escapeHtml(markdown)}</pre>`;
  }

  private html(webview: vscode.Webview, top: string, doc: string, code: string | undefined): string {
    const nonce = randomBytes(16).toString('base64');
    return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'nonce-${nonce}'; img-src ${webview.cspSource}">
<title>${escapeHtml(code ? `Rule: ${code}` : 'Skillflow Rules')}</title>
<style nonce="${nonce}">
body { font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); color: var(--vscode-foreground); padding: 0 20px 40px; max-width: 60em; line-height: 1.5; }
code { font-family: var(--vscode-editor-font-family); background: var(--vscode-textCodeBlock-background); padding: 1px 4px; border-radius: 3px; }
a { color: var(--vscode-textLink-foreground); }
table { border-collapse: collapse; } th, td { border: 1px solid var(--vscode-panel-border); padding: 2px 8px; text-align: left; }
.rule { border-left: 3px solid var(--vscode-focusBorder); padding: 4px 16px; margin: 16px 0 24px; background: var(--vscode-editor-inactiveSelectionBackground); }
.all { opacity: 0.9; }
</style></head>
<body>
${top ? `<section class="rule" id="current-rule">${top}</section>` : ''}
<details class="all"${top ? '' : ' open'}><summary>All rules (docs/rules.md)</summary>${doc}</details>
</body></html>`;
  }

  dispose(): void {
    this.current?.dispose();
  }
}

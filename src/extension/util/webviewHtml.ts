/** The HTML document of a Skillflow webview: strict CSP (nothing but our style sheet and one script with a fresh nonce). */
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';

export interface WebviewPage {
  /** The bundled script (e.g. `dist/webview/graph.js`) and the style sheet (e.g. `media/graph.css`). */
  script: vscode.Uri;
  style: vscode.Uri;
  title: string;
  /** The body's markup before the script tag (static, from our own code). */
  body: string;
  /** A class on the body (where the page is shown, for the style sheet). */
  bodyClass?: string;
}

export function webviewHtml(webview: vscode.Webview, page: WebviewPage): string {
  const nonce = randomBytes(16).toString('base64url');
  const csp = `default-src 'none'; style-src ${webview.cspSource}; script-src 'nonce-${nonce}';`;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${webview.asWebviewUri(page.style)}">
<title>${page.title}</title>
</head>
<body${page.bodyClass ? ` class="${page.bodyClass}"` : ''}>
${page.body}
<script nonce="${nonce}" src="${webview.asWebviewUri(page.script)}"></script>
</body>
</html>`;
}

/**
 * The What Claude Sees webview (bundled to dist/webview/listing.js; runs in the browser, never imports vscode).
 * Shows the HTML the host built: an update patches the rows in place by entry id (patch.ts), so the row or button
 * under the pointer or holding the focus stays the same element and the scroll position stays; when the focused
 * control itself is gone, the focus goes to the same entry's row. Posts the row buttons' actions back by entry id.
 */
import type { ListingHostMessage, ListingWebviewMessage } from './listingProtocol';
import { patchChildren } from './patch';

declare function acquireVsCodeApi(): { postMessage(message: ListingWebviewMessage): void };

const vscodeApi = acquireVsCodeApi();
const root = document.getElementById('root') as HTMLElement;
const status = document.getElementById('status') as HTMLElement;
let renders = 0;

/** The focused control as (entry id, action), so the same control gets focus back after a re-render. */
function focusKey(): { id?: string; action?: string } | undefined {
  const el = document.activeElement as HTMLElement | null;
  if (!el || !root.contains(el)) return undefined;
  const row = el.closest<HTMLElement>('[data-id]');
  return { id: row?.dataset.id, action: el.dataset.action };
}

function restoreFocus(key: { id?: string; action?: string } | undefined): void {
  if (!key) return;
  const all = (scope: ParentNode, selector: string): HTMLElement[] => Array.from(scope.querySelectorAll<HTMLElement>(selector));
  const row: HTMLElement | undefined = key.id ? all(root, 'li[data-id]').find((r) => r.dataset.id === key.id) : undefined;
  const target = row
    ? all(row, '[data-action]').find((b) => b.dataset.action === key.action) ?? all(row, '[data-action]')[0]
    : key.action ? all(root, '[data-action]').find((b) => b.dataset.action === key.action) : undefined;
  target?.focus();
}

window.addEventListener('message', (event: MessageEvent<ListingHostMessage>) => {
  const msg = event.data;
  if (msg?.type === 'render') {
    const key = focusKey();
    const next = document.createElement('template');
    next.innerHTML = msg.html;
    patchChildren(root, next.content);
    root.setAttribute('aria-busy', 'false');
    if (!root.contains(document.activeElement)) restoreFocus(key);
    // How many updates the view has applied (tests wait on it).
    root.dataset.renders = String(++renders);
  } else if (msg?.type === 'status') {
    status.textContent = msg.text;
  }
});

root.addEventListener('click', (event) => {
  const el = (event.target as HTMLElement).closest<HTMLElement>('[data-action]');
  if (!el || el.tagName === 'SELECT') return;
  const action = el.dataset.action;
  if (action === 'settings') {
    event.preventDefault();
    vscodeApi.postMessage({ type: 'settings' });
    return;
  }
  const id = el.dataset.id;
  if (!id) return;
  if (action === 'name-only' || action === 'off' || action === 'on' || action === 'disable-model-invocation' || action === 'trim' || action === 'open') {
    vscodeApi.postMessage({ type: 'action', id, action });
  }
});

root.addEventListener('change', (event) => {
  const el = event.target as HTMLSelectElement;
  if (el.dataset.action === 'folder') vscodeApi.postMessage({ type: 'folder', id: el.value });
});

vscodeApi.postMessage({ type: 'ready' });

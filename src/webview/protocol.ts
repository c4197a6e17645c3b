/** Messages between the reference-graph webview and the extension host (both sides import these types). */
import type { ReferenceGraph } from '../core/references/graph';

/** Host → webview. */
export type HostMessage = { type: 'graph'; graph: ReferenceGraph };

/** Webview → host: `ready` once the script listens; `open` when a node is clicked (id = node id). */
export type WebviewMessage = { type: 'ready' } | { type: 'open'; id: string };

/** Narrows what arrives from the webview: anything else is ignored by the host. */
export function isWebviewMessage(value: unknown): value is WebviewMessage {
  if (typeof value !== 'object' || value === null) return false;
  const msg = value as { type?: unknown; id?: unknown };
  return msg.type === 'ready' || (msg.type === 'open' && typeof msg.id === 'string');
}

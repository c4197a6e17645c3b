/** Messages between the What Claude Sees webview and the extension host (both sides import these types). */

/** What a row's button asks for. The webview names entries only by the id the host gave them. */
export type ListingAction = 'name-only' | 'off' | 'on' | 'disable-model-invocation' | 'trim' | 'open';
export const LISTING_ACTIONS: readonly ListingAction[] = ['name-only', 'off', 'on', 'disable-model-invocation', 'trim', 'open'];

/**
 * Host → webview: `render` gives the view's content (HTML built by the host; the webview patches what is shown to
 * match, row by row); `status` is read out politely.
 */
export type ListingHostMessage = { type: 'render'; html: string } | { type: 'status'; text: string };

/**
 * Webview → host: `ready` once the script listens; `action` from a row's button; `folder` from the folder picker;
 * `settings` opens the context-window setting.
 */
export type ListingWebviewMessage =
  | { type: 'ready' }
  | { type: 'action'; id: string; action: ListingAction }
  | { type: 'folder'; id: string }
  | { type: 'settings' };

/** Narrows what arrives from the webview: anything else is ignored by the host. */
export function isListingWebviewMessage(value: unknown): value is ListingWebviewMessage {
  if (typeof value !== 'object' || value === null) return false;
  const msg = value as { type?: unknown; id?: unknown; action?: unknown };
  if (msg.type === 'ready' || msg.type === 'settings') return true;
  if (msg.type === 'folder') return typeof msg.id === 'string';
  return msg.type === 'action' && typeof msg.id === 'string' && (LISTING_ACTIONS as readonly unknown[]).includes(msg.action);
}

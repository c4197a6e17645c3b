/**
 * The reference-graph webview (bundled to dist/webview/graph.js; runs in the browser, never imports vscode).
 * Draws what the host sends as SVG and asks the host to open a skill when its node is clicked.
 */
import type { GraphNode, ReferenceGraph } from '../core/references/graph';
import { layoutGraph, NODE_RADIUS } from './layout';
import type { HostMessage, WebviewMessage } from './protocol';

declare function acquireVsCodeApi(): { postMessage(message: WebviewMessage): void };

const SVG = 'http://www.w3.org/2000/svg';
const vscodeApi = acquireVsCodeApi();

function svg<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string | number>, parent?: Element): SVGElementTagNameMap[K] {
  const el = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attrs)) el.setAttribute(name, String(value));
  parent?.appendChild(el);
  return el;
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

function nodeTooltip(node: GraphNode): string {
  const problems = [node.problems.errors && plural(node.problems.errors, 'error'), node.problems.warnings && plural(node.problems.warnings, 'warning')].filter(Boolean);
  // The label is the command; the name beside it when the command does not say it (`/hello` with `name: hi`).
  const named = node.invocation && !node.invocation.endsWith(node.name) ? ` · name: ${node.name}` : '';
  return `${node.invocation ?? `${node.name}, not loaded by Claude Code`}${named} (${node.scope} ${node.kind} skill)${problems.length ? ` — ${problems.join(', ')}` : ''}\nClick to open SKILL.md`;
}

function arrowMarker(defs: SVGDefsElement, id: string, className: string): void {
  const marker = svg('marker', { id, viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse' }, defs);
  svg('path', { d: 'M0,0 L10,5 L0,10 z', class: className }, marker);
}

function render(graph: ReferenceGraph): void {
  const summary = document.getElementById('summary');
  const canvas = document.getElementById('canvas');
  if (!summary || !canvas) return;
  const missing = graph.edges.filter((e) => e.missing).length;
  summary.textContent = graph.nodes.length
    ? `${plural(graph.nodes.length, 'skill')}, ${plural(graph.edges.length, 'cross-skill link')}${missing ? ` (${missing} with a missing target)` : ''}`
    : 'No skills indexed.';
  canvas.replaceChildren();
  if (!graph.nodes.length) return;

  const layout = layoutGraph(graph);
  const root = svg('svg', { viewBox: `0 0 ${layout.width} ${layout.height}`, role: 'group', 'aria-label': 'Skill reference graph' }, canvas);
  // Fill the panel, but do not blow a small graph up beyond 1.25× (CSSOM styles are allowed by the CSP; style attributes are not).
  root.style.maxWidth = `${Math.round(layout.width * 1.25)}px`;
  const defs = svg('defs', {}, root);
  arrowMarker(defs, 'arrow', 'arrowhead');
  arrowMarker(defs, 'arrow-missing', 'arrowhead missing');

  const edgeLayer = svg('g', { class: 'edges' }, root);
  const byKey = new Map(graph.edges.map((e) => [`${e.from}\u0000${e.to}`, e]));
  const edgeEls: Array<{ from: string; to: string; el: SVGPathElement }> = [];
  for (const laid of layout.edges) {
    const edge = byKey.get(`${laid.from}\u0000${laid.to}`);
    if (!edge) continue;
    const el = svg('path', { d: laid.d, class: edge.missing ? 'edge missing' : 'edge', 'marker-end': `url(#${edge.missing ? 'arrow-missing' : 'arrow'})` }, edgeLayer);
    const uses = edge.count === 1 ? '1 reference' : `${edge.count} references`;
    svg('title', {}, el).textContent = `${uses}: ${edge.targets.join(', ')}${edge.missing ? ' (missing target)' : ''}`;
    edgeEls.push({ from: edge.from, to: edge.to, el });
  }

  const nodeLayer = svg('g', { class: 'nodes' }, root);
  const byId = new Map(graph.nodes.map((n) => [n.id, n]));
  for (const laid of layout.nodes) {
    const node = byId.get(laid.id);
    if (!node) continue;
    const state = node.problems.errors ? 'error' : node.problems.warnings ? 'warning' : 'ok';
    const g = svg('g', { class: `node ${state} ${node.kind} ${node.scope}`, tabindex: 0, role: 'button', 'aria-label': `${node.label}: open SKILL.md`, 'data-id': node.id }, nodeLayer);
    svg('title', {}, g).textContent = nodeTooltip(node);
    if (node.kind === 'workflow') {
      svg('rect', { x: laid.x - NODE_RADIUS, y: laid.y - NODE_RADIUS, width: NODE_RADIUS * 2, height: NODE_RADIUS * 2, rx: 3 }, g);
    } else {
      svg('circle', { cx: laid.x, cy: laid.y, r: NODE_RADIUS }, g);
    }
    svg('text', { x: laid.labelX, y: laid.labelY, 'text-anchor': laid.anchor }, g).textContent = node.label;
    const open = () => vscodeApi.postMessage({ type: 'open', id: node.id });
    g.addEventListener('click', open);
    g.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' || event.key === ' ') { event.preventDefault(); open(); }
    });
    // Hovering or focusing a node highlights its links.
    const highlight = (on: boolean) => {
      for (const e of edgeEls) if (e.from === node.id || e.to === node.id) e.el.classList.toggle('active', on);
    };
    g.addEventListener('mouseenter', () => highlight(true));
    g.addEventListener('mouseleave', () => highlight(false));
    g.addEventListener('focus', () => highlight(true));
    g.addEventListener('blur', () => highlight(false));
  }
}

window.addEventListener('message', (event: MessageEvent<HostMessage>) => {
  const message = event.data;
  if (message && message.type === 'graph') render(message.graph);
});
vscodeApi.postMessage({ type: 'ready' });

/**
 * Deterministic circular layout of the reference graph: nodes in label order clockwise from the top, labels
 * outside the circle, edges as curves bent towards the centre (A→B and B→A apart). Pure: the webview draws the result.
 */
import type { ReferenceGraph } from '../core/references/graph';

export const NODE_RADIUS = 9;
const LABEL_GAP = 8;
const MARGIN = 16;
/** Rough width of one label character at the webview's font size (labels are measured before the font loads). */
const CHAR_WIDTH = 7.2;
const LINE_HEIGHT = 16;

export interface LaidOutNode {
  id: string;
  x: number;
  y: number;
  labelX: number;
  labelY: number;
  anchor: 'start' | 'middle' | 'end';
}

export interface LaidOutEdge {
  from: string;
  to: string;
  /** SVG path data: a quadratic curve from the rim of `from` to (just short of) the rim of `to`. */
  d: string;
}

export interface GraphLayout {
  width: number;
  height: number;
  nodes: LaidOutNode[];
  edges: LaidOutEdge[];
}

const round = (n: number) => Math.round(n * 10) / 10;

/** Places every node of `graph` and routes every edge; the same graph always gives the same layout. */
export function layoutGraph(graph: ReferenceGraph): GraphLayout {
  const n = graph.nodes.length;
  if (n === 0) return { width: 0, height: 0, nodes: [], edges: [] };
  // Room for ~48 px of rim per node, and at least a readable circle.
  const radius = n === 1 ? 0 : Math.max(150, (n * 48) / (2 * Math.PI));
  const longest = Math.max(...graph.nodes.map((node) => node.label.length)) * CHAR_WIDTH;
  const halfWidth = radius + NODE_RADIUS + LABEL_GAP + longest + MARGIN;
  const halfHeight = radius + NODE_RADIUS + LABEL_GAP + LINE_HEIGHT + MARGIN;
  const cx = halfWidth;
  const cy = halfHeight;

  const nodes: LaidOutNode[] = graph.nodes.map((node, i) => {
    const angle = -Math.PI / 2 + (2 * Math.PI * i) / n;
    const cos = n === 1 ? 0 : Math.cos(angle);
    const sin = n === 1 ? 1 : Math.sin(angle);
    const x = cx + radius * cos;
    const y = cy + radius * sin;
    const reach = NODE_RADIUS + LABEL_GAP;
    // Only the nodes right at the top or bottom get a centred label: two neighbours there would overlap.
    const anchor = cos > 0.1 ? 'start' : cos < -0.1 ? 'end' : 'middle';
    // Middle labels sit fully above (top) or below (bottom) the node; side labels are vertically centred.
    const labelY = anchor === 'middle' ? y + (sin < 0 ? -reach : reach + LINE_HEIGHT * 0.7) : y + reach * sin + 4;
    return { id: node.id, x: round(x), y: round(y), labelX: round(x + reach * cos), labelY: round(labelY), anchor };
  });

  const at = new Map(nodes.map((node) => [node.id, node]));
  const pairs = new Set(graph.edges.map((e) => `${e.from}\u0000${e.to}`));
  const edges: LaidOutEdge[] = [];
  for (const edge of graph.edges) {
    const a = at.get(edge.from);
    const b = at.get(edge.to);
    if (!a || !b || a === b) continue;
    const dx = b.x - a.x;
    const dy = b.y - a.y;
    const length = Math.hypot(dx, dy);
    const mx = (a.x + b.x) / 2;
    const my = (a.y + b.y) / 2;
    // Bend towards the centre, so a link between neighbours does not run over the nodes between them; a chord
    // through the centre bends to the left of its direction. Of two opposite links, one bends further.
    let nx = cx - mx;
    let ny = cy - my;
    const inward = Math.hypot(nx, ny);
    if (inward < 1) { nx = dy / length; ny = -dx / length; } else { nx /= inward; ny /= inward; }
    const reverse = pairs.has(`${edge.to}\u0000${edge.from}`);
    const bend = length * (reverse && inward >= 1 && edge.from > edge.to ? 0.4 : 0.15);
    const qx = mx + nx * bend;
    const qy = my + ny * bend;
    const start = towards(a, qx, qy, NODE_RADIUS);
    const end = towards(b, qx, qy, NODE_RADIUS + 2);
    edges.push({ from: edge.from, to: edge.to, d: `M${round(start.x)},${round(start.y)} Q${round(qx)},${round(qy)} ${round(end.x)},${round(end.y)}` });
  }
  return { width: round(2 * halfWidth), height: round(2 * halfHeight), nodes, edges };
}

/** The point `distance` from `p` in the direction of (x, y). */
function towards(p: { x: number; y: number }, x: number, y: number, distance: number): { x: number; y: number } {
  const dx = x - p.x;
  const dy = y - p.y;
  const length = Math.hypot(dx, dy) || 1;
  return { x: p.x + (dx / length) * distance, y: p.y + (dy / length) * distance };
}

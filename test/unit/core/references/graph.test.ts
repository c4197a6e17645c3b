import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { nodeFileSystem } from '../../../../src/core/base/fs';
import { discover } from '../../../../src/core/discovery/discover';
import { buildReferenceGraph, type ReferenceGraph } from '../../../../src/core/references/graph';
import { layoutGraph, NODE_RADIUS } from '../../../../src/webview/layout';
import { isWebviewMessage } from '../../../../src/webview/protocol';
import { removeTree, skillMd, tempTree } from '../../helpers/tempTree';

const DEMO = path.resolve('examples/demo-workspace');
const DEMO_SKILLS = path.join(DEMO, '.claude', 'skills');

function graphOf(workspace: string): ReferenceGraph {
  return buildReferenceGraph(discover(nodeFileSystem, { workspaceFolders: [workspace], profile: 'claude-code' }).skills);
}

test('demo workspace: every skill is a node; code-review and release-notes link to commit-message', () => {
  const graph = graphOf(DEMO);
  // Labelled as the Skills tree labels them: the command (`/hello` for `name: hi`), the name when never loaded.
  assert.deepEqual(graph.nodes.map((n) => n.label), [
    '/broken-yaml', '/code-review', '/commit-message', '/demo-plugin:lint-fix', '/hello', '/mismatched-name',
    '/missing-reference', '/no-description', '/release-notes', '/unknown-key', '/workflow-implement', '/workflow-review', 'explain-regex',
  ]);
  assert.deepEqual(graph.nodes.map((n) => n.name), [
    'broken-yaml', 'code-review', 'commit-message', 'lint-fix', 'hi', 'renamed-skill',
    'missing-reference', 'no-description', 'release-notes', 'unknown-key', 'workflow-implement', 'workflow-review', 'explain-regex',
  ]);
  // Skill folders Claude Code never loads are nodes too, with no invocation (commands are not nodes).
  const formatSql = graph.nodes.find((n) => n.name === 'explain-regex');
  assert.equal(formatSql?.invocation, null);
  assert.equal(graph.nodes.find((n) => n.name === 'hi')?.invocation, '/hello');
  const node = (name: string) => {
    const found = graph.nodes.find((n) => n.name === name);
    assert.ok(found, `no node ${name}`);
    return found;
  };
  assert.deepEqual(node('code-review'), {
    id: path.join(DEMO_SKILLS, 'code-review'), label: '/code-review', name: 'code-review', scope: 'project', kind: 'command', invocation: '/code-review',
    problems: { errors: 0, warnings: 1 }, // builtin-clash: it replaces Claude Code's bundled /code-review
  });
  assert.equal(node('workflow-implement').kind, 'workflow');
  assert.equal(node('lint-fix').scope, 'plugin');
  assert.equal(node('lint-fix').invocation, '/demo-plugin:lint-fix');
  assert.deepEqual(node('missing-reference').problems, { errors: 0, warnings: 1 });
  // An unquoted `: ` in the description: Claude Code reads it (changelog 2.1.69), strict YAML readers refuse it.
  assert.deepEqual(node('broken-yaml').problems, { errors: 0, warnings: 1 });

  const commitMessage = path.join(DEMO_SKILLS, 'commit-message');
  assert.deepEqual(graph.edges, [
    { from: path.join(DEMO_SKILLS, 'code-review'), to: commitMessage, count: 1, targets: ['commit-message/references/conventional-commits.md'], missing: false },
    { from: path.join(DEMO_SKILLS, 'release-notes'), to: commitMessage, count: 1, targets: ['commit-message/references/conventional-commits.md'], missing: false },
  ]);
});

test('edges: counted per pair, distinct targets, missing targets, no self-edges, no edges to non-skill folders', () => {
  const ws = tempTree({
    '.claude/skills/alpha/SKILL.md': skillMd('alpha', undefined, [
      '# alpha',
      'See beta/references/one.md and [two](beta/references/two.md).',
      'Again beta/references/one.md, and gamma/scripts/gone.sh which does not exist.',
      'Own file references/local.md and notes/readme.md (notes has no SKILL.md).',
      '',
    ].join('\n')),
    '.claude/skills/alpha/references/local.md': 'local\n',
    '.claude/skills/beta/SKILL.md': skillMd('beta', undefined, '# beta\nBack to alpha/references/local.md.\n'),
    '.claude/skills/beta/references/one.md': 'one\n',
    '.claude/skills/beta/references/two.md': 'two\n',
    '.claude/skills/gamma/SKILL.md': skillMd('gamma'),
    '.claude/skills/gamma/scripts/run.sh': 'echo\n',
    '.claude/skills/notes/readme.md': 'not a skill\n',
  });
  try {
    const root = path.join(ws, '.claude', 'skills');
    const id = (name: string) => path.join(root, name);
    const graph = graphOf(ws);
    assert.deepEqual(graph.nodes.map((n) => [n.name, n.problems]), [
      ['alpha', { errors: 0, warnings: 1 }],
      ['beta', { errors: 0, warnings: 0 }],
      ['gamma', { errors: 0, warnings: 0 }],
    ]);
    assert.deepEqual(graph.edges, [
      { from: id('alpha'), to: id('beta'), count: 3, targets: ['beta/references/one.md', 'beta/references/two.md'], missing: false },
      { from: id('alpha'), to: id('gamma'), count: 1, targets: ['gamma/scripts/gone.sh'], missing: true },
      { from: id('beta'), to: id('alpha'), count: 1, targets: ['alpha/references/local.md'], missing: false },
    ]);
  } finally {
    removeTree(ws);
  }
});

test('skills in different roots are separate nodes and a reference never crosses roots', () => {
  const ws = tempTree({
    '.claude/skills/shared/SKILL.md': skillMd('shared'),
    '.claude/skills/shared/references/a.md': 'a\n',
    '.agents/skills/user/SKILL.md': skillMd('user', undefined, '# user\nRead shared/references/a.md.\n'),
  });
  try {
    const graph = graphOf(ws);
    assert.deepEqual(graph.nodes.map((n) => n.name), ['shared', 'user']);
    assert.deepEqual(graph.edges, []);
  } finally {
    removeTree(ws);
  }
});

test('an empty skill list gives an empty graph and an empty layout', () => {
  assert.deepEqual(buildReferenceGraph([]), { nodes: [], edges: [] });
  assert.deepEqual(layoutGraph({ nodes: [], edges: [] }), { width: 0, height: 0, nodes: [], edges: [] });
});

test('layout: deterministic circle in node order, labels outside, edges start and end at the node rims', () => {
  const graph = graphOf(DEMO);
  const layout = layoutGraph(graph);
  assert.deepEqual(layoutGraph(graph), layout);
  assert.equal(layout.nodes.length, graph.nodes.length);
  assert.deepEqual(layout.nodes.map((n) => n.id), graph.nodes.map((n) => n.id));

  // The first node sits at the top centre with its label above it; all nodes are equally far from the centre.
  const cx = layout.width / 2;
  const cy = layout.height / 2;
  const first = layout.nodes[0];
  assert.equal(first.x, cx);
  assert.ok(first.y < cy);
  assert.equal(first.anchor, 'middle');
  assert.ok(first.labelY < first.y);
  const radius = cy - first.y;
  for (const n of layout.nodes) {
    assert.ok(Math.abs(Math.hypot(n.x - cx, n.y - cy) - radius) < 0.2, `${n.id} is off the circle`);
    assert.ok(n.x > 0 && n.x < layout.width && n.y > 0 && n.y < layout.height);
    // Right-hand labels start at the node, left-hand labels end at it.
    if (n.anchor === 'start') assert.ok(n.labelX > n.x && n.x > cx);
    if (n.anchor === 'end') assert.ok(n.labelX < n.x && n.x < cx);
  }

  assert.equal(layout.edges.length, 2);
  const at = new Map(layout.nodes.map((n) => [n.id, n]));
  for (const e of layout.edges) {
    const m = /^M([\d.]+),([\d.]+) Q([\d.]+),([\d.]+) ([\d.]+),([\d.]+)$/.exec(e.d);
    assert.ok(m, `unexpected path ${e.d}`);
    const [sx, sy, , , ex, ey] = m.slice(1).map(Number);
    const from = at.get(e.from)!;
    const to = at.get(e.to)!;
    assert.ok(Math.abs(Math.hypot(sx - from.x, sy - from.y) - NODE_RADIUS) < 0.2);
    assert.ok(Math.abs(Math.hypot(ex - to.x, ey - to.y) - (NODE_RADIUS + 2)) < 0.2);
  }
});

const plainNode = (id: string) => ({ id, label: `/${id}`, name: id, scope: 'project' as const, kind: 'command' as const, invocation: `/${id}`, problems: { errors: 0, warnings: 0 } });
const plainEdge = (from: string, to: string) => ({ from, to, count: 1, targets: [`${to}/x.md`], missing: false });
const control = (d: string) => d.split(' ')[1].slice(1).split(',').map(Number);

test('layout: opposite edges through the centre bend to opposite sides', () => {
  const layout = layoutGraph({ nodes: [plainNode('a'), plainNode('b')], edges: [plainEdge('a', 'b'), plainEdge('b', 'a')] });
  const [ab, ba] = layout.edges.map((e) => control(e.d));
  // a is on top, b at the bottom: the two curves pass on either side of the vertical axis.
  const cx = layout.width / 2;
  assert.ok((ab[0] - cx) * (ba[0] - cx) < 0, `controls ${ab} and ${ba}`);
});

test('layout: links bend towards the centre; of two opposite links one bends further', () => {
  const layout = layoutGraph({
    nodes: ['a', 'b', 'c', 'd', 'e'].map(plainNode),
    edges: [plainEdge('a', 'b'), plainEdge('b', 'a'), plainEdge('c', 'd')],
  });
  const cx = layout.width / 2;
  const cy = layout.height / 2;
  const at = new Map(layout.nodes.map((n) => [n.id, n]));
  const bends: number[] = [];
  for (const e of layout.edges) {
    const [qx, qy] = control(e.d);
    const from = at.get(e.from)!;
    const to = at.get(e.to)!;
    const mx = (from.x + to.x) / 2;
    const my = (from.y + to.y) / 2;
    assert.ok(Math.hypot(qx - cx, qy - cy) < Math.hypot(mx - cx, my - cy), `${e.from}→${e.to} bends outwards`);
    bends.push(Math.hypot(qx - mx, qy - my));
  }
  // a→b and c→d are equally long chords with the same bend; b→a bends further.
  assert.ok(Math.abs(bends[0] - bends[2]) < 0.3, `${bends}`);
  assert.ok(bends[1] > bends[0] * 2, `${bends}`);
});

test('webview messages: only ready and open-with-id are accepted', () => {
  assert.equal(isWebviewMessage({ type: 'ready' }), true);
  assert.equal(isWebviewMessage({ type: 'open', id: '/x' }), true);
  assert.equal(isWebviewMessage({ type: 'open' }), false);
  assert.equal(isWebviewMessage({ type: 'open', id: 3 }), false);
  assert.equal(isWebviewMessage({ type: 'run', id: '/x' }), false);
  assert.equal(isWebviewMessage(null), false);
  assert.equal(isWebviewMessage('ready'), false);
});

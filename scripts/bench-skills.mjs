// The bench skills: clones of test/fixtures/corpus under new names (same sizes and companion files, hard-linked
// where possible), about 3 % deliberately broken. Shared by bench.mjs and bench-extract.mjs, so both time the
// same skills. `node scripts/bench-skills.mjs <dir> [--n N]` writes them to <dir> (for A/B and callgrind runs).
import * as fs from 'node:fs';
import * as path from 'node:path';

export const repo = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
export const corpusDir = path.join(repo, 'test', 'fixtures', 'corpus');

// ---------- the corpus: every folder holding SKILL.md, with all its files ----------
function listFiles(dir, rel = '') {
  const out = [];
  for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...listFiles(dir, r));
    else if (e.isFile()) out.push(r);
  }
  return out;
}
/** Every folder under `dir` holding a SKILL.md (not looking further into one), sorted. */
export function findSkills(dir) {
  const found = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    if (!e.isDirectory()) continue;
    const p = path.join(dir, e.name);
    if (fs.existsSync(path.join(p, 'SKILL.md'))) found.push(p);
    else found.push(...findSkills(p));
  }
  return found.sort();
}

/** The corpus skills the bench skills are cloned from. */
export function loadTemplates() {
  if (!fs.existsSync(corpusDir)) throw new Error(`${corpusDir} is missing`);
  return findSkills(corpusDir).map((dir) => {
    const text = fs.readFileSync(path.join(dir, 'SKILL.md'), 'utf8');
    const name = /^name:\s*(.+)$/m.exec(text)?.[1].trim() ?? path.basename(dir);
    return { dir, folder: path.basename(dir), name, text, files: listFiles(dir).filter((f) => f !== 'SKILL.md') };
  });
}

// ---------- generation ----------
const BREAKAGES = [
  ['frontmatter-unclosed', (t) => t.replace(/\n---\n/, '\n\n')],
  ['yaml-syntax', (t) => t.replace(/^description:.*$/m, 'description: Use when: the build breaks')],
  ['name-case', (t) => t.replace(/^name:\s*(.+)$/m, (_m, n) => `name: ${n.toUpperCase()}`)],
  ['description-missing', (t) => t.replace(/^description:.*\n(?:[ \t]+.*\n)*/m, '')],
  ['description-angle-brackets', (t) => t.replace(/^description:\s*(.*)$/m, (_m, d) => `description: ${d.replace(/^["']|["']$/g, '')} with <html> tags`)],
];

function linkOrCopy(from, to) {
  try { fs.linkSync(from, to); } catch { fs.copyFileSync(from, to); }
}

/** Writes `count` skills cloned from `templates` under `root`; gives the number deliberately broken. */
export function generate(templates, root, count) {
  fs.mkdirSync(root, { recursive: true });
  let broken = 0;
  for (let i = 0; i < count; i++) {
    const t = templates[i % templates.length];
    const folder = `${t.folder}-${i}`;
    const dir = path.join(root, folder);
    fs.mkdirSync(dir, { recursive: true });
    let text = t.text.replace(/^name:\s*(.+)$/m, `name: ${t.name}-${i}`);
    // Cross-skill references (`../other-skill/...`) point at the clone of that skill in the same batch.
    const base = i - (i % templates.length);
    text = text.replace(/\.\.\/([a-z0-9-]+)\//g, (m, other) => {
      const j = templates.findIndex((x) => x.folder === other);
      return j === -1 ? m : `../${other}-${base + j}/`;
    });
    if (i % 33 === 7) {
      text = BREAKAGES[Math.floor(i / 33) % BREAKAGES.length][1](text);
      broken++;
    }
    fs.writeFileSync(path.join(dir, 'SKILL.md'), text);
    for (const f of t.files) {
      const to = path.join(dir, f);
      fs.mkdirSync(path.dirname(to), { recursive: true });
      linkOrCopy(path.join(t.dir, f), to);
    }
  }
  return broken;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  const dir = process.argv[2];
  const i = process.argv.indexOf('--n');
  const n = i === -1 ? 10_000 : Number(process.argv[i + 1]);
  if (!dir || dir.startsWith('--') || !Number.isInteger(n) || n <= 0) {
    console.error('usage: node scripts/bench-skills.mjs <dir> [--n N]');
    process.exit(2);
  }
  if (fs.existsSync(dir) && fs.readdirSync(dir).length) { console.error(`bench-skills: ${dir} is not empty`); process.exit(2); }
  const broken = generate(loadTemplates(), dir, n);
  console.log(`${n} skills (${broken} deliberately broken) in ${dir}`);
}

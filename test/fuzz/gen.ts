// Input generators of the fuzz suite: mutations of real files (test/fixtures), random bytes, deep YAML, invalid UTF-8,
// CR/CRLF/BOM mixes, and inputs that grow (for the time properties).
import * as fc from 'fast-check';
import * as nodeFs from 'node:fs';
import * as nodePath from 'node:path';

/** Every file under `dir` whose name matches `test`, sorted. */
export function filesUnder(dir: string, test: (name: string) => boolean): string[] {
  const out: string[] = [];
  for (const e of nodeFs.readdirSync(dir, { withFileTypes: true })) {
    const p = nodePath.join(dir, e.name);
    if (e.isDirectory()) out.push(...filesUnder(p, test));
    else if (e.isFile() && test(e.name)) out.push(p);
  }
  return out.sort();
}

/** A real skill of the corpus: its folder and bytes. */
export interface CorpusSkill {
  dir: string;
  bytes: Buffer;
}

export const CORPUS: CorpusSkill[] = filesUnder('test/fixtures/corpus', (n) => n === 'SKILL.md')
  .map((p) => ({ dir: nodePath.resolve(nodePath.dirname(p)), bytes: nodeFs.readFileSync(p) }));

/** Fragments that mean something to YAML, markdown, the reference scanner or a context file. */
const FRAGMENTS = [
  '---', '---\n', '\n', '\r', '\r\n', '\ufeff', ': ', ':', '#', ' #', '- ', '? ', '[', ']', '{', '}', ',', '&a ', '*a', '!!str ', '|', '|-', '>', "'", '"',
  '\\', '\t', '  ', '%YAML 1.2\n', '...', 'name: ', 'description: ', 'metadata:\n  ', '  k: v\n', '<', '>', '](', '[x](references/a.md)', 'references/',
  '../', '/etc/passwd', 'scripts/run.sh', '`', '```\n', '~~~\n', '<!--', '-->', '### Q9: ?\n', 'Answer:', 'Answer: x\n', 'Type: multi\n', 'Options:\n- a\n',
  '## Questions\n', '\\##', '\\---', '\u0000', '\u0007', '\u001b[2J', '\u0015', '\u2028', '\ud800', '\udfff', '😀', 'é', '\u00a0', 'STATUS: AWAIT\n',
  'CONTEXT_PATH: ', '"phase": ', '12345678901234567890', '1e400', '-0', 'null', 'true', '{}', '[]',
];

/**
 * Any code points (lone surrogates included), as `fc.string({ unit: 'binary' })` gives them but without its reverse
 * mapping of every code point, which fast-check builds when the arbitrary is made: 90 MB of live heap that made every
 * garbage collection of a fuzz run slower (and its timings noisier).
 */
const anyCodePoints = fc.array(fc.integer({ min: 0, max: 0x10ffff }), { maxLength: 8 }).map((cps) => String.fromCodePoint(...cps));

/** One edit of a text: insert, delete, replace or repeat a stretch, at a position given as a fraction of the length. */
const edit = fc.record({
  op: fc.constantFrom('insert', 'delete', 'replace', 'repeat', 'bytes'),
  at: fc.double({ min: 0, max: 1, noNaN: true }),
  len: fc.nat({ max: 64 }),
  text: fc.oneof(fc.constantFrom(...FRAGMENTS), fc.string({ maxLength: 12 }), anyCodePoints),
  times: fc.integer({ min: 1, max: 50 }),
  raw: fc.uint8Array({ minLength: 1, maxLength: 6 }),
});

type Edit = typeof edit extends fc.Arbitrary<infer T> ? T : never;

/** Applies edits to bytes (text edits in UTF-8; `bytes` edits may make it invalid UTF-8). */
export function applyEdits(input: Buffer, edits: Edit[]): Buffer {
  let b = input;
  for (const e of edits) {
    const at = Math.floor(e.at * b.length);
    const frag = e.op === 'bytes' ? Buffer.from(e.raw) : Buffer.from(e.text, 'utf8');
    switch (e.op) {
      case 'insert': case 'bytes': b = Buffer.concat([b.subarray(0, at), frag, b.subarray(at)]); break;
      case 'delete': b = Buffer.concat([b.subarray(0, at), b.subarray(Math.min(b.length, at + e.len))]); break;
      case 'replace': b = Buffer.concat([b.subarray(0, at), frag, b.subarray(Math.min(b.length, at + e.len))]); break;
      case 'repeat': b = Buffer.concat([b.subarray(0, at), Buffer.alloc(0), ...Array<Buffer>(e.times).fill(b.subarray(at, Math.min(b.length, at + e.len))), b.subarray(at)]); break;
    }
  }
  return b;
}

/** Line endings rewritten: every break becomes `\n`, `\r\n` or `\r` (mixed per line or one for all); optionally a BOM (or two). */
export function lineEndings(base: fc.Arbitrary<Buffer>): fc.Arbitrary<Buffer> {
  return fc.tuple(base, fc.constantFrom('lf', 'crlf', 'cr', 'mixed'), fc.array(fc.constantFrom('\n', '\r\n', '\r'), { minLength: 1, maxLength: 7 }), fc.constantFrom(0, 0, 1, 2))
    .map(([b, mode, cycle, boms]) => {
      const text = b.toString('latin1'); // byte-preserving
      let i = 0;
      const eol = () => (mode === 'lf' ? '\n' : mode === 'crlf' ? '\r\n' : mode === 'cr' ? '\r' : cycle[i++ % cycle.length]);
      const out = text.replace(/\r\n|\r|\n/g, eol);
      return Buffer.concat([Buffer.from('\ufeff'.repeat(boms), 'utf8'), Buffer.from(out, 'latin1')]);
    });
}

/** Mutations of the given real files. */
export function mutationsOf(files: Buffer[], maxEdits = 8): fc.Arbitrary<Buffer> {
  return fc.tuple(fc.constantFrom(...files), fc.array(edit, { maxLength: maxEdits })).map(([b, edits]) => applyEdits(b, edits));
}

/** Random bytes, alone or inside a frontmatter fence. */
export const randomBytes: fc.Arbitrary<Buffer> = fc.tuple(fc.uint8Array({ maxLength: 3000 }), fc.constantFrom('', '---\n', '---\nname: a\n'), fc.constantFrom('', '\n---\n', '\n---\nbody\n'))
  .map(([b, head, tail]) => Buffer.concat([Buffer.from(head), Buffer.from(b), Buffer.from(tail)]));

/** Deeply nested YAML of every kind (flow, block, compact lists, explicit keys, collection keys), in the frontmatter. */
export const deepYaml: fc.Arbitrary<Buffer> = fc.record({
  depth: fc.integer({ min: 1, max: 3000 }),
  kind: fc.constantFrom('flow-seq', 'flow-map', 'block-map', 'compact-seq', 'explicit-key', 'collection-key', 'mixed'),
  where: fc.constantFrom('metadata', 'top', 'hooks'),
  close: fc.boolean(),
}).map(({ depth, kind, where, close }) => {
  let y: string;
  switch (kind) {
    case 'flow-seq': y = `${'['.repeat(depth)}x${close ? ']'.repeat(depth) : ''}`; break;
    case 'flow-map': y = `${'{a: '.repeat(depth)}x${close ? '}'.repeat(depth) : ''}`; break;
    case 'block-map': y = `\n${Array.from({ length: Math.min(depth, 400) }, (_, d) => `${' '.repeat(d + 2)}k${d}:`).join('\n')} x`; break;
    case 'compact-seq': y = `\n  ${'- '.repeat(depth)}x`; break;
    case 'explicit-key': y = `\n  ${'? '.repeat(depth)}x`; break;
    case 'collection-key': y = `\n  ${'['.repeat(depth)}${']'.repeat(depth)}: v`; break;
    default: y = `${'[{a: '.repeat(depth >> 1)}x${close ? '}]'.repeat(depth >> 1) : ''}`;
  }
  const fm = where === 'top' ? `name: a\ndescription: b\n${y.startsWith('\n') ? `k:${y}` : `${y}: v`}` : `name: a\ndescription: b\n${where}: ${y}`;
  return Buffer.from(`---\n${fm}\n---\nBody.\n`);
});

/** Invalid UTF-8: a real file with random high bytes, lone continuation bytes or truncated sequences. */
export function invalidUtf8(files: Buffer[]): fc.Arbitrary<Buffer> {
  const bad = fc.constantFrom([0x80], [0xc3], [0xe2, 0x82], [0xf0, 0x9f, 0x98], [0xff], [0xfe], [0xed, 0xa0, 0x80], [0xc0, 0xaf]);
  return fc.tuple(fc.constantFrom(...files), fc.array(fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), bad), { minLength: 1, maxLength: 5 }))
    .map(([b, ins]) => {
      let out = b;
      for (const [at, seq] of ins) {
        const i = Math.floor(at * out.length);
        out = Buffer.concat([out.subarray(0, i), Buffer.from(seq), out.subarray(i)]);
      }
      return out;
    });
}

/** SKILL.md inputs that grow with `n` (the classes that were slow): each gives text of about n characters. */
export const GROWING: Record<string, (n: number) => string> = {
  'blank-lines': (n) => `---\nname: a\n${'\n'.repeat(n)}description: b\n---\n`,
  'space-lines': (n) => `---\nname: a\n${' \n'.repeat(n >> 1)}description: b\n---\n`,
  'comment-lines': (n) => `---\nname: a\n${'# c\n\n'.repeat(n / 5)}description: b\n---\n`,
  'quoted-keys': (n) => `---\nname: a\ndescription: b\n${Array.from({ length: n / 14 }, (_, i) => `k${i}: 'x'`).join('\n')}\n# c\n---\n`,
  'plain-keys': (n) => `---\nname: a\ndescription: b\n${Array.from({ length: n / 10 }, (_, i) => `k${i}: x`).join('\n')}\n---\n`,
  'dup-keys': (n) => `---\nname: a\ndescription: b\nmetadata:\n${Array.from({ length: n / 8 }, (_, i) => `  m${i % 7}: x`).join('\n')}\n---\n`,
  'collection-keys': (n) => `---\nname: a\ndescription: b\nmetadata:\n${Array.from({ length: n / 200 }, (_, i) => `  ${'['.repeat(95)}${i}${']'.repeat(95)}: v`).join('\n')}\n---\n`,
  'deep-flow': (n) => `---\nname: a\ndescription: b\nmetadata: ${'['.repeat(n >> 1)}${']'.repeat(n >> 1)}\n---\n`,
  'flow-items': (n) => `---\nname: a\ndescription: b\nmetadata: [${'[a], '.repeat(n / 5)}x]\n---\n`,
  'long-key': (n) => `---\nname: a\ndescription: b\n${'k'.repeat(n)}: v\n---\n`,
  'long-value': (n) => `---\nname: a\ndescription: "${'x '.repeat(n >> 1)}"\n---\n`,
  'long-block': (n) => `---\nname: a\ndescription: |\n${'  line\n'.repeat(n / 7)}---\n`,
  'long-line-body': (n) => `---\nname: a\ndescription: b\n---\n${'[a](b/'.repeat(n / 6)}\n`,
  'link-body': (n) => `---\nname: a\ndescription: b\n---\n${'see [x](references/missing.md) and scripts/x.sh\n'.repeat(n / 48)}`,
  'fence-lines': (n) => `${'---\n'.repeat(n >> 2)}`,
  'unclosed': (n) => `---\nname: a\n${'description: b\n'.repeat(n / 15)}`,
  'crs': (n) => `---\rname: a\rdescription: b\r${'k: "\r'.repeat(n / 5)}---\r`,
  // The YAML library's path with few tokens per character (long scalars) and with many (every kind of token).
  'folded-block': (n) => `---\nname: a\ndescription: >\n${'  some folded text\n'.repeat(n / 19)}---\n`,
  'multiline-quoted': (n) => `---\nname: a\ndescription: "${'x y\n  '.repeat(n / 6)}"\n---\n`,
  'multiline-plain': (n) => `---\nname: a\ndescription: b\nmetadata:\n  k: ${'x y\n   '.repeat(n / 7)}\n---\n`,
  'crlf-keys': (n) => `---\r\nname: a\r\ndescription: b\r\n${Array.from({ length: n / 11 }, (_, i) => `k${i}: x`).join('\r\n')}\r\n---\r\n`,
  'nested-keys': (n) => `---\nname: a\ndescription: b\nmetadata:\n${Array.from({ length: n / 12 }, (_, i) => `  m${i}: x`).join('\n')}\n---\n`,
  'list-items': (n) => `---\nname: a\ndescription: b\nallowed-tools:\n${'  - Read\n'.repeat(n / 9)}---\n`,
  'flow-map-items': (n) => `---\nname: a\ndescription: b\nmetadata: {${Array.from({ length: n / 8 }, (_, i) => `k${i}: v`).join(', ')}}\n---\n`,
  'alias-big-anchor': (n) => `---\nname: a\ndescription: b\nx: &a [${'1, '.repeat(n / 3)}1]\n${Array.from({ length: 20 }, (_, i) => `y${i}: *a`).join('\n')}\n---\n`,
  'aliases': (n) => `---\nname: a\ndescription: b\nx: &a [1, 2]\n${Array.from({ length: n / 10 }, (_, i) => `y${i}: *a`).join('\n')}\n---\n`,
  'comments-nested': (n) => `---\nname: a\ndescription: b\nmetadata:\n${'  # comment\n'.repeat(n / 12)}  k: v\n---\n`,
  'tab-values': (n) => `---\nname: a\ndescription: b\n${Array.from({ length: n / 10 }, (_, i) => `k${i}:\tx`).join('\n')}\n---\n`,
};

/** One growing input: its class, size and text. */
export const growing: fc.Arbitrary<{ kind: string; n: number }> = fc.record({
  kind: fc.constantFrom(...Object.keys(GROWING)),
  n: fc.integer({ min: 1000, max: 100_000 }),
});

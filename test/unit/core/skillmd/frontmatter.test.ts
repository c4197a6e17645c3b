import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { flowThenText, parseSkillMd } from '../../../../src/core/skillmd/frontmatter';
import { r, rangeOf, summary } from '../../helpers/validation';

test('a well-formed SKILL.md gives data, exact key/value ranges and the body', () => {
  const text = '---\nname: my-skill\ndescription: Does things.\nlicense: MIT\n---\n# Title\nBody\n';
  const p = parseSkillMd(text);
  assert.equal(p.hasBom, false);
  assert.equal(p.hasFrontmatter, true);
  assert.equal(p.frontmatterClosed, true);
  assert.deepEqual(p.problems, []);
  assert.deepEqual(p.data, { name: 'my-skill', description: 'Does things.', license: 'MIT' });
  assert.equal(p.frontmatterStartLine, 2);
  assert.equal(p.bodyStartLine, 6);
  assert.equal(p.body, '# Title\nBody\n');
  assert.deepEqual(p.keys.map((k) => [k.key, rangeOf(k.keyRange), k.valueRange && rangeOf(k.valueRange), k.value]), [
    ['name', r(2, 1, 2, 5), r(2, 7, 2, 15), 'my-skill'],
    ['description', r(3, 1, 3, 12), r(3, 14, 3, 26), 'Does things.'],
    ['license', r(4, 1, 4, 8), r(4, 10, 4, 13), 'MIT'],
  ]);
});

test('CRLF line endings give the same lines and columns as LF', () => {
  const lf = '---\nname: my-skill\ndescription: "quoted"\n---\nBody\n';
  const crlf = lf.replace(/\n/g, '\r\n');
  const a = parseSkillMd(lf);
  const b = parseSkillMd(crlf);
  assert.deepEqual(b.problems, []);
  assert.deepEqual(b.data, a.data);
  assert.deepEqual(b.keys, a.keys);
  assert.equal(b.bodyStartLine, 5);
  assert.equal(b.body, 'Body\r\n');
});

test('a lone CR also ends a line', () => {
  const p = parseSkillMd('---\rname: x\rdescription: y\r---\rBody');
  assert.deepEqual(p.data, { name: 'x', description: 'y' });
  assert.deepEqual(rangeOf(p.keys[1].keyRange), r(3, 1, 3, 12));
  assert.equal(p.bodyStartLine, 5);
});

test('a UTF-8 BOM is reported at 1:1 and positions are counted without it', () => {
  const p = parseSkillMd('\uFEFF---\nname: my-skill\ndescription: d\n---\n');
  assert.equal(p.hasBom, true);
  assert.deepEqual(summary(p.problems), ['bom@1:1-1:2']);
  assert.equal(p.problems[0].severity, 'warning');
  // Changelog 2.1.239: "Fixed agents, skills, and commands whose `.md` file starts with a UTF-8 BOM being silently ignored".
  assert.match(p.problems[0].message, /byte order mark: it starts with a BOM, and Claude Code before 2\.1\.239 ignored such a file/);
  assert.deepEqual(rangeOf(p.keys[0].valueRange!), r(2, 7, 2, 15));
  assert.deepEqual(p.data, { name: 'my-skill', description: 'd' });
});

test('BOM + CRLF together', () => {
  const p = parseSkillMd('\uFEFF---\r\nname: a\r\ndescription: b\r\n---\r\n');
  assert.deepEqual(summary(p.problems), ['bom@1:1-1:2']);
  assert.deepEqual(rangeOf(p.keys[1].valueRange!), r(3, 14, 3, 15));
});

test('no opening fence: frontmatter-missing on the first line, the whole text is the body', () => {
  const p = parseSkillMd('# Just markdown\n\ntext\n');
  assert.equal(p.hasFrontmatter, false);
  assert.deepEqual(summary(p.problems), ['frontmatter-missing@1:1-1:16']);
  // The parser's own severity is claude-code's: Claude Code loads such a file (folder name, first paragraph).
  assert.equal(p.problems[0].severity, 'warning');
  assert.equal(p.body, '# Just markdown\n\ntext\n');
  assert.equal(p.bodyStartLine, 1);
  assert.equal(p.data, undefined);
});

test('a fence that is not on the first line is frontmatter-missing with a hint', () => {
  const p = parseSkillMd('\n---\nname: x\n---\n');
  assert.deepEqual(summary(p.problems), ['frontmatter-missing@1:1-1:1']);
  assert.match(p.problems[0].message, /^Start the file with a '---' line.*the '---' on line 2 must be the very first line/);
});

test('the opening fence may carry trailing spaces but nothing else', () => {
  assert.equal(parseSkillMd('---  \nname: x\n---\n').frontmatterClosed, true);
  assert.deepEqual(summary(parseSkillMd('---yaml\nname: x\n---\n').problems), ['frontmatter-missing@1:1-1:8']);
});

test('no closing fence: frontmatter-unclosed on the opening line, no data', () => {
  const p = parseSkillMd('---\nname: x\ndescription: y\n');
  assert.equal(p.hasFrontmatter, true);
  assert.equal(p.frontmatterClosed, false);
  assert.deepEqual(summary(p.problems), ['frontmatter-unclosed@1:1-1:4']);
  assert.equal(p.data, undefined);
  assert.equal(p.body, '');
});

test('`---x` does not close the frontmatter', () => {
  const p = parseSkillMd('---\nname: x\n----\n');
  assert.deepEqual(summary(p.problems), ['frontmatter-unclosed@1:1-1:4']);
});

test('an empty frontmatter is an empty mapping', () => {
  const p = parseSkillMd('---\n---\nBody\n');
  assert.deepEqual(p.problems, []);
  assert.deepEqual(p.data, {});
  assert.deepEqual(p.keys, []);
  assert.equal(p.body, 'Body\n');
  assert.equal(p.bodyStartLine, 3);
});

test('a comment-only frontmatter is an empty mapping', () => {
  assert.deepEqual(parseSkillMd('---\n# nothing\n---\n').data, {});
});

test('yaml-syntax at the error position, with a "quote the value" hint for `: ` in a plain value', () => {
  const p = parseSkillMd('---\nname: my-skill\ndescription: Use this when: the user asks\n---\n');
  // From the error to the end of the line's text: the whole unquoted value.
  assert.deepEqual(summary(p.problems), ['yaml-syntax@3:14-3:42']);
  // Claude Code reads it (changelog 2.1.69: "Fixed skill descriptions with colons (e.g., "Triggers include: X, Y, Z")
  // failing to load from SKILL.md frontmatter"): a warning in claude-code, the value as written.
  assert.equal(p.problems[0].severity, 'warning');
  assert.match(p.problems[0].message, /^Quote the description: it contains ': ' \(e\.g\. description: "Use this when: the user asks"\)\. Claude Code reads it as written, but strict YAML readers/);
  assert.deepEqual(p.data, { name: 'my-skill', description: 'Use this when: the user asks' });
  // Folded onto a second line, the value keeps its continuation.
  assert.equal(parseSkillMd('---\ndescription: Triggers include: X,\n  Y, Z\nname: a\n---\n').data?.description, 'Triggers include: X, Y, Z');
  // Anything else broken in the same frontmatter: nothing is read (as before).
  const mixed = parseSkillMd('---\ndescription: Use when: asked\nargument-hint: [a\n---\n');
  assert.equal(mixed.data, undefined);
  assert.ok(mixed.problems.every((q) => q.code === 'yaml-syntax' && q.severity === 'error'));
});

test('an argument-hint of two bracket groups ([a] [b], unquoted) is a yaml-syntax error with a "quote the value" hint', () => {
  const p = parseSkillMd('---\ndescription: Create a pull request\nargument-hint: [to-branch] [from-branch]\n---\n');
  assert.equal(p.problems[0].code, 'yaml-syntax');
  assert.match(p.problems[0].message, /^Quote the value of 'argument-hint': '\[to-branch\] \[from-branch\]' is a YAML list followed by more text, not one value \(e\.g\. argument-hint: "\[to-branch\] \[from-branch\]"\); YAML syntax error: /);
  // One bracket group is a YAML list Claude Code reads as text: no problem; quoted, the text itself.
  assert.deepEqual(parseSkillMd('---\ndescription: d\nargument-hint: [message]\n---\n').problems, []);
  assert.equal(parseSkillMd('---\ndescription: d\nargument-hint: "[to-branch] [from-branch]"\n---\n').data?.['argument-hint'], '[to-branch] [from-branch]');
});

test('a YAML error is reported once, not again on every later line it throws the parser off', () => {
  // After `[a] [b]` the document has ended: the YAML library reads every later line as stray tokens of the stream
  // ("unexpected scalar token in YAML stream"), lines with nothing wrong of their own.
  const p = parseSkillMd('---\ndescription: Do a thing\nargument-hint: [--strict] [--json]\nallowed-tools: Bash(git:*)\nmodel: sonnet\n---\nbody\n');
  assert.deepEqual(p.problems.map((q) => `${q.code}@${q.line}`), ['yaml-syntax@3']);
  assert.match(p.problems[0].message, /^Quote the value of 'argument-hint'/);
  // The same after a list where a map was (a line the parser never reads again until the first is fixed).
  assert.deepEqual(parseSkillMd('---\n- a\nname: b\ndescription: c\n---\n').problems.map((q) => `${q.code}@${q.line}`), ['yaml-syntax@3']);
  // After `[a] | [b]` (the `|` read as a block scalar) the next key "needs a value": not so once that line is
  // blanked, so not reported (davila7/claude-code-templates).
  assert.deepEqual(parseSkillMd('---\nname: s\nargument-hint: [a] | [b]\ndescription: d\n---\n').problems.map((q) => `${q.code}@${q.line}`), ['yaml-syntax@3']);
  // Text at column 0 (a description's `<example>` blocks run on, getsentry/skills): the first such line is the
  // error, with what to do; nothing the parser makes of the lines after it.
  const prose = parseSkillMd('---\nname: senpai\ndescription: Use this agent when a user needs mentoring.\n\n<example>\nContext: a new hire\nuser: "How does ingestion work?"\nassistant: "I will explain."\n<commentary>\nNew hire.\n</commentary>\n</example>\n\n<example>\nuser: "And relays?"\nassistant: "I will explain."\n</example>\n---\n');
  assert.deepEqual(prose.problems.map((q) => `${q.code}@${q.line}`), ['yaml-syntax@5']);
  assert.match(prose.problems[0].message, /^Indent this line under the value it belongs to \(or take it out of the frontmatter\): at column 0 YAML reads it as a new key, and it is text; YAML syntax error: /);
  // Mistakes that leave the document open are each reported, as are duplicate keys.
  const two = parseSkillMd('---\nname: s\ndescription: d\nallowed-tools: [a] b\nmodel: [x] y\n---\n');
  assert.deepEqual(two.problems.map((q) => `${q.code}@${q.line}`), ['yaml-syntax@4', 'yaml-syntax@5']);
  // (A duplicate key after them: kept as well.)
  const dup = parseSkillMd('---\nname: s\ndescription: d\nallowed-tools: [a] b\nmodel: [x] y\nname: t\n---\n');
  assert.deepEqual(dup.problems.map((q) => `${q.code}@${q.line}`), ['yaml-syntax@4', 'yaml-syntax@5', 'yaml-syntax@6']);
  assert.match(dup.problems[2].message, /unique/);
  const three = parseSkillMd('---\nname: s3\nname: s3\ndescription: d\nallowed-tools: [a] b\nmodel: x: y\n---\n');
  assert.deepEqual(three.problems.map((q) => `${q.code}@${q.line}`), ['yaml-syntax@3', 'yaml-syntax@5', 'yaml-syntax@6']);
});

test('flowThenText: a flow list or map followed by more text on the line', () => {
  assert.equal(flowThenText('[to-branch] [from-branch]'), true);
  assert.equal(flowThenText('{a: 1} b'), true);
  assert.equal(flowThenText('[a, [b]] c'), true);
  assert.equal(flowThenText('[message]'), false);
  assert.equal(flowThenText('[a] # a comment'), false);
  assert.equal(flowThenText('["x"] [y]'), false); // quotes: not the simple shape
  assert.equal(flowThenText('[unclosed'), false);
  assert.equal(flowThenText('plain [a] [b]'), false);
});

test('a quoted value with `: ` parses and gets no hint', () => {
  const p = parseSkillMd('---\nname: my-skill\ndescription: "Use this when: the user asks"\n---\n');
  assert.deepEqual(p.problems, []);
  assert.equal(p.data?.description, 'Use this when: the user asks');
  assert.deepEqual(rangeOf(p.keys[1].valueRange!), r(3, 14, 3, 44));
});

test('a yaml error without `: ` in the value has no quote hint', () => {
  const p = parseSkillMd('---\nname: [unclosed\ndescription: x\n---\n');
  assert.ok(p.problems.length >= 1);
  for (const x of p.problems) {
    assert.equal(x.code, 'yaml-syntax');
    assert.ok(x.line >= 2 && x.line <= 3, `line ${x.line}`);
    assert.doesNotMatch(x.message, /quote/i);
    assert.match(x.message, /^Fix the YAML: YAML syntax error: /);
  }
  assert.equal(p.data, undefined);
});

test('a value starting with a backtick is a yaml error that suggests quoting', () => {
  const p = parseSkillMd('---\nname: x\ndescription: `code` here\n---\n');
  assert.deepEqual(summary(p.problems), ['yaml-syntax@3:14-3:25']);
  assert.match(p.problems[0].message, /^Quote the description: .*reserved character `/);
});

test('tabs as indentation are a yaml error at the tab', () => {
  const p = parseSkillMd('---\nmetadata:\n\tauthor: me\n---\n');
  assert.deepEqual(summary(p.problems), ['yaml-syntax@3:1-3:12']);
  assert.match(p.problems[0].message, /tab/i);
});

test('duplicate keys are a yaml error on the second key', () => {
  const p = parseSkillMd('---\nname: a\nname: b\n---\n');
  assert.deepEqual(summary(p.problems), ['yaml-syntax@3:1-3:8']);
  assert.match(p.problems[0].message, /unique/);
});

test('CRLF yaml error positions are still exact', () => {
  const p = parseSkillMd('---\r\nname: x\r\ndescription: a: b\r\n---\r\n');
  assert.deepEqual(summary(p.problems), ['yaml-syntax@3:14-3:18']);
});

test('a sequence or a scalar frontmatter is frontmatter-not-mapping at the content', () => {
  const seq = parseSkillMd('---\n- a\n- b\n---\n');
  assert.deepEqual(summary(seq.problems), ['frontmatter-not-mapping@2:1-3:4']);
  assert.equal(seq.data, undefined);
  const scalar = parseSkillMd('---\njust text\n---\n');
  assert.deepEqual(summary(scalar.problems), ['frontmatter-not-mapping@2:1-2:10']);
});

test('block scalars: value range from the indicator to the last character', () => {
  const p = parseSkillMd('---\nname: x\ndescription: |\n  line one\n  line two\n\nlicense: MIT\n---\n');
  assert.deepEqual(p.problems, []);
  assert.equal(p.data?.description, 'line one\nline two\n');
  assert.deepEqual(rangeOf(p.keys[1].valueRange!), r(3, 14, 5, 11));
  assert.deepEqual(rangeOf(p.keys[2].keyRange), r(7, 1, 7, 8));
});

test('a key without a value has no valueRange and a null value', () => {
  const p = parseSkillMd('---\nname:\ndescription: d\n---\n');
  assert.equal(p.keys[0].key, 'name');
  assert.equal(p.keys[0].value, null);
  assert.equal(p.keys[0].valueRange, undefined);
  assert.deepEqual(rangeOf(p.keys[0].keyRange), r(2, 1, 2, 5));
});

test('lists and maps keep their JS shape and ranges', () => {
  const p = parseSkillMd('---\nallowed-tools:\n  - Read\n  - Grep\nmetadata: {author: me}\n---\n');
  assert.deepEqual(p.data, { 'allowed-tools': ['Read', 'Grep'], metadata: { author: 'me' } });
  assert.deepEqual(rangeOf(p.keys[0].valueRange!), r(3, 3, 4, 9));
  assert.deepEqual(rangeOf(p.keys[1].valueRange!), r(5, 11, 5, 23));
});

test('a `__proto__` key is stored as data, not as the prototype', () => {
  const p = parseSkillMd('---\n__proto__: {polluted: true}\nname: x\n---\n');
  assert.deepEqual(p.problems, []);
  assert.equal(Object.getPrototypeOf(p.data), Object.prototype);
  assert.deepEqual(Object.keys(p.data!), ['__proto__', 'name']);
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
});

test('an unresolved alias is a yaml-syntax problem on the value, not a throw', () => {
  const p = parseSkillMd('---\nname: *nothing\n---\n');
  assert.deepEqual(summary(p.problems), ['yaml-syntax@2:7-2:15']);
  assert.equal(p.data, undefined);
});

test('an alias bomb is refused with a yaml-syntax problem (few aliases) or a frontmatter-limits problem (many)', () => {
  const bomb = (levels: number, width: number) => {
    const lines = [`a: &a [${Array(10).fill('"x"').join(',')}]`];
    for (let i = 0; i < levels; i++) {
      const prev = String.fromCharCode(97 + i);
      const next = String.fromCharCode(98 + i);
      lines.push(`${next}: &${next} [${Array(width).fill(`*${prev}`).join(',')}]`);
    }
    return parseSkillMd(`---\n${lines.join('\n')}\n---\n`);
  };
  const few = bomb(3, 6);
  assert.ok(few.problems.some((x) => x.code === 'yaml-syntax' && /alias/i.test(x.message)), JSON.stringify(few.problems));
  assert.equal(few.data, undefined);
  const many = bomb(8, 10);
  assert.deepEqual(many.problems.map((x) => x.code), ['frontmatter-limits'], JSON.stringify(many.problems));
  assert.equal(many.data, undefined);
});

test('unicode keys and values: columns are UTF-16 code units like VS Code', () => {
  const p = parseSkillMd('---\ndescription: héllo 😀 wörld\nname: x\n---\n');
  // "héllo 😀 wörld" is 13 code points but 14 UTF-16 code units (the emoji is a surrogate pair).
  assert.deepEqual(rangeOf(p.keys[0].valueRange!), r(2, 14, 2, 28));
  assert.deepEqual(rangeOf(p.keys[1].keyRange), r(3, 1, 3, 5));
});

test('a body that contains more `---` lines is kept whole', () => {
  const p = parseSkillMd('---\nname: x\n---\nA\n---\nB\n');
  assert.equal(p.body, 'A\n---\nB\n');
  assert.equal(p.bodyStartLine, 4);
});

test('a line starting with `---` inside the frontmatter (not a fence) keeps exact positions', () => {
  const p = parseSkillMd('---\nname: x\n--- extra\ndescription: y\n---\n');
  assert.deepEqual(p.problems.map((x) => `${x.code}@${x.line}:${x.column}`), ['yaml-syntax@3:1']);
  assert.deepEqual(rangeOf(p.keys[0].valueRange!), r(2, 7, 2, 8));
});

test('`---js` is not a frontmatter fence, so no JavaScript engine ever runs', () => {
  const p = parseSkillMd('---js\n({ name: (() => { throw new Error("ran") })() })\n---\n');
  assert.deepEqual(summary(p.problems), ['frontmatter-missing@1:1-1:6']);
});

test('an error found at the end of the YAML (unclosed quote) is shown on the last frontmatter line, not on the fence', () => {
  const p = parseSkillMd('---\nname: x\ndescription: "unclosed\n\n---\nBody\n');
  assert.deepEqual(summary(p.problems), ['yaml-syntax@3:1-3:23']);
  assert.match(p.problems[0].message, /missing closing "quote/);
});

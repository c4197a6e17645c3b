// Reference rules case by case, in the style of other validators' suites (one shape per case, positive and negative):
// what the Markdown extractor takes as a reference, and how validation reports it.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as nodeFs from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import { nodeFileSystem } from '../../../../src/core/base/fs';
import { extractReferences } from '../../../../src/core/references/markdown';
import { validateSkillMd } from '../../../../src/core/validation/validateSkill';
import { severityFor } from '../../../../src/core/base/rules';
import { skill, summary } from '../../helpers/validation';

/** `kind:target@line:column`, with ` (tentative)` for a mention that counts only if the file exists. */
function refs(body: string): string[] {
  return extractReferences(body, 1).map((c) => `${c.kind}:${c.target}@${c.range.line}:${c.range.column}${c.tentative ? ' (tentative)' : ''}`);
}

test('fenced code: ``` and ~~~ with info strings, longer fences, unclosed fences: nothing inside counts', () => {
  assert.deepEqual(refs("```python\nrxn = '[C:1](=[O:2])[OH:3]>>[C:1](=[O:2])[Cl:3]'\n```\nSee [g](references/g.md)."), ['link:references/g.md@4:9']);
  assert.deepEqual(refs('~~~markdown\n## Links\n- [docs](url)\n- [api](references/api.md)\n~~~\nscripts/after.py'), ['path:scripts/after.py@6:1']);
  assert.deepEqual(refs('````md\n```\n| [0001](0001-x.md) |\n```\n````\nok'), []);
  assert.deepEqual(refs('text\n```\n[a](references/a.md)\nscripts/b.py\n'), []);
});

test('fenced code inside list items, indented with the item', () => {
  assert.deepEqual(refs('1. Run it:\n   ```bash\n   python scripts/x.py\n   ```\n2. Then read `references/y.md`'), ['path:references/y.md@5:15']);
});

test('indented code blocks: 4 columns after a blank line; not list continuation or lazy lines', () => {
  assert.deepEqual(refs('Intro\n\n    cat references/code.md\n\nAfter references/prose.md'), ['path:references/prose.md@5:7']);
  assert.deepEqual(refs('- item\n\n    references/in-item.md\n'), ['path:references/in-item.md@3:5']);
  assert.deepEqual(refs('- item\n\n        references/code-in-item.md\n'), []);
  assert.deepEqual(refs('A paragraph\n    continued with references/lazy.md'), ['path:references/lazy.md@2:20']);
  assert.deepEqual(refs('\tscripts/tab-code.py\n'), []);
});

test('HTML comments, as blocks and inline', () => {
  assert.deepEqual(refs('<!--\nreferences/hidden.md\n-->\nreferences/shown.md'), ['path:references/shown.md@4:1']);
  assert.deepEqual(refs('See <!-- references/hidden.md --> references/shown.md'), ['path:references/shown.md@1:35']);
});

test('link reference definitions count; a footnote is no definition (its text is prose)', () => {
  assert.deepEqual(refs('[guide]: references/guide.md "Guide"\n[^1]: GitHub Blog. (2022).\n[^2]: references/note.md'), ['link:references/guide.md@1:10', 'path:references/note.md@3:7']);
});

test('inline code: a path in backticks in prose is a reference; a link written in code is not', () => {
  assert.deepEqual(refs('See `references/api.md` and `[text](references/filename.md)`'), ['path:references/api.md@1:6']);
  assert.deepEqual(refs('Link [`references/a.md`](references/a.md)'), ['link:references/a.md@1:26']);
});

test('placeholders are not references: (url), (path), <…>, path/to/, filename, script_name, your-…', () => {
  assert.deepEqual(refs('[docs](url) [x](path) [y](<path>) [z](path/to/file.md) [w](references/filename.md)'), ['link:url@1:8 (tentative)', 'link:path@1:17 (tentative)', 'link:path@1:28 (tentative)']);
  assert.deepEqual(refs('Run `python scripts/script_name.py --help` or `scripts/your-script.py` or <references/x.md>'), ['path:references/x.md@1:76']);
});

test('command-line flags are not references', () => {
  assert.deepEqual(refs('Use `fuzz -dict=../dictionary.dict` and `--out=../out/report.md` or -o=scripts/x.py'), []);
});

test('URLs are not references, nor paths inside them', () => {
  assert.deepEqual(refs('Visit https://github.com/o/r/blob/main/scripts/x.py or www.example.com/references/y.md'), []);
});

test('prose: examples, prohibitions, hypothetical files and folders are tentative', () => {
  assert.deepEqual(refs('Never run `./scripts/deploy.sh` directly.'), ['path:./scripts/deploy.sh@1:12 (tentative)']);
  assert.deepEqual(refs('Put files under assets/code and do not edit references/generated.md'), ['path:assets/code@1:17 (tentative)', 'path:references/generated.md@1:45 (tentative)']);
  assert.deepEqual(refs('- **Example**: `scripts/rotate_pdf.py` for PDF rotation\n2. A `references/schema.md` file would help'), [
    'path:scripts/rotate_pdf.py@1:17 (tentative)', 'path:references/schema.md@2:7 (tentative)',
  ]);
  assert.deepEqual(refs('Open the type file (e.g., `references/flowchart.md`). See `references/api.md`. For detailed examples, load `references/ex.md`.'), [
    'path:references/flowchart.md@1:28 (tentative)', 'path:references/api.md@1:60', 'path:references/ex.md@1:109',
  ]);
  // A known folder and a name without extension opening inline code is a command: a reference.
  assert.deepEqual(refs('Run `scripts/review-package PLAN BASE HEAD`.'), ['path:scripts/review-package@1:6']);
});

test('backslash paths are candidates (validation says they are not portable); escapes, drives and regexes are not', () => {
  assert.deepEqual(refs('Read references\\guide.md, `..\\shared\\x.md`, [l](scripts\\run.py)'), [
    // One that climbs out (`..\\`) is tentative: a reference only where it exists (traversal payloads).
    'path:references\\guide.md@1:6', 'path:..\\shared\\x.md@1:28 (tentative)', 'link:scripts\\run.py@1:49',
  ]);
  assert.deepEqual(refs('C:\\Users\\me\\x.md and `\\d+\\.md` and $HOME\\x.md and docs\\x.md'), []);
});

/** A repository (`.git`) with a plugin (`.claude-plugin/plugin.json`) whose skill `alpha` has references/a.md. */
function pluginRepo(): { tmp: string; plugin: string; alpha: string } {
  const tmp = nodeFs.mkdtempSync(nodePath.join(os.tmpdir(), 'skillflow-md-'));
  const repo = nodePath.join(tmp, 'repo');
  const plugin = nodePath.join(repo, 'plugins', 'p');
  const alpha = nodePath.join(plugin, 'skills', 'alpha');
  for (const f of ['.git/HEAD', 'README.md', 'plugins/p/.claude-plugin/plugin.json', 'plugins/p/README.md', 'plugins/p/references/shared.md', 'plugins/p/skills/alpha/references/a.md']) {
    nodeFs.mkdirSync(nodePath.dirname(nodePath.join(repo, f)), { recursive: true });
    nodeFs.writeFileSync(nodePath.join(repo, f), f.endsWith('.json') ? '{"name":"p"}' : 'x');
  }
  return { tmp, plugin, alpha };
}

function validate(body: string, alpha: string, profile: 'claude-code' | 'spec' | 'upload' = 'claude-code') {
  return validateSkillMd(skill('name: alpha\ndescription: d', body), { profile, folderName: 'alpha', skillDir: alpha, rootDir: nodePath.dirname(alpha) }, nodeFileSystem);
}

test('brace expansions: one candidate per alternative, over the whole expression; never the cut stem', () => {
  assert.deepEqual(refs('| `scripts/docx-extract.{sh,ps1}` | converts |'), ['path:scripts/docx-extract.sh@1:4', 'path:scripts/docx-extract.ps1@1:4']);
  const [sh] = extractReferences('Run scripts/x.{sh,ps1}.', 1);
  assert.equal(sh.range.endColumn - sh.range.column, 'scripts/x.{sh,ps1}'.length);
  assert.deepEqual(refs('references/{intro,usage}.md'), ['path:references/intro.md@1:1', 'path:references/usage.md@1:1']);
  assert.deepEqual(refs('scripts/x.{sh}'), [], 'one alternative: no expansion, no stem');
});

test('globs are patterns, not files: nothing of them is a reference (bold and a closing question mark are no globs)', () => {
  assert.deepEqual(refs('a catalog file (`references/agents/agents-*-rules.md`) or'), []);
  assert.deepEqual(refs('every `scripts/*.py` and references/**/*.md and assets/img?.png and assets/x[0-9].json'), []);
  assert.deepEqual(refs('Read **references/guide.md** first. Did you run scripts/check.py?'), ['path:references/guide.md@1:8', 'path:scripts/check.py@1:49']);
});

test('a quoted path in a code statement is example code; a path alone in inline code still counts', () => {
  assert.deepEqual(refs("Import assets (`import logo from './assets/logo.png'`) so Vite fingerprints them."), ['path:./assets/logo.png@1:35 (tentative)']);
  assert.deepEqual(refs("Open `'assets/logo.png'` and `assets/icon.png`."), ['path:assets/logo.png@1:8', 'path:assets/icon.png@1:31']);
});

test('a heading right above a fenced block titles an example file: its paths are tentative', () => {
  assert.deepEqual(refs('### WinRM Setup Script (scripts/setup-winrm.ps1)\n\n```powershell\nwinrm quickconfig\n```\n'), ['path:scripts/setup-winrm.ps1@1:25 (tentative)']);
  assert.deepEqual(refs('### Setup (scripts/setup.ps1)\n\nRun it first.\n'), ['path:scripts/setup.ps1@1:12'], 'a heading over prose names a file');
  assert.deepEqual(refs('Setup (scripts/setup.ps1)\n```\nx\n```\n'), ['path:scripts/setup.ps1@1:8'], 'prose over a block');
});

test('example and sample file names are examples, and so are the paths listed with them in parentheses', () => {
  assert.deepEqual(refs('- **Allowed**: Relative paths within the skill bundle (`scripts/example.py`, `references/guide.md`)'), [
    'path:scripts/example.py@1:57 (tentative)', 'path:references/guide.md@1:79 (tentative)',
  ]);
  assert.deepEqual(refs('Load assets/sample-data.json, then references/guide.md'), ['path:assets/sample-data.json@1:6 (tentative)', 'path:references/guide.md@1:36']);
  assert.deepEqual(refs('See references/examples.md'), ['path:references/examples.md@1:5 (tentative)']);
});

test('a mention followed by "etc." or by an arrow to another path is an example; an arrow to prose describes a file', () => {
  assert.deepEqual(refs('- Repo has a bootstrap script (`scripts/setup-worktree.sh` etc.) → call it'), ['path:scripts/setup-worktree.sh@1:33 (tentative)']);
  assert.deepEqual(refs('- `./scripts/tool.py` → `.agents/skills/Y/scripts/tool.py` ✅'), ['path:./scripts/tool.py@1:4 (tentative)']);
  assert.deepEqual(refs('- `../../templates/file.md` -> `plugins/X/templates/file.md` (outside skill)'), ['path:../../templates/file.md@1:4 (tentative)', 'path:plugins/X/templates/file.md@1:33']);
  assert.deepEqual(refs('- `scripts/build.py` → builds the site; scripts/etcd.sh starts etcd'), ['path:scripts/build.py@1:4', 'path:scripts/etcd.sh@1:41']);
});

test('plugin layouts: a path that exists relative to the plugin root resolves there', () => {
  const { tmp, plugin, alpha } = pluginRepo();
  try {
    const res = validate('See `references/shared.md` at the plugin root, [a](references/a.md) and `references/none.md`.\n', alpha);
    assert.deepEqual(summary(res.problems), ['reference-missing@5:74-5:92']);
    assert.deepEqual(res.references.map((r) => [r.target, r.exists, r.resolvedPath]), [
      ['references/shared.md', true, nodePath.join(plugin, 'references', 'shared.md')],
      ['references/a.md', true, nodePath.join(alpha, 'references', 'a.md')],
      ['references/none.md', false, nodePath.join(alpha, 'references', 'none.md')],
    ]);
  } finally {
    nodeFs.rmSync(tmp, { recursive: true, force: true });
  }
});

test('reference-outside: the plugin README up the tree is a warning (error in upload); out of the repository, an error', () => {
  const { tmp, alpha } = pluginRepo();
  try {
    nodeFs.writeFileSync(nodePath.join(tmp, 'secret.md'), 's');
    for (const profile of ['claude-code', 'spec', 'upload'] as const) {
      const res = validate('[README](../../README.md) and [s](../../../../../secret.md)\n', alpha, profile);
      assert.deepEqual(summary(res.problems), ['reference-outside@5:10-5:25', 'reference-outside@5:35-5:59'], profile);
      assert.deepEqual(res.problems.map((p) => p.severity), [profile === 'upload' ? 'error' : 'warning', 'error'], profile);
    }
    // Up the tree inside the repository but missing: what matters is that the file is not there.
    assert.deepEqual(summary(validate('[x](../../tools/none.md)\n', alpha).problems), ['reference-missing@5:5-5:24']);
  } finally {
    nodeFs.rmSync(tmp, { recursive: true, force: true });
  }
});

test('tentative mentions are references when the file exists and are never reported missing', () => {
  const { tmp, alpha } = pluginRepo();
  try {
    const res = validate('e.g. `references/a.md` or `references/nope.md`; never run `scripts/gone.sh`; put it under assets/code.\n', alpha);
    assert.deepEqual(res.problems, []);
    assert.deepEqual(res.references.map((r) => r.target), ['references/a.md']);
  } finally {
    nodeFs.rmSync(tmp, { recursive: true, force: true });
  }
});

test('reference-backslash: a warning (error in upload) at the path, which still resolves', () => {
  const { tmp, alpha } = pluginRepo();
  try {
    for (const profile of ['claude-code', 'spec', 'upload'] as const) {
      const res = validate('See [a](references\\a.md) and `references\\b.md`\n', alpha, profile);
      assert.deepEqual(summary(res.problems), ['reference-backslash@5:9-5:24', 'reference-backslash@5:31-5:46', 'reference-missing@5:31-5:46'], profile);
      assert.equal(res.problems[0].severity, profile === 'upload' ? 'error' : 'warning');
      assert.match(res.problems[0].message, /write 'references\/a\.md'/);
      assert.equal(res.references[0].exists, true);
    }
  } finally {
    nodeFs.rmSync(tmp, { recursive: true, force: true });
  }
});

test('a backslash path that climbs out of the skill counts only where it exists (a traversal payload is no reference)', () => {
  const { tmp, alpha } = pluginRepo();
  try {
    // davila7/claude-code-templates, file-path-traversal: a table of payloads.
    const payload = validate('| `../../../etc/passwd` | Linux |\n| `..\\..\\..\\..\\windows\\win.ini` | Windows INI file |\n', alpha);
    assert.deepEqual(summary(payload.problems), []);
    // One that exists is still a reference, and still written the Windows way.
    const real = validate('See `..\\..\\README.md` and `references\\gone.md`.\n', alpha);
    assert.deepEqual(summary(real.problems), ['reference-backslash@5:6-5:21', 'reference-outside@5:6-5:21', 'reference-backslash@5:28-5:46', 'reference-missing@5:28-5:46']);
  } finally {
    nodeFs.rmSync(tmp, { recursive: true, force: true });
  }
});

test('the rule table gives reference-outside its milder in-repository severities', () => {
  assert.equal(severityFor('reference-outside', 'claude-code'), 'error');
  assert.equal(severityFor('reference-outside', 'claude-code', 'in-repository'), 'warning');
  assert.equal(severityFor('reference-outside', 'spec', 'in-repository'), 'warning');
  assert.equal(severityFor('reference-outside', 'upload', 'in-repository'), 'error');
  assert.equal(severityFor('reference-missing', 'claude-code', 'no-such-variant'), 'warning');
});

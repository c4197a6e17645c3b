// Claude Code fidelity, round two (issue 24): each case runs the CLI and cites the line of Claude Code's documents
// (ericbuess/claude-code-docs, docs/claude-code-model.md) it rests on.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { main } from '../../../../src/cli/main';
import { nodeFileSystem } from '../../../../src/core/base/fs';
import { removeTree, skillMd, tempTree } from '../../helpers/tempTree';

async function run(argv: string[], cwd: string, opts: { home?: string; env?: Record<string, string> } = {}) {
  let out = '';
  let err = '';
  const code = await main({ argv, cwd, fs: nodeFileSystem, env: opts.env ?? {}, home: opts.home, managedDir: null, out: (t) => { out += t; }, err: (t) => { err += t; } });
  return { code, out, err };
}

interface ValidateJson {
  skills: Array<{ path: string; problems: Array<{ code: string; severity: string; message: string }> }>;
  agents: Array<{ path: string; name: string; problems: Array<{ code: string; severity: string; message: string }> }>;
  summary: { errors: number; warnings: number; agents: number };
}
interface ListingJson { entries: Array<{ invocation: string; chars: number; shown: string }> }

const codesOf = (j: ValidateJson, file: string) => j.skills.find((s) => s.path.endsWith(file))?.problems.map((p) => `${p.code}:${p.severity}`);

test('an unquoted `: ` in a description: loads and is listed in claude-code (a warning), an error under spec and upload', async () => {
  // changelog 2.1.69: "Fixed skill descriptions with colons (e.g., "Triggers include: X, Y, Z") failing to load from
  // SKILL.md frontmatter".
  const ws = tempTree({
    '.claude/skills/ask/SKILL.md': '---\nname: ask\ndescription: Triggers include: X, Y, Z\n---\n\n# Ask\n',
    '.claude/commands/tell.md': '---\ndescription: Use when: told\n---\nTell.\n',
    '.claude/agents/helper.md': '---\nname: helper\ndescription: Use when: helping\n---\nHelp.\n',
  });
  try {
    const cc = JSON.parse((await run(['validate', '.', '--format', 'json'], ws)).out) as ValidateJson;
    assert.deepEqual(codesOf(cc, 'ask/SKILL.md'), ['yaml-syntax:warning']);
    assert.match(cc.skills.find((s) => s.path.endsWith('ask/SKILL.md'))!.problems[0].message, /Claude Code reads it as written, but strict YAML readers \(the Agent Skills spec, claude\.ai uploads\) refuse it$/);
    // An agent or a command is neither uploaded nor read by the Agent Skills spec: the message does not say so.
    const others = [cc.skills.find((s) => s.path.endsWith('tell.md'))!.problems, cc.agents[0].problems].map((ps) => ps.map((p) => `${p.code}:${p.severity} ${/but (.*)$/.exec(p.message)?.[1]}`));
    assert.deepEqual(others, [['yaml-syntax:warning strict YAML readers refuse it'], ['yaml-syntax:warning strict YAML readers refuse it']]);
    for (const profile of ['spec', 'upload']) {
      const r = await run(['validate', '.', '--format', 'json', '--profile', profile], ws);
      assert.equal(r.code, 1, profile);
      assert.deepEqual(codesOf(JSON.parse(r.out) as ValidateJson, 'ask/SKILL.md'), ['yaml-syntax:error'], profile);
    }
    const listing = JSON.parse((await run(['listing', '--format', 'json'], ws)).out) as ListingJson;
    assert.deepEqual(listing.entries.filter((e) => e.invocation === '/ask').map((e) => [e.invocation, e.shown, e.chars]), [['/ask', 'full', '- ask: Triggers include: X, Y, Z\n'.length]]);
  } finally {
    removeTree(ws);
  }
});

test('a bare number as name or description is read as its text in claude-code (no error); spec still wants a string', async () => {
  // changelog 2.1.47: "Fixed crash when a skill's `name` or `description` in SKILL.md frontmatter is a bare number (e.g.,
  // `name: 3000`) — the value is now properly coerced to a string".
  const ws = tempTree({ '.claude/skills/3000/SKILL.md': '---\nname: 3000\ndescription: 8080\n---\n\n# Port\n' });
  try {
    const r = await run(['validate', '.', '--format', 'json'], ws);
    assert.equal(r.code, 0, r.out);
    assert.deepEqual(codesOf(JSON.parse(r.out) as ValidateJson, '3000/SKILL.md'), []);
    const listing = JSON.parse((await run(['listing', '--format', 'json'], ws)).out) as ListingJson;
    assert.deepEqual(listing.entries.map((e) => [e.invocation, e.shown, e.chars]), [['/3000', 'full', '- 3000: 8080\n'.length]]);
    const spec = JSON.parse((await run(['validate', '.', '--format', 'json', '--profile', 'spec'], ws)).out) as ValidateJson;
    assert.deepEqual(codesOf(spec, '3000/SKILL.md'), ['name-type:error', 'description-type:error']);
  } finally {
    removeTree(ws);
  }
});

test('agents: README.md without frontmatter is documentation; a name with ":" or a leading "-" is an error; any /model value is valid', async () => {
  // docs/sub-agents.md, "Subagent files Claude Code skips": "**No `name`**: Claude Code treats the file as documentation
  // kept beside your agents." / "**A `name` that starts with `-` or contains `:`**: Claude Code skips the file".
  // docs/sub-agents.md, `model`: "`sonnet`, `opus`, `haiku`, `fable`, a full model ID (for example, `claude-opus-5`), or `inherit`".
  const ws = tempTree({
    '.claude/skills/build/SKILL.md': skillMd('build'),
    '.claude/agents/README.md': '# Agents\n\nOne file per agent; see each file.\n',
    '.claude/agents/writer.md': '---\nname: writer\ndescription: Writes.\nmodel: fable\n---\nWrite.\n',
    '.claude/agents/planner.md': '---\nname: planner\ndescription: Plans.\nmodel: opusplan\n---\nPlan.\n',
    '.claude/agents/scoped.md': '---\nname: team:reviewer\ndescription: Reviews.\n---\nReview.\n',
    '.claude/agents/dash.md': '---\nname: "-reviewer"\ndescription: Reviews.\nmodel: sonet\n---\nReview.\n',
  });
  try {
    const r = await run(['validate', '.', '--format', 'json'], ws);
    const j = JSON.parse(r.out) as ValidateJson;
    assert.equal(r.code, 1);
    const agents = j.agents.map((a) => [a.path.replace(/^.*\.claude\/agents\//, ''), a.problems.map((p) => `${p.code}:${p.severity}`)]);
    assert.deepEqual(agents.sort(), [
      ['dash.md', ['agent-name-invalid:error', 'model-unknown:warning']],
      ['planner.md', []],
      ['scoped.md', ['agent-name-invalid:error']],
      ['writer.md', []],
    ]);
    assert.equal(j.summary.agents, 4, 'README.md is no agent');
  } finally {
    removeTree(ws);
  }
});

test('model: a typo or another vendor\'s model is a warning (model-unknown) in a skill; Claude ids and gateway ids are not', async () => {
  // docs/skills.md, `model`: "Accepts the same values as `/model`"; docs/model-config.md lists the aliases and Claude
  // model names; anything else reaches the provider as written.
  const ws = tempTree({
    '.claude/skills/typo/SKILL.md': '---\nname: typo\ndescription: d\nmodel: sonet\n---\n',
    '.claude/skills/gpt/SKILL.md': '---\nname: gpt\ndescription: d\nmodel: gpt-4\n---\n',
    '.claude/skills/bedrock/SKILL.md': '---\nname: bedrock\ndescription: d\nmodel: us.anthropic.claude-sonnet-4-5-20250929-v1:0\n---\n',
    '.claude/skills/alias/SKILL.md': '---\nname: alias\ndescription: d\nmodel: opus[1m]\n---\n',
  });
  try {
    const j = JSON.parse((await run(['validate', '.', '--format', 'json'], ws)).out) as ValidateJson;
    assert.deepEqual(codesOf(j, 'typo/SKILL.md'), ['model-unknown:warning']);
    assert.match(j.skills.find((s) => s.path.endsWith('typo/SKILL.md'))!.problems[0].message, /did you mean 'sonnet'\?/);
    assert.deepEqual(codesOf(j, 'gpt/SKILL.md'), ['model-unknown:warning']);
    assert.deepEqual(codesOf(j, 'bedrock/SKILL.md'), []);
    assert.deepEqual(codesOf(j, 'alias/SKILL.md'), []);
    const spec = JSON.parse((await run(['validate', '.', '--format', 'json', '--profile', 'spec'], ws)).out) as ValidateJson;
    assert.ok(spec.skills.every((s) => s.problems.every((p) => p.code !== 'model-unknown')), 'claude-code only');
  } finally {
    removeTree(ws);
  }
});

test('a flat .claude/skills/deploy.md is reported as never loaded (skill-not-loaded); a README or a note without frontmatter is not', async () => {
  // docs/debug-your-config.md: "Skill doesn't appear in `/skills` | Skill file is at `.claude/skills/name.md` instead of in
  // a folder | Use a folder with `SKILL.md` inside".
  const ws = tempTree({
    '.claude/skills/deploy.md': '---\nname: deploy\ndescription: Deploys the app.\n---\nDeploy.\n',
    '.claude/skills/README.md': '---\ntitle: Our skills\n---\nOne folder per skill.\n',
    '.claude/skills/notes.md': 'Ideas for skills.\n',
    '.claude/skills/ok/SKILL.md': skillMd('ok'),
  });
  try {
    const r = await run(['validate', '.', '--format', 'json'], ws);
    assert.equal(r.code, 1);
    const j = JSON.parse(r.out) as ValidateJson;
    assert.deepEqual(j.skills.map((s) => [s.path, s.problems.map((p) => `${p.code}:${p.severity}`)]), [
      ['.claude/skills/deploy.md', ['skill-not-loaded:error']],
      ['.claude/skills/ok/SKILL.md', []],
    ]);
    assert.match(j.skills[0].problems[0].message, /\.claude\/skills\/deploy\/SKILL\.md/);
    const list = JSON.parse((await run(['list', '--format', 'json'], ws)).out) as { skills: Array<{ path: string; loaded: boolean; invocation: string | null }> };
    assert.deepEqual(list.skills.find((s) => s.path === '.claude/skills/deploy.md'), { ...list.skills.find((s) => s.path === '.claude/skills/deploy.md'), loaded: false, invocation: null });
    assert.equal((await run(['resolve', '/deploy', '--format', 'json'], ws)).code, 1);
  } finally {
    removeTree(ws);
  }
});

test('resolve /x for a skill the user cannot type (user-invocable: false, skillOverrides "off") exits 1 with the reason', async () => {
  // docs/skills.md, `user-invocable`: "Set to `false` … Claude Code hides it from the `/` menu and doesn't run it when you
  // type `/name`". docs/settings-reference.md, skillOverrides: "`"off"`: Claude doesn't see the skill and `/name` is hidden".
  const ws = tempTree({
    '.claude/skills/lore/SKILL.md': '---\nname: lore\ndescription: Background knowledge.\nuser-invocable: false\n---\n',
    '.claude/skills/gone/SKILL.md': skillMd('gone'),
    '.claude/skills/ok/SKILL.md': skillMd('ok'),
    '.claude/settings.json': JSON.stringify({ skillOverrides: { gone: 'off' } }),
  });
  try {
    const bg = await run(['resolve', '/lore', '--format', 'json'], ws);
    assert.equal(bg.code, 1);
    assert.match((JSON.parse(bg.out) as { note: string }).note, /user-invocable: false/);
    const gone = await run(['resolve', '/gone'], ws);
    assert.equal(gone.code, 1);
    assert.match(gone.out, /note: `skillOverrides` sets it to "off"/);
    const ok = await run(['resolve', '/ok', '--format', 'json'], ws);
    assert.equal(ok.code, 0);
    assert.equal((JSON.parse(ok.out) as { note?: string }).note, undefined);
  } finally {
    removeTree(ws);
  }
});

test('allowed-tools: `Bash(git:* push)` is a warning (tool-pattern: the colon is literal there); `Bash(git push:*)` is fine', async () => {
  // docs/permissions.md: "The `:*` form is only recognized at the end of a pattern. In a pattern like `Bash(git:* push)`,
  // the colon is treated as a literal character and won't match git commands."
  const ws = tempTree({
    '.claude/skills/push/SKILL.md': '---\nname: push\ndescription: Pushes.\nallowed-tools: Read Bash(git:* push)\n---\n',
    '.claude/skills/fine/SKILL.md': '---\nname: fine\ndescription: Pushes.\nallowed-tools:\n  - Bash(git push:*)\n  - Bash(npm run test:*)\n  - Bash(ls *)\n---\n',
  });
  try {
    const j = JSON.parse((await run(['validate', '.', '--format', 'json'], ws)).out) as ValidateJson;
    assert.deepEqual(codesOf(j, 'push/SKILL.md'), ['tool-pattern:warning']);
    assert.match(j.skills.find((s) => s.path.endsWith('push/SKILL.md'))!.problems[0].message, /^Write 'Bash\(git \* push\)' instead of 'Bash\(git:\* push\)'/);
    assert.deepEqual(codesOf(j, 'fine/SKILL.md'), []);
    const spec = JSON.parse((await run(['validate', '.', '--format', 'json', '--profile', 'spec'], ws)).out) as ValidateJson;
    assert.deepEqual(codesOf(spec, 'push/SKILL.md'), []);
  } finally {
    removeTree(ws);
  }
});

test('a plugin whose plugin.json Claude Code refuses (not JSON, no name, a field of the wrong type) loads none of its skills', async () => {
  // docs/plugins-reference.md: "If you include a manifest, `name` is the only required field"; "Most fields: the plugin
  // fails to load. For example, a `keywords` value that is a string instead of an array is a load error"; "Invalid JSON
  // syntax: Unexpected token } in JSON at position 142". "Claude Code ignores top-level fields it does not recognize."
  const cases: Array<[string, RegExp | undefined]> = [
    ['{"name": "tools", "keywords": "deploy"}', /'keywords' in \.claude-plugin\/plugin\.json must be an array/],
    ['{"name": "tools", "author": "Me"}', /'author' .* must be an object/],
    ['{"name": "tools",}', /not valid JSON/],
    ['{"description": "Tools."}', /has no 'name'/],
    // "All paths must be relative to the plugin root and start with `./`, except that the `skills` field also accepts
    // `"."`" (Path behavior rules); MicrosoftDocs/Agent-Skills issue 64: `"skills": "skills/"` gives "invalid manifest
    // file … Validation errors: skills: Invalid input".
    ['{"name": "tools", "skills": "skills/"}', /'skills' in \.claude-plugin\/plugin\.json has the path "skills\/", which does not start with '\.\/' \(write "\.\/skills\/"\)/],
    ['{"name": "tools", "commands": ["./commands/", "extra/deploy.md"]}', /'commands' .* has the path "extra\/deploy\.md"/],
    ['{"name": "tools", "hooks": "/etc/hooks.json"}', /'hooks' .* has the path "\/etc\/hooks\.json", which does not start with '\.\/': Claude Code refuses/],
    ['{"name": "tools", "keywords": ["deploy"], "author": {"name": "Me"}, "engines": {"vscode": "^1.90.0"}}', undefined],
    ['{"name": "tools", "skills": ["./skills/", "."], "hooks": {"PreToolUse": []}, "mcpServers": "./.mcp.json"}', undefined],
  ];
  for (const [manifest, reason] of cases) {
    const ws = tempTree({
      '.git/HEAD': 'ref: main\n',
      'tools/.claude-plugin/plugin.json': manifest,
      'tools/skills/deploy/SKILL.md': skillMd('deploy'),
    });
    try {
      const r = await run(['validate', '.', '--format', 'json'], ws);
      const j = JSON.parse(r.out) as ValidateJson;
      const list = JSON.parse((await run(['list', '--format', 'json'], ws)).out) as { skills: Array<{ loaded: boolean; invocation: string | null }> };
      if (reason) {
        assert.deepEqual(codesOf(j, 'deploy/SKILL.md'), ['skill-not-loaded:error'], manifest);
        assert.match(j.skills[0].problems[0].message, /the plugin does not load: /);
        assert.match(j.skills[0].problems[0].message, reason);
        assert.deepEqual(list.skills.map((s) => [s.loaded, s.invocation]), [[false, null]], manifest);
      } else {
        assert.deepEqual(codesOf(j, 'deploy/SKILL.md'), [], manifest);
        assert.deepEqual(list.skills.map((s) => [s.loaded, s.invocation]), [[true, '/tools:deploy']], manifest);
      }
    } finally {
      removeTree(ws);
    }
  }
});

test("validate's listing-length honours skillListingMaxDescChars from the settings, as listing does", async () => {
  // docs/settings-reference.md, skillListingMaxDescChars: "number of characters, a positive integer … Default: `1536`";
  // docs/skills.md: "The cap is configurable with `skillListingMaxDescChars`".
  const long = 'Deploys the app. '.repeat(20).trim(); // 339 characters
  const files = {
    '.git/HEAD': 'ref: main\n',
    '.claude/skills/deploy/SKILL.md': `---\nname: deploy\ndescription: ${long}\n---\n`,
    '.claude/skills/big/SKILL.md': `---\nname: big\ndescription: ${'x'.repeat(1600)}\n---\n`,
  };
  const byDefault = tempTree(files);
  const tight = tempTree({ ...files, '.claude/settings.json': '{"skillListingMaxDescChars": 200}' });
  const wide = tempTree({ ...files, '.claude/settings.local.json': '{"skillListingMaxDescChars": 2000}' });
  try {
    const d = JSON.parse((await run(['validate', '.', '--format', 'json'], byDefault)).out) as ValidateJson;
    assert.deepEqual([codesOf(d, 'deploy/SKILL.md'), codesOf(d, 'big/SKILL.md')], [[], ['description-length:warning', 'listing-length:warning']]);
    const t = JSON.parse((await run(['validate', '.', '--format', 'json'], tight)).out) as ValidateJson;
    assert.deepEqual([codesOf(t, 'deploy/SKILL.md'), codesOf(t, 'big/SKILL.md')], [['listing-length:warning'], ['description-length:warning', 'listing-length:warning']]);
    assert.match(t.skills.find((s) => s.path.endsWith('deploy/SKILL.md'))!.problems[0].message, /\(339 characters\) at 200 \(skillListingMaxDescChars/);
    const listing = JSON.parse((await run(['listing', '--format', 'json'], tight)).out) as ListingJson;
    assert.deepEqual(listing.entries.map((e) => e.shown).sort(), ['truncated', 'truncated']);
    const w = JSON.parse((await run(['validate', '.', '--format', 'json'], wide)).out) as ValidateJson;
    assert.deepEqual([codesOf(w, 'deploy/SKILL.md'), codesOf(w, 'big/SKILL.md')], [[], ['description-length:warning']]);
  } finally {
    removeTree(byDefault);
    removeTree(tight);
    removeTree(wide);
  }
});

test('paths: brace groups past the shared 1,000 expansions, or a `[` that opens no bracket expression, match no file (paths-pattern)', async () => {
  // docs/memory.md: "a rule's whole `paths` list shares one budget of 1,000 expanded patterns … Claude Code uses any
  // pattern that would exceed the budget unexpanded, and its literal braces match no files"; "A pattern with a `[` that
  // can't be read as a bracket expression, such as `photos [2024/**`, is invalid: it matches nothing".
  const big = '{a,b,c,d,e,f,g,h,i,j}/{a,b,c,d,e,f,g,h,i,j}/{a,b,c,d,e,f,g,h,i,j}/*.{ts,tsx}'; // 2,000
  const ws = tempTree({
    '.claude/skills/big/SKILL.md': `---\nname: big\ndescription: d\npaths:\n  - "src/**/*.{ts,tsx}"\n  - "${big}"\n---\n`,
    '.claude/skills/bracket/SKILL.md': '---\nname: bracket\ndescription: d\npaths: "photos [2024/**"\n---\n',
    '.claude/skills/fine/SKILL.md': '---\nname: fine\ndescription: d\npaths:\n  - "src/**/*.{ts,tsx}"\n  - "photos \\\\[2024/**"\n  - "[abc]/*.md"\n---\n',
    '.claude/commands/cmd.md': `---\ndescription: d\npaths: "${big}"\n---\nBody\n`,
  });
  try {
    const j = JSON.parse((await run(['validate', '.', '--format', 'json'], ws)).out) as ValidateJson;
    assert.deepEqual(codesOf(j, 'big/SKILL.md'), ['paths-pattern:warning']);
    assert.match(j.skills.find((s) => s.path.endsWith('big/SKILL.md'))!.problems[0].message, /expands to 2000 patterns, past the 1000 .* \(2 used before it\)/);
    assert.deepEqual(codesOf(j, 'bracket/SKILL.md'), ['paths-pattern:warning']);
    assert.deepEqual(codesOf(j, 'fine/SKILL.md'), []);
    // docs/skills.md: Claude Code ignores `paths` in a command file: only that is said there.
    assert.deepEqual(codesOf(j, 'cmd.md'), ['unknown-key:warning']);
  } finally {
    removeTree(ws);
  }
});

test('a workspace plugin that is only a root SKILL.md (no skills/) loads as /<plugin>:<name>, with no name-dir-mismatch', async () => {
  // docs/plugins-reference.md: "If a plugin has no `skills/` directory and no `skills` manifest field, a `SKILL.md` at
  // the plugin root is loaded as a single skill".
  const ws = tempTree({
    'my-plug/.claude-plugin/plugin.json': '{"name":"my-plug"}\n',
    'my-plug/SKILL.md': skillMd('hello', 'Says hello when the user greets.'),
    // With a skills/ folder the root SKILL.md is not the plugin's skill: unchanged.
    'other/.claude-plugin/plugin.json': '{"name":"other"}\n',
    'other/skills/a/SKILL.md': skillMd('a', 'Does a when asked for a.'),
  });
  try {
    const r = await run(['validate', '.', '--format', 'json'], ws);
    assert.equal(r.code, 0, r.out);
    const j = JSON.parse(r.out) as ValidateJson;
    assert.deepEqual(codesOf(j, 'my-plug/SKILL.md'), []);
    const list = await run(['list', '.'], ws);
    assert.match(list.out, /\/my-plug:hello\s+hello\s+plugin:my-plug\s.*\bloaded\b/);
    assert.doesNotMatch(list.out, /not loaded/);
    // Under spec the folder name still counts.
    const spec = JSON.parse((await run(['validate', '.', '--format', 'json', '--profile', 'spec'], ws)).out) as ValidateJson;
    assert.ok(codesOf(spec, 'my-plug/SKILL.md')?.includes('name-dir-mismatch:error'));
  } finally {
    removeTree(ws);
  }
});

test('a marketplace.json Claude Code refuses (not JSON, a required field missing or of the wrong type), or strict: false over a plugin.json with components: its plugins do not load', async () => {
  // docs/plugin-marketplaces.md, "Marketplace schema": `name` string, `owner` object, `plugins` array are required; each
  // entry's `name` string and `source` string|object. "Strict mode": "`false` | The marketplace entry is the entire
  // definition. If the plugin also has a `plugin.json` that declares components, that's a conflict and the plugin fails to load."
  const good = { name: 'mk', owner: { name: 'Me' }, plugins: [{ name: 'tools', source: './plugins/tools' }] };
  const cases: Array<[string, string, string | undefined, RegExp | undefined]> = [
    ['valid', JSON.stringify(good), '{"name":"tools"}', undefined],
    ['not JSON', '{"name": "mk",', '{"name":"tools"}', /marketplace .*marketplace\.json is not valid JSON/],
    ['no owner', JSON.stringify({ ...good, owner: undefined }), '{"name":"tools"}', /has no 'owner' object/],
    ['plugins not an array', JSON.stringify({ ...good, plugins: {} }), '{"name":"tools"}', /has no 'plugins' array/],
    ['entry without source', JSON.stringify({ ...good, plugins: [{ name: 'tools' }] }), '{"name":"tools"}', /plugins\[0\] \('tools'\) has no 'source'/],
    ['strict false, manifest without components', JSON.stringify({ ...good, plugins: [{ ...good.plugins[0], strict: false }] }), '{"name":"tools"}', undefined],
    ['strict false, manifest with skills', JSON.stringify({ ...good, plugins: [{ ...good.plugins[0], strict: false }] }), '{"name":"tools","skills":"./skills/"}', /"strict": false.*declares 'skills'.*fails to load/],
  ];
  for (const [what, marketplace, manifest, reason] of cases) {
    const ws = tempTree({
      '.claude-plugin/marketplace.json': marketplace,
      ...(manifest !== undefined ? { 'plugins/tools/.claude-plugin/plugin.json': manifest } : {}),
      'plugins/tools/skills/lint/SKILL.md': skillMd('lint', 'Lints the code when asked to lint.'),
    });
    try {
      const r = await run(['validate', '.', '--format', 'json'], ws);
      const j = JSON.parse(r.out) as ValidateJson;
      const problems = j.skills.find((s) => s.path.endsWith('lint/SKILL.md'))?.problems ?? [];
      const notLoaded = problems.filter((p) => p.code === 'skill-not-loaded');
      if (reason === undefined) {
        assert.deepEqual(notLoaded, [], what);
        assert.match((await run(['list', '.'], ws)).out, /\/tools:lint .*\bloaded\b/, what);
      } else {
        assert.equal(notLoaded.length, 1, `${what}: ${r.out}`);
        assert.match(notLoaded[0].message, reason, what);
        assert.match((await run(['list', '.'], ws)).out, /not loaded/, what);
      }
    } finally {
      removeTree(ws);
    }
  }
});

test('agents in subfolders of .claude/agents and of a plugin\'s agents are validated; two files with one name are an error', async () => {
  // docs/sub-agents.md: "Claude Code scans `.claude/agents/` and `~/.claude/agents/` recursively, so you can organize
  // definitions into subfolders" / "if two files under the same `.claude/agents/` directory, including its subfolders,
  // declare the same name, Claude Code loads only one of them, chosen by filesystem read order" / "a file at
  // `agents/review/security.md` in plugin `my-plugin` registers as `my-plugin:review:security`".
  const ws = tempTree({
    '.claude/agents/review/security.md': '---\nname: security\ndescription: Reviews security.\nmodel: sonet\n---\nReview.\n',
    '.claude/agents/research/deep/scout.md': '---\nname: scout\ndescription: Scouts.\nskills:\n  - missing-skill\n---\nScout.\n',
    '.claude/agents/review/writer.md': '---\nname: writer\ndescription: Writes.\n---\nWrite.\n',
    '.claude/agents/writer.md': '---\nname: writer\ndescription: Writes too.\n---\nWrite.\n',
    '.claude/agents/.hidden/ghost.md': '---\nname: ghost\ndescription: Hidden.\nmodel: sonet\n---\n',
    'kit/.claude-plugin/plugin.json': '{"name":"kit"}',
    'kit/agents/security.md': '---\nname: security\ndescription: Plugin security.\n---\n',
    'kit/agents/review/security.md': '---\nname: security\ndescription: Plugin review security.\n---\n',
    'kit/agents/review/twin.md': '---\nname: security\ndescription: Same id as review/security.md.\n---\n',
  });
  try {
    const r = await run(['validate', '.', '--format', 'json'], ws);
    const j = JSON.parse(r.out) as ValidateJson;
    const got = j.agents.map((a) => [a.path, a.problems.map((p) => `${p.code}:${p.severity}`)]).sort();
    assert.deepEqual(got, [
      ['.claude/agents/research/deep/scout.md', ['agent-skill-missing:error']],
      ['.claude/agents/review/security.md', ['model-unknown:warning']],
      ['.claude/agents/review/writer.md', ['agent-duplicate-name:error']],
      ['.claude/agents/writer.md', ['agent-duplicate-name:error']],
      ['kit/agents/review/security.md', ['agent-duplicate-name:error']],
      ['kit/agents/review/twin.md', ['agent-duplicate-name:error']],
      ['kit/agents/security.md', []],
    ]);
    const dup = j.agents.find((a) => a.path.endsWith('kit/agents/review/twin.md'))!.problems[0].message;
    assert.match(dup, /'kit:review:security'.*review\/security\.md declares it too/);
    assert.equal(r.code, 1);
    // One agent file in a subfolder, named on the command line.
    const one = JSON.parse((await run(['validate', '.claude/agents/review/security.md', '--format', 'json'], ws)).out) as ValidateJson;
    assert.deepEqual(one.agents.map((a) => [a.name, a.problems.map((p) => p.code)]), [['security', ['model-unknown']]]);
    // An agents folder, one of its subfolders and `.claude` itself, named on the command line: the agents under it.
    for (const [dir, count] of [['.claude/agents/review', 2], ['.claude/agents', 4], ['.claude', 4], ['kit/agents/review', 2]] as const) {
      const sub = JSON.parse((await run(['validate', dir, '--format', 'json'], ws)).out) as ValidateJson;
      assert.equal(sub.summary.agents, count, dir);
      assert.ok(sub.agents.every((a) => a.path.startsWith(`${dir}/`)), dir);
    }
  } finally {
    removeTree(ws);
  }
});

test('agent hooks: a project agent\'s hooks are checked like a skill\'s; a plugin agent\'s hooks, mcpServers and permissionMode are ignored by Claude Code', async () => {
  // docs/sub-agents.md: "`hooks` | Lifecycle hooks scoped to this subagent. Ignored for plugin subagents"; "For security
  // reasons, plugin subagents don't support the `hooks`, `mcpServers`, or `permissionMode` frontmatter fields. These
  // fields are ignored when loading agents from a plugin."
  const hooks = 'hooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n        - type: command\n          command: ./check.sh\n';
  const ws = tempTree({
    '.claude/agents/guard.md': `---\nname: guard\ndescription: Guards.\n${hooks}---\n`,
    '.claude/agents/typo.md': '---\nname: typo\ndescription: Typo.\nhooks:\n  PreToolUs:\n    - hooks:\n        - type: command\n          command: ./x.sh\n---\n',
    '.claude/agents/local.md': '---\nname: local\ndescription: Local.\npermissionMode: plan\n---\n',
    'kit/.claude-plugin/plugin.json': '{"name":"kit"}',
    'kit/agents/planner.md': `---\nname: planner\ndescription: Plans.\npermissionMode: plan\nmcpServers:\n  - github\n${hooks}---\n`,
    'kit/agents/plain.md': '---\nname: plain\ndescription: Plain.\n---\n',
  });
  try {
    const j = JSON.parse((await run(['validate', '.', '--format', 'json'], ws)).out) as ValidateJson;
    const got = Object.fromEntries(j.agents.map((a) => [a.path, a.problems.map((p) => `${p.code}:${p.severity}`)]));
    assert.deepEqual(got, {
      '.claude/agents/guard.md': [],
      '.claude/agents/local.md': [],
      '.claude/agents/typo.md': ['hook-invalid:error'],
      'kit/agents/plain.md': [],
      'kit/agents/planner.md': ['agent-plugin-ignored:error', 'agent-plugin-ignored:error', 'agent-plugin-ignored:error'],
    });
    const planner = j.agents.find((a) => a.path === 'kit/agents/planner.md')!;
    assert.deepEqual(planner.problems.map((p) => /'(\w+)'/.exec(p.message)![1]), ['permissionMode', 'mcpServers', 'hooks']);
  } finally {
    removeTree(ws);
  }
});

test('duplicate-name: two copies of one plugin (a backup folder with the same manifest name) do not clash; two skills of one plugin do', async () => {
  // A plugin is installed once per name (docs/plugins-reference.md, "Plugin installation scopes"); a second folder whose
  // plugin.json gives the same name is a copy (jeremylongshore/claude-code-plugins-plus keeps dated backups of its
  // plugins: 1,710 false duplicate-name errors before).
  const skill = (name: string) => `---\nname: ${name}\ndescription: Does ${name}.\n---\n`;
  const ws = tempTree({
    'plugins/kit/.claude-plugin/plugin.json': '{"name":"kit"}',
    'plugins/kit/skills/audit/SKILL.md': skill('audit'),
    'plugins/kit/skills/audit-v2/SKILL.md': skill('audit'),
    'backups/2025-10-19/kit/.claude-plugin/plugin.json': '{"name":"kit"}',
    'backups/2025-10-19/kit/skills/audit/SKILL.md': skill('audit'),
    'backups/2025-10-19/kit/commands/scan.md': '---\ndescription: Scans.\n---\nScan.\n',
    'plugins/kit/commands/scan.md': '---\ndescription: Scans.\n---\nScan.\n',
    'plugins/kit/skills/deploy/SKILL.md': skill('deploy'),
    'plugins/kit/commands/deploy.md': '---\ndescription: Deploys.\n---\nDeploy.\n',
  });
  try {
    const j = JSON.parse((await run(['validate', '.', '--format', 'json'], ws)).out) as ValidateJson;
    const dups = j.skills.filter((s) => s.problems.some((p) => p.code === 'duplicate-name')).map((s) => s.path).sort();
    assert.deepEqual(dups, ['plugins/kit/skills/audit-v2/SKILL.md', 'plugins/kit/skills/audit/SKILL.md']);
    // Nor is an entry of one copy "shadowed" by the same entry of the other (1,294 such infos in that repository);
    // within one plugin a skill still shadows a command of its name.
    const shadowed = j.skills.filter((s) => s.problems.some((p) => p.code === 'shadowed')).map((s) => s.path).sort();
    assert.deepEqual(shadowed, ['plugins/kit/commands/deploy.md']);
  } finally {
    removeTree(ws);
  }
});

test('a plugin with commands and no skills: its commands are validated and listed, from the workspace, the plugin, its commands folder or one file', async () => {
  // docs/plugins-reference.md, "Plugin directory structure": `commands/` is a component of its own (skills are
  // optional); anthropics/claude-plugins-official has 21 such command files (feature-dev, ralph-loop, …).
  const command = (description: string, more = '') => `---\ndescription: ${description}\n${more}---\n\nDo it.\n`;
  const ws = tempTree({
    'plugins/tools/.claude-plugin/plugin.json': '{"name":"tools"}\n',
    'plugins/tools/commands/ship.md': command('Ship the branch', 'argument-hint: [a] [b]\nmodel: sonnet\n'),
    'plugins/tools/commands/git/pr.md': command('Open a pull request'),
    'plugins/tools/agents/helper.md': '---\nname: helper\ndescription: Helps when asked\n---\n\nHelp.\n',
    '.claude/commands/deploy.md': command('Deploy', 'argument-hint: [env] [tag]\n'),
    '.claude/commands/ops/rollback.md': command('Roll back'),
  });
  try {
    const paths = async (target: string) => {
      const r = await run(['validate', target, '--format', 'json'], ws);
      return (JSON.parse(r.out) as ValidateJson).skills.map((s) => s.path).sort();
    };
    assert.deepEqual(await paths('.'), ['.claude/commands/deploy.md', '.claude/commands/ops/rollback.md', 'plugins/tools/commands/git/pr.md', 'plugins/tools/commands/ship.md']);
    assert.deepEqual(await paths('plugins/tools'), ['plugins/tools/commands/git/pr.md', 'plugins/tools/commands/ship.md']);
    assert.deepEqual(await paths('plugins/tools/commands'), ['plugins/tools/commands/git/pr.md', 'plugins/tools/commands/ship.md']);
    assert.deepEqual(await paths('plugins/tools/commands/git'), ['plugins/tools/commands/git/pr.md']);
    assert.deepEqual(await paths('plugins/tools/commands/ship.md'), ['plugins/tools/commands/ship.md']);
    assert.deepEqual(await paths('.claude/commands'), ['.claude/commands/deploy.md', '.claude/commands/ops/rollback.md']);
    assert.deepEqual(await paths('.claude/commands/ops'), ['.claude/commands/ops/rollback.md']);
    const j = JSON.parse((await run(['validate', 'plugins/tools', '--format', 'json'], ws)).out) as ValidateJson;
    // One YAML mistake, one problem (not one more on `model:`); the agent is checked as before.
    assert.deepEqual(codesOf(j, 'commands/ship.md'), ['yaml-syntax:error']);
    assert.equal(j.summary.agents, 1);
    const list = await run(['list', '.'], ws);
    assert.match(list.out, /\/tools:ship\s+ship\s+plugin:tools\s+command file\b.*\bloaded\b/);
    assert.match(list.out, /\/tools:git:pr\s/);
    // `--fix` quotes a command's value as a SKILL.md's.
    const fixed = await run(['validate', '.', '--fix-dry-run'], ws);
    assert.match(fixed.out, /-argument-hint: \[a\] \[b\]\n\+argument-hint: '\[a\] \[b\]'/);
    assert.match(fixed.out, /-argument-hint: \[env\] \[tag\]\n\+argument-hint: '\[env\] \[tag\]'/);
  } finally {
    removeTree(ws);
  }
});

test('a folder inside skills/ that the plugin manifest lists as a skills folder holds skills, not files too deep', async () => {
  // docs/plugins-reference.md, "Component path fields": `skills` — "Custom skill directories containing
  // `<name>/SKILL.md`. Adds to the default `skills/` scan." (mrgoonie/claudekit-skills: `"skills":
  // ["./skills/document-skills"]` for docx, pdf, pptx and xlsx.)
  const ws = tempTree({
    'plugins/docs/.claude-plugin/plugin.json': '{"name":"docs","skills":["./skills/document-skills"]}\n',
    'plugins/docs/skills/document-skills/docx/SKILL.md': skillMd('docx', 'Edits Word files when asked.'),
    'plugins/docs/skills/document-skills/pdf/SKILL.md': skillMd('pdf', 'Edits PDF files when asked.'),
    'plugins/docs/skills/top/SKILL.md': skillMd('top', 'A skill of the default folder, used when asked.'),
    // Not listed: still too deep.
    'plugins/docs/skills/group/inner/SKILL.md': skillMd('inner', 'Never loaded, used when asked.'),
  });
  try {
    const j = JSON.parse((await run(['validate', '.', '--format', 'json'], ws)).out) as ValidateJson;
    assert.deepEqual(codesOf(j, 'document-skills/docx/SKILL.md'), []);
    assert.deepEqual(codesOf(j, 'document-skills/pdf/SKILL.md'), []);
    assert.deepEqual(codesOf(j, 'skills/group/inner/SKILL.md'), ['skill-not-loaded:error']);
    const list = await run(['list', '.'], ws);
    assert.match(list.out, /\/docs:docx\s+docx\s+plugin:docs\s.*\bloaded\b/);
    assert.match(list.out, /\/docs:pdf\s/);
    assert.match(list.out, /\/docs:top\s/);
  } finally {
    removeTree(ws);
  }
});

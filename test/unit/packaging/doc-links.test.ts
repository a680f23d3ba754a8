/**
 * The docs are part of the product: a newcomer follows README.md's links into docs/user and docs/dev, so a
 * link that points nowhere is a bug. Every relative link and image in README.md, CONTRIBUTING.md,
 * SECURITY.md, CHANGELOG.md and docs/**\/*.md must name a file that exists in the repository, and every
 * `#anchor` a heading of its target (GitHub's slugs: lower case, punctuation dropped, spaces to hyphens,
 * `-1`, `-2` for repeats). The docs also cite nothing outside the repository: no link that climbs out of it,
 * no sibling folder such as `../shared/`, no private research notes, no issue numbers. The same holds for the
 * comments and test names of every tracked file under src/, test/, bench/, scripts/, bin/ and .github/, and
 * of the build and lint configs: a citation names a file of the repository by its path
 * (`docs/dev/ARCHITECTURE.md`) or a public URL. Each check is shown to fail on a broken document written to a
 * temp folder.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../..');
const TOP_DOCS = ['README.md', 'CONTRIBUTING.md', 'SECURITY.md', 'CHANGELOG.md'];

/** The Markdown files checked under `repo`: the top-level docs and every .md below docs/. */
function docFiles(repo: string): string[] {
  const out = TOP_DOCS.filter((f) => fs.existsSync(path.join(repo, f)));
  const walk = (dir: string): void => {
    if (!fs.existsSync(dir)) return;
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.md')) out.push(path.relative(repo, full).split(path.sep).join('/'));
    }
  };
  walk(path.join(repo, 'docs'));
  return out.sort();
}

/** The text outside fenced code blocks and inline code spans, line numbers kept. */
function proseLines(text: string): string[] {
  let fenced = false;
  return text.split('\n').map((line) => {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      return '';
    }
    return fenced ? '' : line.replace(/`[^`]*`/g, '');
  });
}

/** GitHub's heading anchor: lower case, everything but letters, marks, digits, `_`, `-` and spaces dropped. */
export function githubSlug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/[*_`~]/g, (c) => (c === '_' ? '_' : ''));
  return text.trim().toLowerCase().replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
}

/** Every anchor a Markdown file offers, duplicates numbered as GitHub numbers them. */
function anchorsOf(text: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  let fenced = false;
  for (const line of text.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const m = fenced ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const base = githubSlug((m[1] ?? '').replace(/`/g, ''));
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

interface Link {
  readonly file: string;
  readonly line: number;
  readonly target: string;
}

/** Inline links and images (`[text](target)`, `![alt](target)`) in the prose of `file`. */
function linksOf(repo: string, file: string): Link[] {
  const links: Link[] = [];
  proseLines(fs.readFileSync(path.join(repo, file), 'utf8')).forEach((line, i) => {
    for (const m of line.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      if (m[1] !== undefined) links.push({ file, line: i + 1, target: m[1] });
    }
  });
  return links;
}

/** Problems with the relative links of every doc under `repo`, as `file:line: message`. */
function brokenLinks(repo: string): string[] {
  const problems: string[] = [];
  const anchorCache = new Map<string, Set<string>>();
  const anchors = (abs: string): Set<string> => {
    let set = anchorCache.get(abs);
    if (!set) {
      set = anchorsOf(fs.readFileSync(abs, 'utf8'));
      anchorCache.set(abs, set);
    }
    return set;
  };
  for (const file of docFiles(repo)) {
    for (const { line, target } of linksOf(repo, file)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//')) continue; // https:, mailto:
      const where = `${file}:${line}: ${target}`;
      const hash = target.indexOf('#');
      const pathPart = decodeURIComponent(hash === -1 ? target : target.slice(0, hash));
      const anchor = hash === -1 ? null : decodeURIComponent(target.slice(hash + 1));
      const abs = pathPart === '' ? path.join(repo, file) : path.resolve(path.dirname(path.join(repo, file)), pathPart);
      const rel = path.relative(repo, abs);
      if (rel.startsWith('..') || path.isAbsolute(rel)) {
        problems.push(`${where}: points outside the repository`);
        continue;
      }
      if (!fs.existsSync(abs)) {
        problems.push(`${where}: no such file`);
        continue;
      }
      if (anchor !== null && anchor !== '') {
        if (!abs.endsWith('.md') || !fs.statSync(abs).isFile()) {
          problems.push(`${where}: an anchor into a file that is not Markdown`);
        } else if (!anchors(abs).has(anchor)) {
          problems.push(`${where}: no heading with that anchor in ${rel.split(path.sep).join('/')}`);
        }
      }
    }
  }
  return problems;
}

/** Citations of what a reader of the repository cannot open. */
const OUTSIDE_CITATIONS: readonly (readonly [RegExp, string])[] = [
  [/(^|[\s(`'"])\.\.\/shared\//, 'a sibling folder outside the repository (../shared/)'],
  [/\bresearch\/[\w.-]+\.md\b/i, 'a research note outside the repository'],
  [/\bissues?\s+#?\d+\b/i, 'an issue number'],
  [/(^|\s)#\d+\b/, 'an issue number'],
];

/** Lines of the docs under `repo` (code included: a path in backticks is a citation too) citing outside documents. */
function outsideCitations(repo: string): string[] {
  const problems: string[] = [];
  for (const file of docFiles(repo)) {
    fs.readFileSync(path.join(repo, file), 'utf8').split('\n').forEach((line, i) => {
      for (const [pattern, what] of OUTSIDE_CITATIONS) {
        if (pattern.test(line)) problems.push(`${file}:${i + 1}: ${what}: ${line.trim()}`);
      }
    });
  }
  return problems;
}

/** The folders and configs whose tracked files (code, comments, test names, workflows) are checked for outside citations. */
const SOURCE_PATHS = ['src', 'test', 'bench', 'scripts', 'bin', '.github', 'eslint.config.js', 'electron-builder.yml', 'electron.vite.config.ts', 'vitest.config.ts'];
/** This file: it holds the patterns below, and broken examples of them, as data. */
const SELF = path.relative(root, import.meta.filename).split(path.sep).join('/');

/** Citations in source files of what a reader of the repository cannot open, or cannot find by that name. */
const SOURCE_CITATIONS: readonly (readonly [RegExp, string])[] = [
  [/\bissues?\s+#?\d+\b/i, 'an issue number'],
  [/(^|[^\w/.-])research\//, 'a research note outside the repository'],
  [/shared\/research/, 'a research note outside the repository'],
  [/perf-reliability/, 'a research note outside the repository'],
  [/(?<!docs\/dev\/)\b(ARCHITECTURE|TESTING|BENCHMARKS|PACKAGING-AND-SIGNING)\.md\b/, 'a doc of docs/dev named without its path'],
];

/** The tracked files under SOURCE_PATHS of the repository at `repo`, as git lists them. */
function trackedSourceFiles(repo: string): string[] {
  const out = execFileSync('git', ['ls-files', '-z', '--', ...SOURCE_PATHS], { cwd: repo, encoding: 'utf8' });
  return out.split('\0').filter((f) => f !== '');
}

/** Lines of `files` (paths relative to `repo`) citing outside documents, as `file:line: what: text`, once a line. */
function sourceCitations(repo: string, files: readonly string[]): string[] {
  const problems: string[] = [];
  for (const file of files) {
    if (file === SELF) continue;
    const abs = path.join(repo, file);
    if (!fs.existsSync(abs)) continue; // deleted in the work tree, not yet in the index
    const text = fs.readFileSync(abs, 'utf8');
    if (text.includes('\0')) continue; // binary
    text.split('\n').forEach((line, i) => {
      const hit = SOURCE_CITATIONS.find(([pattern]) => pattern.test(line));
      if (hit) problems.push(`${file}:${i + 1}: ${hit[1]}: ${line.trim()}`);
    });
  }
  return problems;
}

describe('the repository docs', () => {
  it('exist: README, CONTRIBUTING, SECURITY, CHANGELOG and the pages under docs/user and docs/dev', () => {
    const files = docFiles(root);
    for (const f of [...TOP_DOCS, 'docs/user/getting-started.md', 'docs/user/troubleshooting.md', 'docs/dev/ARCHITECTURE.md', 'docs/dev/TESTING.md']) {
      expect(files).toContain(f);
    }
    expect(fs.existsSync(path.join(root, 'LICENSE'))).toBe(true);
  });

  it('every relative link and image names a file in the repository, and every #anchor a heading of it', () => {
    expect(brokenLinks(root)).toEqual([]);
  });

  it('cite no document outside the repository (../shared/, research notes, issue numbers)', () => {
    expect(outsideCitations(root)).toEqual([]);
  });

  it('are all a source comment or test name cites: no issue numbers, research notes or docs/dev pages without their path', () => {
    expect(sourceCitations(root, trackedSourceFiles(root))).toEqual([]);
  });

  it('README stays short enough to read in five minutes', () => {
    const lines = fs.readFileSync(path.join(root, 'README.md'), 'utf8').split('\n').length;
    expect(lines).toBeLessThanOrEqual(220);
  });
});

describe('the checks themselves fail on a broken document', () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tingxie-doc-links-'));
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

  const write = (rel: string, text: string): void => {
    fs.mkdirSync(path.dirname(path.join(tmp, rel)), { recursive: true });
    fs.writeFileSync(path.join(tmp, rel), text);
  };
  write('docs/user/a.md', '# Page A\n\n## Keys and paste per OS\n\n## Keys and paste per OS\n\n```\n[not a link](nowhere.md)\n```\n');
  write('docs/screenshots/x.png', 'png');
  write(
    'README.md',
    [
      '# Readme',
      '[good](docs/user/a.md) [good anchor](docs/user/a.md#keys-and-paste-per-os) [repeat](docs/user/a.md#keys-and-paste-per-os-1)',
      '![good image](docs/screenshots/x.png) [self](#readme) [web](https://example.com/missing.md) `[code](gone.md)`',
      '[missing file](docs/user/gone.md)',
      '[missing anchor](docs/user/a.md#no-such-heading)',
      '[outside](../shared/notes.md)',
      'See research/perf-reliability.md and issue 14.',
    ].join('\n'),
  );

  it('GitHub slugs: punctuation dropped, spaces to hyphens, CJK kept', () => {
    expect(githubSlug('Keys and paste per OS')).toBe('keys-and-paste-per-os');
    expect(githubSlug('B8, B9b and B10: where the time goes')).toBe('b8-b9b-and-b10-where-the-time-goes');
    expect(githubSlug('Tingxie 听写')).toBe('tingxie-听写');
    expect(githubSlug('Privacy: what leaves your computer')).toBe('privacy-what-leaves-your-computer');
    expect(githubSlug('[CONTRIBUTING](x.md) › Set-up')).toBe('contributing--set-up');
  });

  it('names each broken link with its file and line, and only those', () => {
    expect(brokenLinks(tmp)).toEqual([
      'README.md:4: docs/user/gone.md: no such file',
      'README.md:5: docs/user/a.md#no-such-heading: no heading with that anchor in docs/user/a.md',
      'README.md:6: ../shared/notes.md: points outside the repository',
    ]);
  });

  it('names a citation of a document outside the repository', () => {
    const found = outsideCitations(tmp);
    expect(found.some((p) => p.startsWith('README.md:6: a sibling folder'))).toBe(true);
    expect(found.some((p) => p.startsWith('README.md:7: a research note'))).toBe(true);
    expect(found.some((p) => p.startsWith('README.md:7: an issue number'))).toBe(true);
  });

  it('names each source line citing outside the repository with its file and line, and only those', () => {
    write(
      'src/main/x.ts',
      [
        '// Fsync before rename (see research/perf-reliability.md B3).',
        "it('refuses the capture window (issue 14, item 8)', () => {});",
        '/** Emulated from shared/research/providers.md. */',
        '// The layer order (ARCHITECTURE.md, convention 11); see also TESTING.md.',
        '// The layer order (docs/dev/ARCHITECTURE.md, convention 11); see docs/dev/TESTING.md, "Knobs".',
        '// https://sqlite.org/atomiccommit.html, https://example.org/research/fsync.html',
      ].join('\n'),
    );
    expect(sourceCitations(tmp, ['src/main/x.ts', SELF])).toEqual([
      'src/main/x.ts:1: a research note outside the repository: // Fsync before rename (see research/perf-reliability.md B3).',
      "src/main/x.ts:2: an issue number: it('refuses the capture window (issue 14, item 8)', () => {});",
      'src/main/x.ts:3: a research note outside the repository: /** Emulated from shared/research/providers.md. */',
      'src/main/x.ts:4: a doc of docs/dev named without its path: // The layer order (ARCHITECTURE.md, convention 11); see also TESTING.md.',
    ]);
  });
});

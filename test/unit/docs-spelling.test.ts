import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

// The docs spell example content type URIs one way, the way `cms demo` creates them
// (https://schemas.example.com/...): the README, docs/*.md and every verb's examples (which
// docs/commands.md is generated from). A reader copying one example into another finds the type.

const ROOT = join(import.meta.dirname, '..', '..');
const files = (dir: string, ending: string): string[] =>
  readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith(ending))
    .map((f) => join(ROOT, dir, f));

describe('docs spelling', () => {
  it('content type URIs of the examples are on schemas.example.com only', () => {
    const sources = [join(ROOT, 'README.md'), ...files('docs', '.md'), ...files('src/commands', '.ts'), ...files('src/ops', '.ts')];
    const found = sources.flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, i) => (/\bschema\.example\.com/.test(line) ? [`${relative(ROOT, file)}:${i + 1}`] : [])),
    );
    expect(found).toEqual([]);
  });
});

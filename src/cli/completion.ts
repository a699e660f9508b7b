import type { Manifest, ManifestCommand, OptionSpec } from './define.js';
import { FORMATS } from '../output/formats.js';

// Shell completion scripts generated from the command tree: commands, options and enum values
// are written into the script; identifiers (hubs, repositories, editions...) come at completion
// time from the hidden `cms __complete <kind>`, which is quick and silent on errors.

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

interface Tree {
  /** path -> child words with their summaries */
  children: Map<string, { word: string; summary: string }[]>;
  /** path -> options (flag words) with descriptions */
  options: Map<string, { words: string[]; description: string; takesValue: boolean }[]>;
  /** "path flag" -> values or @kind */
  values: Map<string, string>;
  /** path -> @kind for the first positional argument */
  args: Map<string, string>;
}

const GLOBAL_OPTIONS: OptionSpec[] = [
  { flags: '--profile <name>', description: 'use a saved profile', complete: 'profiles' },
  { flags: '-o, --output <format>', description: 'output format', choices: FORMATS },
  { flags: '--query <jmespath>', description: 'JMESPath expression' },
  { flags: '--no-color', description: 'disable colour' },
  { flags: '--no-input', description: 'never prompt' },
  { flags: '--debug', description: 'trace requests on stderr' },
  { flags: '--dry-run', description: 'print the request, send nothing' },
  { flags: '-h, --help', description: 'show help' },
];

/** Arguments whose name says what they identify. */
const ARG_KINDS: Record<string, string> = { hub: 'hubs', repo: 'repositories', edition: 'editions', event: 'events', profile: 'profiles' };

function buildTree(manifest: Manifest): Tree {
  const tree: Tree = { children: new Map(), options: new Map(), values: new Map(), args: new Map() };
  const addChild = (path: string, word: string, summary: string) => {
    const list = tree.children.get(path) ?? [];
    if (!list.some((c) => c.word === word)) list.push({ word, summary });
    tree.children.set(path, list);
  };
  const addOptions = (path: string, options: OptionSpec[]) => {
    const list = tree.options.get(path) ?? [];
    for (const o of options) {
      const words = o.flags.split(/[ ,|]+/).filter((w) => w.startsWith('-'));
      const takesValue = /[<[]/.test(o.flags);
      list.push({ words, description: o.description, takesValue });
      const value = o.choices ? o.choices.join(' ') : o.complete ? `@${o.complete}` : null;
      if (value) for (const w of words) tree.values.set(`${path} ${w}`, value);
    }
    tree.options.set(path, list);
  };
  addOptions('', GLOBAL_OPTIONS);
  tree.children.set('', []);
  for (const g of manifest.groups) addChild(g.path.slice(0, -1).join(' '), g.path[g.path.length - 1]!, g.summary);
  for (const c of manifest.commands) {
    if (c.hidden) continue;
    const path = c.path.join(' ');
    addChild(c.path.slice(0, -1).join(' '), c.path[c.path.length - 1]!, c.summary);
    addOptions(path, c.options ?? []);
    const first = c.args?.[0];
    const kind = first ? ARG_KINDS[first.name] : undefined;
    if (first?.choices) tree.args.set(path, first.choices.join(' '));
    else if (kind) tree.args.set(path, `@${kind}`);
  }
  return tree;
}

const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export function completionScript(manifest: Manifest, shell: Shell): string {
  const tree = buildTree(manifest);
  if (shell === 'bash') return bash(tree);
  if (shell === 'zsh') return zsh(tree);
  return fish(tree);
}

/** Shell arrays key command paths from the root word (`cms`, `cms hub`): shells refuse empty keys. */
const key = (path: string) => (path.startsWith(' ') || path === '' ? `cms${path}` : `cms ${path}`);

function bash(tree: Tree): string {
  const subs = [...tree.children].map(([p, c]) => `  [${q(key(p))}]=${q(c.map((x) => x.word).join(' '))}`);
  const opts = [...tree.options].map(([p, o]) => `  [${q(key(p))}]=${q(o.flatMap((x) => x.words).join(' '))}`);
  const vals = [...tree.values].map(([k, v]) => `  [${q(key(k))}]=${q(v)}`);
  const args = [...tree.args].map(([k, v]) => `  [${q(key(k))}]=${q(v)}`);
  return `# bash completion for cms. Generated from the command tree: do not edit.
# Install: cms completion bash > ~/.local/share/bash-completion/completions/cms
declare -A _cms_subs=(
${subs.join('\n')}
)
declare -A _cms_opts=(
${opts.join('\n')}
)
declare -A _cms_vals=(
${vals.join('\n')}
)
declare -A _cms_args=(
${args.join('\n')}
)

_cms_complete() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="\${COMP_WORDS[COMP_CWORD-1]}"
  local path="cms" word next i positional=0
  for ((i = 1; i < COMP_CWORD; i++)); do
    word="\${COMP_WORDS[i]}"
    if [[ $word == -* ]]; then continue; fi
    next="$path $word"
    if [[ -n "\${_cms_subs[$next]+x}" || -n "\${_cms_opts[$next]+x}" ]]; then path="$next"; else positional=$((positional + 1)); fi
  done
  local values="\${_cms_vals["$path $prev"]-\${_cms_vals["cms $prev"]-}}"
  if [[ -z $values && $cur != -* && $positional -eq 0 && -z "\${_cms_subs[$path]-}" ]]; then values="\${_cms_args[$path]-}"; fi
  if [[ -n $values ]]; then
    if [[ $values == @* ]]; then values="$(cms __complete "\${values#@}" 2>/dev/null)"; fi
    COMPREPLY=($(compgen -W "$values" -- "$cur"))
    return
  fi
  if [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "\${_cms_opts[$path]-} \${_cms_opts[cms]}" -- "$cur"))
  else
    COMPREPLY=($(compgen -W "\${_cms_subs[$path]-}" -- "$cur"))
  fi
}
complete -F _cms_complete cms
`;
}

function zsh(tree: Tree): string {
  const esc = (s: string) => s.replace(/:/g, '\\:').replace(/\n/g, ' ');
  const subs = [...tree.children].map(([p, c]) => `  ${q(key(p))} ${q(c.map((x) => `${esc(x.word)}:${esc(x.summary)}`).join('\n'))}`);
  const opts = [...tree.options].map(([p, o]) => `  ${q(key(p))} ${q(o.flatMap((x) => x.words.map((w) => `${esc(w)}:${esc(x.description)}`)).join('\n'))}`);
  const vals = [...tree.values].map(([k, v]) => `  ${q(key(k))} ${q(v)}`);
  const args = [...tree.args].map(([k, v]) => `  ${q(key(k))} ${q(v)}`);
  return `#compdef cms
# zsh completion for cms. Generated from the command tree: do not edit.
# Install: cms completion zsh > "\${fpath[1]}/_cms"
typeset -gA _cms_subs _cms_opts _cms_vals _cms_args
_cms_subs=(
${subs.join('\n')}
)
_cms_opts=(
${opts.join('\n')}
)
_cms_vals=(
${vals.join('\n')}
)
_cms_args=(
${args.join('\n')}
)

_cms() {
  local path=cms word next i positional=0
  for ((i = 2; i < CURRENT; i++)); do
    word=\${words[i]}
    [[ $word == -* ]] && continue
    next="$path $word"
    if (( \${+_cms_subs[$next]} || \${+_cms_opts[$next]} )); then path=$next; else (( positional++ )); fi
  done
  local prev=\${words[CURRENT-1]} cur=\${words[CURRENT]}
  local values=\${_cms_vals[$path $prev]:-\${_cms_vals[cms $prev]}}
  if [[ -z $values && $cur != -* && $positional -eq 0 && -z \${_cms_subs[$path]} ]]; then values=\${_cms_args[$path]}; fi
  if [[ -n $values ]]; then
    if [[ $values == @* ]]; then compadd -- \${(f)"$(cms __complete \${values#@} 2>/dev/null)"}; else compadd -- \${=values}; fi
    return
  fi
  local -a items
  if [[ $cur == -* ]]; then
    items=(\${(f)_cms_opts[$path]} \${(f)_cms_opts[cms]})
    _describe -t options option items
  else
    items=(\${(f)_cms_subs[$path]})
    _describe -t commands command items
  fi
}
compdef _cms cms
`;
}

function fish(tree: Tree): string {
  const paths = [...new Set([...tree.children.keys(), ...tree.options.keys()])];
  const lines: string[] = [];
  for (const [p, children] of tree.children) {
    for (const c of children) lines.push(`complete -c cms -n ${q(`__cms_at ${p}`.trim())} -a ${q(c.word)} -d ${q(c.summary)}`);
  }
  for (const [p, options] of tree.options) {
    const cond = p ? ` -n ${q(`__cms_at ${p}`)}` : '';
    for (const o of options) {
      const long = o.words.find((w) => w.startsWith('--'));
      const short = o.words.find((w) => /^-[^-]$/.test(w));
      if (!long) continue;
      const value = tree.values.get(`${p} ${long}`);
      const valuePart = value ? (value.startsWith('@') ? ` -xa ${q(`(cms __complete ${value.slice(1)} 2>/dev/null)`)}` : ` -xa ${q(value)}`) : o.takesValue ? ' -r' : '';
      lines.push(`complete -c cms${cond} -l ${long.slice(2)}${short ? ` -s ${short.slice(1)}` : ''}${valuePart} -d ${q(o.description)}`);
    }
  }
  for (const [p, v] of tree.args) lines.push(`complete -c cms -n ${q(`__cms_at ${p}`)} -xa ${q(v.startsWith('@') ? `(cms __complete ${v.slice(1)} 2>/dev/null)` : v)}`);
  return `# fish completion for cms. Generated from the command tree: do not edit.
# Install: cms completion fish > ~/.config/fish/completions/cms.fish
set -g __cms_paths ${paths.filter(Boolean).map(q).join(' ')}

# True when the words typed so far (options left out) name exactly this command path.
function __cms_at
  set -l want (string join ' ' $argv)
  set -l path ''
  for word in (commandline -opc)[2..-1]
    string match -q -- '-*' $word; and continue
    set -l next (string trim -- "$path $word")
    if contains -- $next $__cms_paths
      set path $next
    end
  end
  test "$path" = "$want"
end

complete -c cms -f
${lines.join('\n')}
`;
}

/** docs/commands.md: every command with its description, usage, options and examples. */
export function referenceMarkdown(manifest: Manifest): string {
  const out: string[] = [
    '# Command reference',
    '',
    'Generated from the command tree (`npm run generate`); do not edit. `cms <command> --help` shows the same.',
    '',
    '## Global options',
    '',
    ...GLOBAL_OPTIONS.map((o) => `- \`${o.flags}\`: ${o.description}${o.choices ? ` (${o.choices.join(', ')})` : ''}`),
    '',
  ];
  const byGroup = new Map<string, ManifestCommand[]>();
  for (const c of manifest.commands) {
    if (c.hidden) continue;
    const key = c.path.length > 1 ? c.path.slice(0, -1).join(' ') : '';
    byGroup.set(key, [...(byGroup.get(key) ?? []), c]);
  }
  const order = ['', ...manifest.groups.map((g) => g.path.join(' '))];
  for (const key of order) {
    const commands = byGroup.get(key);
    if (!commands) continue;
    const group = manifest.groups.find((g) => g.path.join(' ') === key);
    out.push(key ? `## cms ${key}` : '## Top-level commands', '');
    if (group) out.push(group.summary, '');
    for (const c of commands) {
      const args = (c.args ?? []).map((a) => (a.required ? `<${a.name}${a.variadic ? '...' : ''}>` : `[${a.name}${a.variadic ? '...' : ''}]`));
      out.push(`### cms ${c.path.join(' ')}`, '', c.description ?? c.summary, '', '```', `cms ${[...c.path, ...args, (c.options ?? []).length ? '[options]' : ''].filter(Boolean).join(' ')}`, '```', '');
      if (c.args?.length) out.push('| Argument | Description |', '|---|---|', ...c.args.map((a) => `| \`${a.name}\` | ${a.description}${a.required ? '' : ' (optional)'} |`), '');
      if (c.options?.length) {
        out.push('| Option | Description |', '|---|---|');
        for (const o of c.options) if (!o.hidden) out.push(`| \`${o.flags}\` | ${o.description.replace(/\|/g, '\\|')}${o.choices ? ` (${o.choices.join(', ')})` : ''}${o.default !== undefined ? ` (default: ${JSON.stringify(o.default)})` : ''} |`);
        out.push('');
      }
      out.push('Examples:', '', '```sh', ...c.examples.map((e) => `$ ${e}`), '```', '');
    }
  }
  return `${out.join('\n').trim()}\n`;
}

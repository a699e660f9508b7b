import { optionDescription, type Manifest, type ManifestCommand, type OptionSpec } from './define.js';
import { FORMATS } from '../output/formats.js';

// Shell completion scripts generated from the command tree: commands, options and enum values
// are written into the script; identifiers (hubs, repositories, editions...) come at completion
// time from the hidden `cms __complete <kind>`, which is quick and silent on errors.

export const SHELLS = ['bash', 'zsh', 'fish', 'powershell'] as const;
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
  /** path -> option words that take a value (the next word is that value, not a command word) */
  valueOptions: Map<string, string[]>;
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
  const tree: Tree = { children: new Map(), options: new Map(), values: new Map(), args: new Map(), valueOptions: new Map() };
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
      if (takesValue) tree.valueOptions.set(path, [...(tree.valueOptions.get(path) ?? []), ...words]);
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
  if (shell === 'powershell') return powershell(tree);
  return fish(tree);
}

/** Shell arrays key command paths from the root word (`cms`, `cms hub`): shells refuse empty keys. */
const key = (path: string) => (path.startsWith(' ') || path === '' ? `cms${path}` : `cms ${path}`);

// Words from the service (names, labels, ids) are data. Each script reads `cms __complete`
// lines (`word<TAB>description`) without evaluating them and hands the shell literal words:
// bash quotes each with printf %q, zsh's compadd and fish quote on insertion. `--hub` and
// `--profile` typed on the line are passed on, so completion looks where the command will.

/** The generated part every script shares: `[key]=value` pairs of the command tree. */
function tables(tree: Tree, pair: (k: string, v: string) => string) {
  return {
    subs: [...tree.children].map(([p, c]) => pair(key(p), c.map((x) => x.word).join(' '))),
    opts: [...tree.options].map(([p, o]) => pair(key(p), o.flatMap((x) => x.words).join(' '))),
    vals: [...tree.values].map(([k, v]) => pair(key(k), v)),
    args: [...tree.args].map(([k, v]) => pair(key(k), v)),
    valopts: [...tree.valueOptions].map(([p, w]) => pair(key(p), ` ${w.join(' ')} `)),
  };
}

function bash(tree: Tree): string {
  const t = tables(tree, (k, v) => `  [${q(k)}]=${q(v)}`);
  return `# bash completion for cms. Generated from the command tree: do not edit.
# Install (from any shell): mkdir -p ~/.local/share/bash-completion/completions &&
#   cms completion bash > ~/.local/share/bash-completion/completions/cms
declare -A _cms_subs=(
${t.subs.join('\n')}
)
declare -A _cms_opts=(
${t.opts.join('\n')}
)
declare -A _cms_vals=(
${t.vals.join('\n')}
)
declare -A _cms_args=(
${t.args.join('\n')}
)
declare -A _cms_valopts=(
${t.valopts.join('\n')}
)

# A typed word without its quotes (never evaluated).
_cms_unquote() {
  local w=$1
  case $w in
    \\'*\\') w=\${w:1:\${#w}-2} ;;
    \\"*\\") w=\${w:1:\${#w}-2} ;;
    *) w=\${w//\\\\/} ;;
  esac
  printf '%s' "$w"
}

# Bash splits words at COMP_WORDBREAKS, ':' and '=' included: \`--repo=ns:name\` arrives as
# \`--repo\`, \`=\`, \`ns\`, \`:\`, \`name\`. Sets _cms_words/_cms_cword to the words with those pieces
# re-joined (pieces with no blank between them, next to a ':' or '=', as COMP_LINE shows), and
# _cms_keep to the part of the current word up to its last such ':' or '=', which bash keeps (it
# replaces only what follows).
_cms_words_by_colon() {
  _cms_words=() _cms_cword=0 _cms_keep=""
  local line=\${COMP_LINE-} word i joined=0 last=\${COMP_WORDS[COMP_CWORD]}
  for ((i = 0; i <= COMP_CWORD; i++)); do
    word=\${COMP_WORDS[i]}
    if [[ -n $line ]]; then
      local rest=\${line#"\${line%%[![:blank:]]*}"}
      if [[ \${rest:0:\${#word}} != "$word" ]]; then
        # COMP_LINE does not match the words (set by hand): take the words as they are.
        _cms_words=("\${COMP_WORDS[@]:0:COMP_CWORD+1}") _cms_cword=$COMP_CWORD _cms_keep=""
        return
      fi
      if ((i > 1)) && [[ $rest == "$line" ]] && [[ $word == [:=]* || \${_cms_words[\${#_cms_words[@]}-1]} == *[:=] ]]; then
        _cms_words[\${#_cms_words[@]}-1]+=$word
        ((i == COMP_CWORD)) && joined=1
        line=\${rest:\${#word}}
        continue
      fi
      line=\${rest:\${#word}}
    fi
    _cms_words+=("$word")
    ((i == COMP_CWORD)) && joined=0
  done
  _cms_cword=$((\${#_cms_words[@]} - 1))
  if ((joined)); then
    local kept=\${_cms_words[_cms_cword]}
    [[ -n \${last//[:=]/} ]] && kept=\${kept%"$last"}
    _cms_keep=$(_cms_unquote "$kept")
  fi
}

# Reads candidate lines (word<TAB>description) on stdin; adds those starting with $1 to
# COMPREPLY, each quoted with %q so the line holds it literally. $2, a start of $1 that bash
# keeps on the line (up to a ':' or '='), is left out of what is offered. $3 (\`--opt=\`) goes
# before each word: the value of an --opt=value word.
_cms_offer() {
  local cur=$1 keep=\${2-} lead=\${3-} line word quoted
  local -a lines
  mapfile -t lines
  for line in "\${lines[@]}"; do
    word=\${line%%$'\\t'*}
    [[ -n $word ]] || continue
    word=$lead$word
    [[ $word == "$cur"* ]] || continue
    printf -v quoted '%q' "\${word:\${#keep}}"
    COMPREPLY+=("$quoted")
  done
}

_cms_complete() {
  COMPREPLY=()
  local -a _cms_words
  local _cms_cword _cms_keep
  _cms_words_by_colon
  local cur prev="\${_cms_words[_cms_cword-1]}"
  cur=$(_cms_unquote "\${_cms_words[_cms_cword]}")
  local path="cms" word next i positional=0 hub="" profile=""
  for ((i = 1; i < _cms_cword; i++)); do
    word="\${_cms_words[i]}"
    case $word in
      --hub=*) hub=$(_cms_unquote "\${word#--hub=}"); continue ;;
      --profile=*) profile=$(_cms_unquote "\${word#--profile=}"); continue ;;
      -*)
        if [[ "\${_cms_valopts[$path]-} \${_cms_valopts[cms]}" == *" $word "* ]] && ((i + 1 < _cms_cword)); then
          i=$((i + 1))
          [[ $word == --hub ]] && hub=$(_cms_unquote "\${_cms_words[i]}")
          [[ $word == --profile ]] && profile=$(_cms_unquote "\${_cms_words[i]}")
        fi
        continue ;;
    esac
    next="$path $word"
    if [[ -n "\${_cms_subs[$next]+x}" || -n "\${_cms_opts[$next]+x}" ]]; then path="$next"; else positional=$((positional + 1)); fi
  done
  # --opt=value (long options only: -o=json would be -o with '=json'): the value of opt, offered
  # as the whole word (bash keeps what it split off).
  local opt=$prev lead=""
  [[ $cur == --*=* ]] && opt=\${cur%%=*} lead="\${cur%%=*}="
  local values="\${_cms_vals["$path $opt"]-\${_cms_vals["cms $opt"]-}}"
  [[ -n $lead && -z $values ]] && return
  if [[ -z $values && $cur != -* && $positional -eq 0 && -z "\${_cms_subs[$path]-}" ]]; then values="\${_cms_args[$path]-}"; fi
  local -a words
  if [[ $values == @* ]]; then
    local -a args=()
    [[ -n $profile ]] && args+=("--profile=$profile")
    args+=(__complete "\${values#@}")
    [[ -n $hub ]] && args+=("--hub=$hub")
    _cms_offer "$cur" "$_cms_keep" "$lead" < <(cms "\${args[@]}" 2>/dev/null)
    return
  elif [[ -n $values ]]; then
    read -ra words <<< "$values"
  elif [[ $cur == -* ]]; then
    read -ra words <<< "\${_cms_opts[$path]-} \${_cms_opts[cms]}"
  else
    read -ra words <<< "\${_cms_subs[$path]-}"
  fi
  _cms_offer "$cur" "$_cms_keep" "$lead" < <(printf '%s\\n' "\${words[@]}")
}
complete -F _cms_complete cms
`;
}

function zsh(tree: Tree): string {
  const esc = (s: string) => s.replace(/:/g, '\\:').replace(/\n/g, ' ');
  const subs = [...tree.children].map(([p, c]) => `  ${q(key(p))} ${q(c.map((x) => `${esc(x.word)}:${esc(x.summary)}`).join('\n'))}`);
  const opts = [...tree.options].map(([p, o]) => `  ${q(key(p))} ${q(o.flatMap((x) => x.words.map((w) => `${esc(w)}:${esc(x.description)}`)).join('\n'))}`);
  const t = tables(tree, (k, v) => `  ${q(k)} ${q(v)}`);
  return `#compdef cms
# zsh completion for cms. Generated from the command tree: do not edit.
# Install (from any shell): mkdir -p ~/.zsh/completions && cms completion zsh > ~/.zsh/completions/_cms
# then in ~/.zshrc, before compinit: fpath=(~/.zsh/completions $fpath)
typeset -gA _cms_subs _cms_opts _cms_vals _cms_args _cms_valopts
_cms_subs=(
${subs.join('\n')}
)
_cms_opts=(
${opts.join('\n')}
)
_cms_vals=(
${t.vals.join('\n')}
)
_cms_args=(
${t.args.join('\n')}
)
_cms_valopts=(
${t.valopts.join('\n')}
)

_cms() {
  # The user's options (GLOB_SUBST, SH_WORD_SPLIT...) must not reach the candidates.
  emulate -L zsh
  local cmdpath=cms word next i positional=0 hub= profile=
  for ((i = 2; i < CURRENT; i++)); do
    word=\${(Q)words[i]}
    case $word in
      --hub=*) hub=\${word#--hub=}; continue ;;
      --profile=*) profile=\${word#--profile=}; continue ;;
      -*)
        if [[ "\${_cms_valopts[$cmdpath]} \${_cms_valopts[cms]}" == *" $word "* ]] && (( i + 1 < CURRENT )); then
          (( i++ ))
          [[ $word == --hub ]] && hub=\${(Q)words[i]}
          [[ $word == --profile ]] && profile=\${(Q)words[i]}
        fi
        continue ;;
    esac
    next="$cmdpath $word"
    if (( \${+_cms_subs[$next]} || \${+_cms_opts[$next]} )); then cmdpath=$next; else (( positional++ )); fi
  done
  local prev=\${(Q)words[CURRENT-1]} cur=\${(Q)words[CURRENT]}
  local values=\${_cms_vals[$cmdpath $prev]:-\${_cms_vals[cms $prev]}}
  if [[ -z $values && $cur != -* && $positional -eq 0 && -z \${_cms_subs[$cmdpath]} ]]; then values=\${_cms_args[$cmdpath]}; fi
  if [[ $values == @* ]]; then
    local -a args lines found shown
    local line
    [[ -n $profile ]] && args+=("--profile=$profile")
    args+=(__complete "\${values#@}")
    [[ -n $hub ]] && args+=("--hub=$hub")
    lines=("\${(@f)$(cms "\${args[@]}" 2>/dev/null)}")
    for line in "\${lines[@]}"; do
      [[ -n $line ]] || continue
      found+=("\${line%%$'\\t'*}")
      shown+=("\${line%%$'\\t'*}  -- \${line#*$'\\t'}")
    done
    # Without -Q compadd quotes each word as it inserts it; -d only changes what is listed.
    (( \${#found} )) && compadd -l -d shown -- "\${found[@]}"
    return
  elif [[ -n $values ]]; then
    compadd -- \${=values}
    return
  fi
  local -a items
  if [[ $cur == -* ]]; then
    items=(\${(f)_cms_opts[$cmdpath]} \${(f)_cms_opts[cms]})
    _describe -t options option items
  else
    items=(\${(f)_cms_subs[$cmdpath]})
    _describe -t commands command items
  fi
}
compdef _cms cms
`;
}

function fish(tree: Tree): string {
  const paths = [...new Set([...tree.children.keys(), ...tree.options.keys()])];
  const dynamic = (kind: string) => `(__cms_values ${kind})`;
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
      const valuePart = value ? (value.startsWith('@') ? ` -xa ${q(dynamic(value.slice(1)))}` : ` -xa ${q(value)}`) : o.takesValue ? ' -r' : '';
      lines.push(`complete -c cms${cond} -l ${long.slice(2)}${short ? ` -s ${short.slice(1)}` : ''}${valuePart} -d ${q(o.description)}`);
    }
  }
  for (const [p, v] of tree.args) lines.push(`complete -c cms -n ${q(`__cms_at ${p}`)} -xa ${q(v.startsWith('@') ? dynamic(v.slice(1)) : v)}`);
  return `# fish completion for cms. Generated from the command tree: do not edit.
# Install (from any shell): mkdir -p ~/.config/fish/completions &&
#   cms completion fish > ~/.config/fish/completions/cms.fish
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

# Identifiers from the service as word<TAB>description lines, in the hub and profile typed on
# the line. Printed, never evaluated: fish escapes each word as it inserts it.
function __cms_values
  set -l tokens (commandline -opc)
  set -l hub
  set -l profile
  for i in (seq 2 (count $tokens))
    switch $tokens[$i]
      case '--hub=*'
        set hub (string sub -s 7 -- $tokens[$i])
      case '--profile=*'
        set profile (string sub -s 11 -- $tokens[$i])
      case --hub --profile
        test $i -lt (count $tokens); or continue
        set -l value $tokens[(math $i + 1)]
        test $tokens[$i] = --hub; and set hub $value; or set profile $value
    end
  end
  set -l args
  test -n "$profile"; and set -a args --profile=$profile
  set -a args __complete $argv[1]
  test -n "$hub"; and set -a args --hub=$hub
  cms $args 2>/dev/null
end

complete -c cms -f
${lines.join('\n')}
`;
}

const psq = (s: string) => `'${s.replace(/'/g, "''")}'`;

function powershell(tree: Tree): string {
  const t = tables(tree, (k, v) => `  ${psq(k)} = ${psq(v)}`);
  return `# PowerShell completion for cms. Generated from the command tree: do not edit.
# Install: cms completion powershell >> $PROFILE   (or, for this session only:
#   cms completion powershell | Out-String | Invoke-Expression)
$__cmsSubs = @{
${t.subs.join('\n')}
}
$__cmsOpts = @{
${t.opts.join('\n')}
}
$__cmsVals = @{
${t.vals.join('\n')}
}
$__cmsArgs = @{
${t.args.join('\n')}
}
$__cmsValOpts = @{
${t.valopts.join('\n')}
}

# A word from the service as PowerShell must read it back: it is data, so anything but plain
# characters (or a leading dash) is single-quoted, a quote doubled, and never evaluated.
function __cmsQuote([string]$word) {
  if ($word -match '^[\\w.@:/+=,-]+$' -and $word -notmatch '^-') { return $word }
  return "'" + $word.Replace("'", "''") + "'"
}

Register-ArgumentCompleter -Native -CommandName cms -ScriptBlock {
  param($wordToComplete, $commandAst, $cursorPosition)
  # The words typed before the one being completed, without their quotes.
  $typed = @($commandAst.CommandElements | Select-Object -Skip 1 | Where-Object { $_.Extent.EndOffset -lt $cursorPosition } | ForEach-Object {
    if ($_ -is [System.Management.Automation.Language.StringConstantExpressionAst]) { $_.Value } else { $_.Extent.Text }
  })
  $path = 'cms'; $hub = ''; $prof = ''; $skip = $false
  for ($i = 0; $i -lt $typed.Count; $i++) {
    $w = $typed[$i]
    if ($skip) { $skip = $false; continue }
    if ($w -like '--hub=*') { $hub = $w.Substring(6); continue }
    if ($w -like '--profile=*') { $prof = $w.Substring(10); continue }
    if ($w -like '-*') {
      if (($__cmsValOpts[$path] -like "* $w *") -or ($__cmsValOpts['cms'] -like "* $w *")) {
        $skip = $true
        if ($i + 1 -lt $typed.Count) { if ($w -eq '--hub') { $hub = $typed[$i + 1] } elseif ($w -eq '--profile') { $prof = $typed[$i + 1] } }
      }
      continue
    }
    $next = "$path $w"
    if ($__cmsSubs.ContainsKey($next) -or $__cmsOpts.ContainsKey($next)) { $path = $next }
  }
  $prev = if ($typed.Count) { $typed[-1] } else { '' }
  $values = $null
  if ($skip) { $values = $__cmsVals["$path $prev"]; if (-not $values) { $values = $__cmsVals["cms $prev"] } }
  elseif ($wordToComplete -like '-*') { $values = (@($__cmsOpts[$path], $__cmsOpts['cms']) -join ' ') }
  elseif ($__cmsSubs.ContainsKey($path)) { $values = $__cmsSubs[$path] }
  elseif ($__cmsArgs.ContainsKey($path)) { $values = $__cmsArgs[$path] }
  if (-not $values) { return }
  $candidates = @()
  $dynamic = $values.StartsWith('@')
  if ($dynamic) {
    $arguments = @()
    if ($prof) { $arguments += "--profile=$prof" }
    $arguments += @('__complete', $values.Substring(1))
    if ($hub) { $arguments += "--hub=$hub" }
    foreach ($line in @(& cms @arguments 2>$null)) {
      if (-not $line) { continue }
      $parts = $line.Split([char]9, 2)
      $candidates += ,@($parts[0], $(if ($parts.Count -gt 1) { $parts[1] } else { $parts[0] }))
    }
  } else {
    foreach ($v in ($values -split ' ')) { if ($v) { $candidates += ,@($v, $v) } }
  }
  foreach ($c in $candidates) {
    if ($c[0] -like "$wordToComplete*") {
      $tip = $(if ($c[1]) { $c[1] } else { $c[0] })
      $text = $(if ($dynamic) { __cmsQuote $c[0] } else { $c[0] })
      [System.Management.Automation.CompletionResult]::new($text, $c[0], 'ParameterValue', $tip)
    }
  }
}
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
        for (const o of c.options) if (!o.hidden && !o.aliasOf) out.push(`| \`${o.flags}\` | ${optionDescription(o).replace(/\|/g, '\\|')}${o.choices ? ` (${o.choices.join(', ')})` : ''}${o.default !== undefined ? ` (default: ${JSON.stringify(o.default)})` : ''} |`);
        out.push('');
      }
      out.push('Examples:', '', '```sh', ...c.examples.map((e) => `$ ${e}`), '```', '');
    }
  }
  return `${out.join('\n').trim()}\n`;
}

import { readFileSync } from 'node:fs';
import { defineCommand } from '../cli/define.js';
import type { Manifest } from '../cli/define.js';
import { SHELLS, completionScript, type Shell } from '../cli/completion.js';
import { text } from '../output/result.js';

export default defineCommand({
  summary: 'Print the shell completion script for bash, zsh, fish or PowerShell',
  description: [
    'Completes commands, options and their values; hubs, repositories, events and editions are completed from the current profile.',
    'Install (each line works from any shell; start a new shell afterwards):',
    '  bash: mkdir -p ~/.local/share/bash-completion/completions && cms completion bash > ~/.local/share/bash-completion/completions/cms',
    '  zsh:  mkdir -p ~/.zsh/completions && cms completion zsh > ~/.zsh/completions/_cms, then in ~/.zshrc before compinit: fpath=(~/.zsh/completions $fpath)',
    '  fish: mkdir -p ~/.config/fish/completions && cms completion fish > ~/.config/fish/completions/cms.fish',
    '  PowerShell: cms completion powershell >> $PROFILE (or, for one session: cms completion powershell | Out-String | Invoke-Expression)',
  ].join('\n'),
  examples: [
    'mkdir -p ~/.local/share/bash-completion/completions && cms completion bash > ~/.local/share/bash-completion/completions/cms',
    'mkdir -p ~/.zsh/completions && cms completion zsh > ~/.zsh/completions/_cms',
    'mkdir -p ~/.config/fish/completions && cms completion fish > ~/.config/fish/completions/cms.fish',
  ],
  args: [{ name: 'shell', description: SHELLS.join(', '), required: true, choices: SHELLS }],
  async run(_ctx, args) {
    const manifest = JSON.parse(readFileSync(new URL('../cli/manifest.json', import.meta.url), 'utf8')) as Manifest;
    return text(completionScript(manifest, args.shell as Shell));
  },
});

import { appendFileSync } from 'node:fs';
import { isAbsolute, relative, sep } from 'node:path';
import type { IO } from '../../cli/io.js';
import { visible } from '../../output/visible.js';
import { inGitHubActions } from '../../output/workflow-commands.js';

// CI conventions: under GitHub Actions (GITHUB_ACTIONS=true) a run that found files at fault (a
// drift check, a bulk run with failures) says so where people look: one `::error` workflow
// command per file (an annotation on the file in the pull request) and a Markdown table appended
// to $GITHUB_STEP_SUMMARY. Elsewhere nothing changes. The commands go to stderr, which the
// runner reads like stdout, so `-o json > plan.json` stays valid JSON.
//
// File names, ids and messages come from files and from the service: they are escaped by
// GitHub's rules (a newline would end the command and start another), and by Markdown's in the
// summary (a `|` would open a column, `<` an HTML tag).

export interface Annotation {
  /** The file at fault (absolute or relative to the working directory); none: an annotation on the run. */
  file?: string;
  line?: number;
  title: string;
  message: string;
}

/** At most this many annotations and summary rows per run (GitHub shows 10 per step anyway). */
const MAX_ANNOTATIONS = 200;
const MAX_SUMMARY_BYTES = 512 * 1024;

/** A workflow command's message: %, CR and LF escaped (actions/toolkit escapeData). */
export function escapeData(s: string): string {
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** A workflow command's property value: as data, and `:` and `,` too (actions/toolkit escapeProperty). */
export function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** One `::error file=…,line=…,title=…::message` line. */
export function errorCommand(a: Annotation, cwd: string): string {
  const props: string[] = [];
  if (a.file) props.push(`file=${escapeProperty(workspacePath(a.file, cwd))}`);
  if (a.file) props.push(`line=${a.line ?? 1}`);
  props.push(`title=${escapeProperty(visible(a.title))}`);
  return `::error ${props.join(',')}::${escapeData(visible(a.message))}\n`;
}

/**
 * Annotations on stderr and a table in the step summary, when running under GitHub Actions;
 * nothing otherwise. A summary file that cannot be written is a warning, not a failed run.
 */
export function reportToGitHub(io: IO, env: NodeJS.ProcessEnv, heading: string, annotations: readonly Annotation[]): void {
  if (!inGitHubActions(env) || !annotations.length) return;
  const cwd = env.GITHUB_WORKSPACE || process.cwd();
  // Our own commands: the output chokepoint keeps every other line from forming one.
  for (const a of annotations.slice(0, MAX_ANNOTATIONS)) io.workflowCommand(errorCommand(a, cwd));
  const file = env.GITHUB_STEP_SUMMARY;
  if (!file) return;
  try {
    appendFileSync(file, summaryTable(heading, annotations, cwd));
  } catch (err) {
    io.warn(`could not append to $GITHUB_STEP_SUMMARY (${visible((err as Error).message)})`);
  }
}

/** `### heading` and a table of File | Line | Problem | Details, cut to fit GitHub's summary size. */
export function summaryTable(heading: string, annotations: readonly Annotation[], cwd: string): string {
  const lines = [`### ${markdownCell(heading)}`, '', '| File | Line | Problem | Details |', '| --- | --- | --- | --- |'];
  let size = lines.join('\n').length;
  let shown = 0;
  for (const a of annotations) {
    const row = `| ${a.file ? `\`${markdownCode(workspacePath(a.file, cwd))}\`` : '—'} | ${a.file ? (a.line ?? 1) : ''} | ${markdownCell(a.title)} | ${markdownCell(a.message)} |`;
    if (shown >= MAX_ANNOTATIONS || size + row.length > MAX_SUMMARY_BYTES) break;
    lines.push(row);
    size += row.length + 1;
    shown++;
  }
  if (shown < annotations.length) lines.push('', `…and ${annotations.length - shown} more (see the command's output).`);
  return `${lines.join('\n')}\n\n`;
}

/** Text as a table cell: one line, no column breaks, no HTML, no Markdown markup. */
export function markdownCell(s: string): string {
  return visible(s)
    .replace(/\r\n|\r|\n/g, ' ')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/[\\`*_[\]|#~!]/g, (c) => `\\${c}`)
    .slice(0, 2000);
}

/** A path inside backticks: a backtick would end the code span, a | the cell. */
function markdownCode(s: string): string {
  return visible(s).replace(/[\r\n]/g, ' ').replace(/`/g, "'").replace(/\|/g, '\\|');
}

/** The file relative to the workspace (what GitHub matches annotations on), with / separators. */
function workspacePath(file: string, cwd: string): string {
  const rel = isAbsolute(file) ? relative(cwd, file) : file;
  const shown = rel.startsWith('..') || isAbsolute(rel) ? file : rel;
  return sep === '/' ? shown : shown.split(sep).join('/');
}

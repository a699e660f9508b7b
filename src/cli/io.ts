import { isatty } from 'node:tty';
import { htmlText, jsonText, terminalText } from '../output/visible.js';
import { CiLineGuard, inGitHubActions, type OutputKind } from '../output/workflow-commands.js';

/** Our own styling (tables, records): the only escape sequences the output chokepoint lets through. */
export interface Paint {
  bold(s: string): string;
  green(s: string): string;
  yellow(s: string): string;
  red(s: string): string;
  dim(s: string): string;
}

const identity = (s: string) => s;
const PLAIN: Paint = { bold: identity, green: identity, yellow: identity, red: identity, dim: identity };

export interface IOOptions {
  /** --no-color */
  color: boolean;
  /** --no-input: never prompt. */
  input: boolean;
}

/**
 * Terminal facts and the output streams, and the output chokepoint: every string the CLI writes
 * to stdout or stderr goes through out/err/note/warn (text: control characters shown as \xHH,
 * bidi controls and invisible characters as \uHHHH, only our own colours kept), outJson/errJson
 * (JSON: the same as \uXXXX) or outHtml (HTML: control characters as \xHH, the others as &#xHHHH;). Under
 * GitHub Actions no text forms a workflow command (a line-leading `::`, a `##[`: see
 * src/output/workflow-commands.ts) but cms's own, written with workflowCommand(). No other file of
 * src/ touches process.stdout, process.stderr or console (test/unit/architecture.test.ts);
 * prompts and the progress bar get the stream from promptStream(), with their text escaped.
 * A terminal means stdout is a TTY, or CMS_FORCE_TTY is
 * set (its value may be a width, e.g. CMS_FORCE_TTY=120). Colour needs a terminal and neither
 * NO_COLOR nor --no-color. Prompts need an interactive stdin and stderr, no --no-input, no CI.
 */
export class IO {
  readonly isTTY: boolean;
  readonly isStderrTTY: boolean;
  readonly colorEnabled: boolean;
  readonly canPrompt: boolean;
  /** Why prompts are off (for hints: "no prompt: --no-input was given"), undefined when they are on. */
  readonly noPromptReason: string | undefined;
  readonly columns: number;
  private paint: Paint | null = null;
  /** Under GitHub Actions: one guard per stream, so that no output forms a workflow command. */
  private readonly ci: { out: CiLineGuard; err: CiLineGuard } | null;

  constructor(
    opts: IOOptions,
    readonly env: NodeJS.ProcessEnv = process.env,
    private readonly stdout: NodeJS.WriteStream = process.stdout,
    private readonly stderr: NodeJS.WriteStream = process.stderr,
    // Not process.stdin: building that stream costs every command a few ms, and only prompts read it.
    stdinIsTTY: boolean = isatty(0),
  ) {
    const forced = env.CMS_FORCE_TTY;
    const force = forced !== undefined && forced !== '' && forced !== '0' && forced !== 'false';
    this.isTTY = force || Boolean(stdout.isTTY);
    this.isStderrTTY = force || Boolean(stderr.isTTY);
    this.colorEnabled = this.isTTY && opts.color && !env.NO_COLOR;
    this.noPromptReason = !opts.input
      ? '--no-input was given'
      : isCI(env)
        ? `CI is set (CI=${env.CI})`
        : !stdinIsTTY
          ? 'stdin is not a terminal'
          : !this.isStderrTTY
            ? 'stderr is not a terminal'
            : undefined;
    this.canPrompt = this.noPromptReason === undefined;
    const forcedWidth = force && /^\d+$/.test(forced!) && Number(forced) > 1 ? Number(forced) : undefined;
    this.columns = forcedWidth ?? stdout.columns ?? 100;
    this.ci = inGitHubActions(env) ? { out: new CiLineGuard(), err: new CiLineGuard() } : null;
  }

  out(s: string): void {
    this.write('out', terminalText(s, this.colorEnabled), 'text');
  }

  err(s: string): void {
    this.write('err', terminalText(s, this.colorEnabled), 'text');
  }

  /** JSON text (-o json, ndjson, JSON errors and progress events): still valid JSON once escaped. */
  outJson(s: string): void {
    this.write('out', jsonText(s), 'json');
  }

  errJson(s: string): void {
    this.write('err', jsonText(s), 'json');
  }

  /** An HTML document (cms item render > page.html): hidden characters as character references, the same page in a browser. */
  outHtml(s: string): void {
    this.write('out', htmlText(s), 'html');
  }

  /** One workflow command of cms's own (`::error file=…::…\n`, its values escaped by the caller), on stderr and on a line of its own. */
  workflowCommand(line: string): void {
    const text = terminalText(line, false);
    this.stderr.write(this.ci ? this.ci.err.command(text) : text);
  }

  private write(stream: 'out' | 'err', text: string, kind: OutputKind): void {
    (stream === 'out' ? this.stdout : this.stderr).write(this.ci ? this.ci[stream].pass(text, kind) : text);
  }

  /** Chatter for people: on stderr, and only when stderr is a terminal. */
  note(message: string): void {
    if (this.isStderrTTY) this.err(`${message}\n`);
  }

  warn(message: string): void {
    this.err(`warning: ${message}\n`);
  }

  /**
   * The stream interactive widgets (prompts, the progress bar) draw on with their own cursor
   * codes. What they show of ours must be escaped first (visible()).
   */
  promptStream(): NodeJS.WriteStream {
    return this.stderr;
  }

  async colors(): Promise<Paint> {
    if (!this.colorEnabled) return PLAIN;
    if (!this.paint) {
      const { Chalk } = await import('chalk');
      const c = new Chalk({ level: 1 });
      this.paint = { bold: c.bold, green: c.green, yellow: c.yellow, red: c.red, dim: c.dim };
    }
    return this.paint;
  }
}

export function isCI(env: NodeJS.ProcessEnv): boolean {
  return Boolean(env.CI && env.CI !== 'false' && env.CI !== '0');
}
